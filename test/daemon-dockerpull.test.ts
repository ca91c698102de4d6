// PufferPanel v3's dockerpull step on a real node and Docker Engine: a docker server's install
// pulls the image from a registry (a fixture registry on loopback; no real one is reachable),
// every time, as PufferPanel forces the pull; an unreachable registry fails the step with the
// reason; a host server's install fails the step saying it needs docker, as PufferPanel's does.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { templateSchema, type ServerDefinition } from "../core/definition";
import { startTestNode, type TestNode } from "./helpers/node";
import { ensureTestImage, hasDocker, TEST_IMAGE } from "./helpers/docker";
import { startFakeRegistry, type FakeRegistry } from "./helpers/fake-registry";

const docker = hasDocker();
let node: TestNode;
let registry: FakeRegistry;
const pulled = () => `${registry.host}/kiln-test/pulled:1`;

beforeAll(async () => {
  node = await startTestNode();
  registry = startFakeRegistry("kiln-test/pulled", ["1", "2"]);
  if (docker) await ensureTestImage();
});
afterAll(async () => {
  if (docker) Bun.spawnSync(["docker", "rmi", "-f", pulled(), `${registry.host}/kiln-test/pulled:2`], { stdout: "ignore", stderr: "ignore" });
  registry.stop();
  await node.stop();
});

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const def = (raw: Record<string, unknown>): ServerDefinition => templateSchema.parse({ display: "dockerpull", run: { command: "true" }, ...raw });
const imagePresent = (image: string) => Bun.spawnSync(["docker", "image", "inspect", image], { stdout: "ignore", stderr: "ignore" }).exitCode === 0;

async function install(id: string, definition: ServerDefinition): Promise<Response> {
  await node.json("PUT", `/daemon/server/${id}`, definition);
  return node.call("POST", `/daemon/server/${id}/install?wait=true`);
}

describe.if(docker)("dockerpull on a docker server", () => {
  test("pulls the image through the Engine, and pulls again on the next install (forced, as PufferPanel)", async () => {
    Bun.spawnSync(["docker", "rmi", "-f", pulled()], { stdout: "ignore", stderr: "ignore" });
    const definition = def({ environment: { type: "docker", image: TEST_IMAGE }, install: [{ type: "dockerpull", imageName: pulled() }] });
    const first = await install("pull1", definition);
    expect(first.status).toBe(204);
    expect(imagePresent(pulled())).toBe(true);
    const text = await consoleText("pull1");
    expect(text).toContain(`pulling image ${pulled()}`);
    expect(text).toContain("[docker] Status: Downloaded newer image");
    const manifestsBefore = registry.requests.filter((r) => r.includes("/manifests/")).length;
    expect((await node.call("POST", "/daemon/server/pull1/install?wait=true")).status).toBe(204);
    expect(registry.requests.filter((r) => r.includes("/manifests/")).length).toBeGreaterThan(manifestsBefore);
  }, 60_000);

  test("the image's tag may come from a variable", async () => {
    const definition = def({
      environment: { type: "docker", image: TEST_IMAGE },
      data: { tag: { type: "string", value: "2", userEdit: true } },
      install: [{ type: "dockerpull", imageName: `${registry.host}/kiln-test/pulled:\${tag}` }],
    });
    expect((await install("pull2", definition)).status).toBe(204);
    expect(imagePresent(`${registry.host}/kiln-test/pulled:2`)).toBe(true);
  }, 60_000);

  test("an unreachable registry fails the step with the reason; the server stays usable", async () => {
    const res = await install("pull3", def({ environment: { type: "docker", image: TEST_IMAGE }, install: [{ type: "dockerpull", imageName: "127.0.0.1:1/kiln-test/nowhere:1" }] }));
    const { error } = await res.json();
    expect(error).toMatchObject({ code: "ErrStepFailed", metadata: { step: "dockerpull" } });
    expect(error.metadata.reason).toContain("image 127.0.0.1:1/kiln-test/nowhere:1 could not be pulled");
    expect(await consoleText("pull3")).toContain("(dockerpull) failed: image 127.0.0.1:1/kiln-test/nowhere:1 could not be pulled");
    expect((await node.json("GET", "/daemon/server/pull3/status")).installing).toBe(false);
  }, 60_000);
});

describe("dockerpull on a host server", () => {
  test("fails the step, saying it needs a docker environment; nothing reaches a registry", async () => {
    const before = registry.requests.length;
    const res = await install("pull4", def({ environment: { type: "host" }, install: [{ type: "dockerpull", imageName: pulled() }, { type: "writefile", target: "after.txt", text: "x" }] }));
    const { error } = await res.json();
    expect(error).toMatchObject({ code: "ErrStepFailed", metadata: { step: "dockerpull", reason: "dockerpull needs a docker environment; this server's environment is host" } });
    expect(registry.requests.length).toBe(before);
  });
});
