// A HEAD is answered with its GET's headers, the body's length included, and no body
// (core/http/head): pages, JSON, assets, a file read through the node, the node itself.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { servedPanelWithServer, type ServedPanel } from "./helpers/panel-node";

let rig: ServedPanel;
let base: string;
beforeAll(async () => {
  rig = await servedPanelWithServer("headed");
  base = `http://127.0.0.1:${rig.server.port}`;
  writeFileSync(join(rig.node.folder(rig.id), "world.bin"), new Uint8Array(1024 * 1024 + 7).fill(7));
});
afterAll(() => rig.stop());

/** HEAD and GET of one address, as a client over HTTP sends them. */
async function both(url: string, headers: Record<string, string> = {}) {
  // Lengths as sent: fetch would ask for gzip and hand back the bytes unpacked.
  const sent = { "accept-encoding": "identity", ...headers };
  const head = await fetch(url, { method: "HEAD", headers: sent, redirect: "manual" });
  const get = await fetch(url, { headers: sent, redirect: "manual", decompress: false });
  const body = new Uint8Array(await get.arrayBuffer());
  return { head, get, body, headBody: new Uint8Array(await head.arrayBuffer()) };
}

test("pages, JSON, assets and a refusal: the GET's status, type and length, no body", async () => {
  const cookie = `kiln=${rig.ctx.admin.token}`;
  const login = await (await fetch(`${base}/auth/login`)).text();
  const asset = /href="(\/assets\/[^"]+\.css)"/.exec(login)![1]!;
  const cases: Array<[string, Record<string, string>]> = [
    ["/auth/login", {}],
    ["/api/config", {}],
    ["/api/servers", { cookie }],
    [`/server/${rig.id}`, { cookie, accept: "text/html" }],
    [asset, {}],
    [asset, { "accept-encoding": "gzip" }],
    ["/api/nothing-here", {}],
    ["/api/servers", {}],
  ];
  for (const [path, headers] of cases) {
    const { head, get, body, headBody } = await both(`${base}${path}`, headers);
    expect({ path, status: head.status, type: head.headers.get("content-type"), length: head.headers.get("content-length"), sent: headBody.length }).toEqual({
      path,
      status: get.status,
      type: get.headers.get("content-type"),
      length: String(body.length),
      sent: 0,
    });
    expect(body.length).toBeGreaterThan(0);
  }
});

test("a file read through the node: its length, not its bytes", async () => {
  const url = `${base}/proxy/daemon/server/${rig.id}/file/world.bin`;
  const { head, get, body, headBody } = await both(url, { cookie: `kiln=${rig.ctx.admin.token}` });
  expect(get.status).toBe(200);
  expect(body.length).toBe(1024 * 1024 + 7);
  expect([head.status, head.headers.get("content-length"), headBody.length]).toEqual([200, String(1024 * 1024 + 7), 0]);
  expect(head.headers.get("content-disposition")).toBe(get.headers.get("content-disposition"));
});

test("the daemon root still answers HEAD with 204, as PufferPanel's does", async () => {
  const head = await fetch(`${base}/proxy/daemon/`, { method: "HEAD", headers: { cookie: `kiln=${rig.ctx.admin.token}` } });
  expect(head.status).toBe(204);
});
