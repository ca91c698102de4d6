// Attack: a GET that changes state, reached from another site. PufferPanel's extract call is a
// GET (/proxy/daemon/server/{id}/extract/{path}); with the session in a cookie (PufferPanel's own
// puffer_auth, or Kiln's), a link, an image or a page opened from a mail client makes the browser
// unpack an archive over the server's files. Every state change through a cookie must prove it
// comes from the panel's own pages, whatever its method; the refused attempt changes nothing.
// Bearer clients (puffMob, scripts) keep PufferPanel's GET route.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { proxyChangesState } from "../../server/routes/proxy-rules";
import { jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let id = "";
let editor: { token: string };

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  id = await ctx.createServer("cross-site");
  await ctx.node.call("POST", `/daemon/server/${id}/install?wait=true`);
  editor = await ctx.userWith(id, { viewServerFiles: true, putServerFiles: true });
  const archived = await ctx.panel.request(`/proxy/daemon/server/${id}/archive/pack.zip`, { headers: { authorization: `Bearer ${editor.token}`, ...jsonInit("POST").headers }, method: "POST", body: JSON.stringify(["motd.txt"]) });
  expect(archived.status).toBe(200);
});

const unpacked = (dest: string) => existsSync(ctx.node.folder(id, dest, "motd.txt"));

/** GET (or HEAD) extract into the (new, empty) folder `dest` with the session in a cookie and these browser headers. */
function extract(dest: string, headers: Record<string, string>, cookie = "puffer_auth", method = "GET"): Promise<Response> {
  mkdirSync(ctx.node.folder(id, dest));
  return ctx.panel.request(`/proxy/daemon/server/${id}/extract/pack.zip?destination=${dest}`, { method, headers: { cookie: `${cookie}=${editor.token}`, ...headers } });
}

async function expectRefused(response: Response, dest: string): Promise<void> {
  expect(response.status).toBe(403);
  // A HEAD answer has no body to read.
  if (response.headers.get("content-length") !== "0" && (await response.clone().text()) !== "") expect((await response.json()).error.code).toBe("ErrNoPermission");
  expect(unpacked(dest)).toBe(false);
}

describe("a state-changing GET with the session in a cookie", () => {
  test("a link on another site (Sec-Fetch-Site cross-site) does not extract, with PufferPanel's cookie or Kiln's", async () => {
    await expectRefused(await extract("a", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }), "a");
    await expectRefused(await extract("b", { "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" }), "b");
    await expectRefused(await extract("c", { "sec-fetch-site": "cross-site" }, "kiln"), "c");
  });

  test("HEAD runs the same call on the node: refused the same way", async () => {
    await expectRefused(await extract("d", { "sec-fetch-site": "cross-site" }, "puffer_auth", "HEAD"), "d");
  });

  test("a link opened from outside the browser (Sec-Fetch-Site none) is no proof either", async () => {
    await expectRefused(await extract("e", { "sec-fetch-site": "none", "sec-fetch-mode": "navigate" }), "e");
  });

  test("a browser without fetch metadata sends no Origin on a GET: no proof, refused", async () => {
    await expectRefused(await extract("f", {}), "f");
    await expectRefused(await extract("g", { origin: "http://evil.example" }), "g");
    await expectRefused(await extract("h", { origin: "null", "sec-fetch-site": "same-origin" }), "h");
  });

  test("the panel's own file manager (same-origin fetch) still extracts", async () => {
    expect((await extract("mine", { "sec-fetch-site": "same-origin", "sec-fetch-mode": "cors" })).status).toBe(204);
    expect(unpacked("mine")).toBe(true);
    expect((await extract("mine-origin", { origin: "http://localhost" })).status).toBe(204);
    expect(unpacked("mine-origin")).toBe(true);
  });

  test("bearer clients keep PufferPanel's GET route, whatever headers they carry", async () => {
    mkdirSync(ctx.node.folder(id, "bearer"));
    const res = await ctx.panel.request(`/proxy/daemon/server/${id}/extract/pack.zip?destination=bearer`, { headers: { authorization: `Bearer ${editor.token}`, "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(204);
    expect(unpacked("bearer")).toBe(true);
  });

  test("reading GETs stay open to links (a download link shared in chat still works)", async () => {
    const res = await ctx.panel.request(`/proxy/daemon/server/${id}/file/motd.txt`, { headers: { cookie: `puffer_auth=${editor.token}`, "sec-fetch-site": "cross-site" } });
    expect(res.status).toBe(200);
  });
});

describe("which calls change state comes from the proxy's route table", () => {
  test("extract is a change whatever its method; file reads, listings and downloads are not; a call the proxy does not offer changes nothing (404)", () => {
    expect(proxyChangesState("GET", "/extract/pack.zip")).toBe(true);
    expect(proxyChangesState("HEAD", "/extract/pack.zip")).toBe(true);
    for (const rest of ["/file/motd.txt", "/file", "/console", "/stats", "/status", "/zip", "/search", "/backups", "/backups/x/download", "/data", ""]) expect([rest, proxyChangesState("GET", rest)]).toEqual([rest, false]);
    for (const [method, rest] of [["POST", "/console"], ["PUT", "/file/x"], ["DELETE", "/file/x"], ["POST", "/archive/x.zip"]] as const) expect(proxyChangesState(method, rest)).toBe(true);
    expect(proxyChangesState("GET", "/no-such-call")).toBe(false);
  });
});
