// An image at a registry that answers slowly (the template's author chose it, or it is simply far
// away): the start pulls it, and a kill must end that start. The registry here accepts the pull
// and then holds its answer for the manifest. Before, the pull went on whatever the server's user
// did: kill answered after its wait, the server stayed "starting" and its power queue (stop,
// start, install, a restore) waited behind the pull for as long as the registry pleased.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, echoTemplate, eventually, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { hasDocker } from "../helpers/docker";

let t: TestNode;
let registry: ReturnType<typeof Bun.serve> | undefined;
/** Set once the Engine asks for the image's manifest (the registry then holds its answer). */
const held = { asked: false };
let release: () => void = () => undefined;

beforeAll(async () => {
  if (!hasDocker()) return;
  const released = new Promise<void>((resolve) => (release = resolve));
  // A registry on the node's loopback (the Engine pulls from 127.0.0.0/8 over plain HTTP).
  registry = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(request) {
      const path = new URL(request.url).pathname;
      if (path === "/v2/" || path === "/v2") return Response.json({}, { headers: { "Docker-Distribution-API-Version": "registry/2.0" } });
      if (path.includes("/manifests/")) {
        held.asked = true;
        await Promise.race([released, new Promise((resolve) => request.signal.addEventListener("abort", resolve))]);
        return new Response("not found", { status: 404 });
      }
      return new Response("not found", { status: 404 });
    },
  });
  t = await startTestNode({ dataDir: tempDir("kiln-slow-pull-") });
});
afterAll(async () => {
  release();
  await t?.stop();
  registry?.stop(true);
});

describe("a start pulling from a registry that holds its answer", () => {
  test.skipIf(!hasDocker())("ends when the server is killed: the start fails, the server is stopped and its power queue free", async () => {
    const image = `127.0.0.1:${registry!.port}/slow/game:1`;
    await t.json("PUT", "/daemon/server/slowpull", { ...echoTemplate({}, { type: "docker", image, networkMode: "none" }), install: [] });
    void t.call("POST", "/daemon/server/slowpull/start?wait=true").catch(() => undefined);
    await eventually(() => held.asked, 20_000, "the Engine to ask the registry for the manifest");

    const killed = await t.call("POST", "/daemon/server/slowpull/kill?wait=true");
    expect(killed.status).toBeLessThan(300);
    await eventually(async () => (await t.json("GET", "/daemon/server/slowpull/status")).starting !== true, 10_000, "the server to leave starting");
    expect((await t.json("GET", "/daemon/server/slowpull/status")).running).toBe(false);
    expect((await t.json("GET", "/daemon/server/slowpull/console")).logs.join("")).toContain("daemon.startFailed");
    // The power queue is free: a stop answers at once.
    const started = Date.now();
    const stop = await t.call("POST", "/daemon/server/slowpull/stop?wait=true");
    expect(stop.status).toBeLessThan(300);
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 90_000);
});
