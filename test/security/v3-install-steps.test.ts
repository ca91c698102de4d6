// Attack: the install steps PufferPanel v3 templates bring that reach out of the node:
// dockerpull and curseforge. A user who may edit a server's variables, install it and save tasks
// tries to make the node pull an image of their choosing (a repository, registry or digest in a
// tag variable, a dockerpull in a task), and a CurseForge answer (the fixture API standing in
// for a hostile or broken one) tries to climb out of the server's folder (pack entries, versions
// that go into Maven paths and file names), to fetch file:// URLs or to carry the node's API
// key elsewhere by a redirect; ids that are not ids never reach the API. Each is refused with a reason and changes nothing
// outside the server's folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { templateSchema } from "../../core/definition";
import { stepSchema } from "../../core/definition/steps";
import { rawZip } from "../../daemon/files/extract-test-archives";
import { runSteps } from "../../daemon/processors";
import { startTestNode, type TestNode } from "../helpers/node";
import { API_KEY, startCurseForgeFixture, type CurseForgeFixture } from "../helpers/curseforge-fixture";
import { startFixtureSources, type FixtureSources } from "../helpers/step-sources";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { startFakeRegistry, type FakeRegistry } from "../helpers/fake-registry";

let node: TestNode;
let ctx: PanelWithNode;
let registry: FakeRegistry;
let curse: CurseForgeFixture;
let sites: FixtureSources;
beforeAll(async () => {
  curse = startCurseForgeFixture();
  sites = startFixtureSources();
  node = await startTestNode({ stopTimeoutMs: 2000, sources: curse.sources, curseforgeKey: API_KEY });
  ctx = await panelWithNode(node);
  registry = startFakeRegistry("kiln-test/pulled", ["1"]);
});
afterAll(async () => {
  // The server's install pulled the fixture registry's image; the registry's port is new each run.
  Bun.spawnSync(["docker", "rmi", "-f", `${registry.host}/kiln-test/pulled:1`], { stdout: "ignore", stderr: "ignore" });
  registry.stop();
  curse.stop();
  sites.stop();
  await node.stop();
});

const variable = (value: string, userEdit: boolean) => ({ type: "string", value, display: "x", desc: "", required: true, userEdit });
const as = (token: string, method: string, path: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${path}`, { token, ...jsonInit(method, body) });

async function template(name: string, body: Record<string, unknown>): Promise<Response> {
  return ctx.panel.request(`/api/templates/${name}`, { token: ctx.admin.token, ...jsonInit("PUT", { display: name, type: "test", icon: "x", run: { command: "true" }, ...body }) });
}

async function server(templateName: string, environment: string) {
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: `${templateName}-${Math.random().toString(36).slice(2, 7)}`, node: ctx.nodeId, template: templateName, environment: { type: environment } }) });
  if (res.status !== 201) throw new Error(`create failed: ${await res.text()}`);
  const { id } = await res.json();
  const user = await ctx.userWith(id, { editServerData: true, installServer: true, viewServerConsole: true, putServerFiles: true });
  return { id, user };
}

async function expectRefused(response: Response, code: string, text?: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  if (text) expect(JSON.stringify(body.error.metadata)).toContain(text);
  expect(JSON.stringify(body)).not.toContain(node.config.dataDir);
}

/** A failed install: ErrStepFailed naming the step, the reason saying why (never a stack or a host path). */
async function expectStepFailed(response: Response, step: string, reason: string): Promise<void> {
  const body = await response.json();
  expect(body.error).toMatchObject({ code: "ErrStepFailed", metadata: { step } });
  expect(body.error.metadata.reason).toContain(reason);
  expect(JSON.stringify(body)).not.toContain(node.config.dataDir);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/);
}

describe("dockerpull: the image is the template's", () => {
  test("a template whose dockerpull repository a user's variable names is refused when saved", async () => {
    await expectRefused(await template("pull-repo", { environment: { type: "docker", image: "kiln-test/busybox" }, data: { image: variable("kiln-test/busybox", true) }, install: [{ type: "dockerpull", imageName: "${image}" }] }), "ErrTemplateFieldInvalid", "install.0.imageName");
    await expectRefused(await template("pull-registry", { environment: { type: "docker", image: "kiln-test/busybox" }, data: { reg: variable("evil.example", true) }, install: [{ type: "dockerpull", imageName: "${reg}/busybox:1" }] }), "ErrTemplateFieldInvalid", "install.0.imageName");
    expect((await ctx.panel.request("/api/templates/pull-repo", { token: ctx.admin.token })).status).toBe(404);
  });

  test("a user's tag value naming another repository, registry or digest fails the install; nothing is pulled", async () => {
    expect((await template("pull-tag", { environment: { type: "docker", image: "kiln-test/busybox" }, supportedEnvironments: [{ type: "docker", image: "kiln-test/busybox" }], data: { tag: variable("1", true) }, install: [{ type: "dockerpull", imageName: `${registry.host}/kiln-test/pulled:\${tag}` }] })).status).toBe(200);
    const { id, user } = await server("pull-tag", "docker");
    // The install a new server gets straight away pulls the template's own tag; the node runs
    // installs one after another, so this one returns once that pull is over.
    expect((await as(user.token, "POST", `${id}/install?wait=true`)).status).toBeLessThan(300);
    const before = registry.requests.length;
    for (const tag of ["1/../../attacker/rootkit", "1@sha256:0000", "evil.example:5000/root", "1 --all-tags", "$(id)"]) {
      expect((await as(user.token, "POST", `${id}/data`, { data: { tag } })).status).toBe(204);
      await expectStepFailed(await as(user.token, "POST", `${id}/install?wait=true`), "dockerpull", "the value of tag is not an image tag");
    }
    expect(registry.requests.length).toBe(before);
  }, 30_000);

  test("a dockerpull in a task is an administrator's: a user's task with one is refused and not stored", async () => {
    expect((await template("pull-task", { environment: { type: "docker", image: "kiln-test/busybox" }, supportedEnvironments: [{ type: "docker", image: "kiln-test/busybox" }] })).status).toBe(200);
    const { id } = await server("pull-task", "docker");
    const editor = await ctx.userWith(id, { editServerData: true, putServerFiles: true, installServer: true, startServer: true, stopServer: true, sendServerConsole: true });
    await expectRefused(await as(editor.token, "POST", `${id}/tasks`, { name: "pull", cronSchedule: null, operations: [{ type: "dockerpull", imageName: "attacker/rootkit:latest" }] }), "ErrNoPermission");
    expect(Object.keys((await node.json("GET", `/daemon/server/${id}/tasks`)).tasks)).toEqual([]);
  });
});

describe("curseforge: what the API answers stays in the server's folder", () => {
  /** Installs project 900's file `fileId` (set by the test) on a fresh server; the answer's body. */
  async function installPack(id: string, fileId: number | string, java = "java"): Promise<{ error: { code: string; metadata: { step: string; reason: string } } }> {
    await node.json("PUT", `/daemon/server/${id}`, templateSchema.parse({ display: "cf", environment: { type: "host" }, install: [{ type: "curseforge", projectId: "900", fileId: String(fileId), java }], run: { command: "true" } }));
    const res = await node.call("POST", `/daemon/server/${id}/install?wait=true`);
    expect(res.status).not.toBe(204);
    return res.json();
  }
  const serverDir = (id: string) => node.folder(id);

  test("a pack whose entries climb out is refused whole; nothing lands outside, nothing is left inside", async () => {
    curse.setFile({ id: 9001, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, raw: new Uint8Array(rawZip([{ name: "mods/ok.jar", data: "ok" }, { name: "../../escaped.txt", data: "x" }])) });
    const body = await installPack("cf-slip", 9001);
    expect(body.error.code).toBe("ErrStepFailed");
    expect(existsSync(join(node.config.dataDir, "escaped.txt"))).toBe(false);
    expect(existsSync(join(dirname(serverDir("cf-slip")), "escaped.txt"))).toBe(false);
    expect(readdirSync(serverDir("cf-slip"))).toEqual([]);
  }, 30_000);

  test("a pack whose bytes are not what CurseForge hashed, or with no SHA-1 listed: refused, nothing unpacked", async () => {
    curse.setFile({ id: 9005, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, zip: { "mods/swapped.jar": "not what was listed" }, sha1: "1".repeat(40) });
    const swapped = await installPack("cf-swapped", 9005);
    expect(swapped.error.metadata.reason).toContain("checksum mismatch");
    expect(readdirSync(serverDir("cf-swapped"))).toEqual([]);
    const fetchedBefore = curse.requests.filter((r) => r.path === "/files/9006.zip").length;
    curse.setFile({ id: 9006, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, zip: { "mods/unlisted.jar": "x" }, sha1: null });
    const unlisted = await installPack("cf-unlisted", 9006);
    expect(unlisted.error.metadata.reason).toBe("CurseForge lists no SHA-1 for file 9006: it is not installed unverified");
    expect(readdirSync(serverDir("cf-unlisted"))).toEqual([]);
    expect(curse.requests.filter((r) => r.path === "/files/9006.zip").length).toBe(fetchedBefore);
  }, 30_000);

  test("a download URL that is not http(s) is never fetched", async () => {
    for (const [i, url] of ["file:///etc/passwd", "ftp://127.0.0.1/pack.zip", "javascript:alert(1)"].entries()) {
      curse.setFile({ id: 9010 + i, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, downloadUrl: url, sha1: "0".repeat(40) });
      const body = await installPack(`cf-url${i}`, 9010 + i);
      expect(body.error.metadata.reason).toContain("only http and https URLs can be fetched");
      expect(readdirSync(serverDir(`cf-url${i}`))).toEqual([]);
    }
  }, 30_000);

  test("versions from the pack that would climb a Maven path or a file name are refused before any fetch", async () => {
    const hostile = ["../../../../etc", "1.20.1/../../x", "1.20.1?x=1", "$(id)", "1 2", ""];
    for (const [i, version] of hostile.entries()) {
      curse.setFile({ id: 9020 + i, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, zip: { "variables.txt": `MODLOADER=forge\nMINECRAFT_VERSION=${version}\nMODLOADER_VERSION=47.2.0\n`, "config/a.cfg": "1" } });
      const body = await installPack(`cf-ver${i}`, 9020 + i);
      expect(body.error.metadata.reason).toContain("which is not a version");
    }
    curse.setFile({ id: 9030, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: false, serverPackFileId: 9031, zip: { "manifest.json": JSON.stringify({ minecraft: { version: "1.20.1", modLoaders: [{ id: "neoforge-../../../../x", primary: true }] } }) } });
    curse.setFile({ id: 9031, projectId: 900, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, parentProjectFileId: 9030, zip: { "mods/a.jar": "a", "config/a.cfg": "1" } });
    expect((await installPack("cf-ver-manifest", 9030)).error.metadata.reason).toContain("which is not a version");
    expect(curse.requests.filter((r) => r.path.includes("..") || r.path.includes("etc"))).toEqual([]);
  }, 60_000);

  test("ids that are not CurseForge ids are refused before any request", async () => {
    const before = curse.requests.length;
    for (const [i, fileId] of ["1/../../2", "9001?x", "-1", "9001 9002"].entries()) {
      expect((await installPack(`cf-id${i}`, fileId)).error.metadata.reason).toBe("projectId and fileId must be CurseForge ids (numbers)");
    }
    expect(curse.requests.length).toBe(before);
  }, 30_000);

  test("an API answer that redirects is not followed: the key never reaches another host", async () => {
    const seen: Array<string | null> = [];
    const elsewhere = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => (seen.push(req.headers.get("x-api-key")), Response.json({ data: { id: 1, isServerPack: true, downloadUrl: null } })) });
    const redirecting = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.redirect(`http://127.0.0.1:${elsewhere.port}/v1/mods/1/files/1`, 302) });
    try {
      const { ctx: stepCtx, lines } = sites.context();
      stepCtx.curseforgeKey = API_KEY;
      stepCtx.sources = { ...stepCtx.sources, curseforge: `http://127.0.0.1:${redirecting.port}` };
      const error = await runSteps([stepSchema.parse({ type: "curseforge", projectId: "1", fileId: "1" })], {}, stepCtx).catch((e) => e);
      expect(error.code).toBe("ErrStepFailed");
      expect(seen).toEqual([]);
      expect(lines.join("\n")).not.toContain(API_KEY);
    } finally {
      redirecting.stop(true);
      elsewhere.stop(true);
    }
  });
});
