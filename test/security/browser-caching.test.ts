// Attack: what a browser keeps. A server's file read through the panel was kept by the browser
// (the node's Last-Modified and no Cache-Control let it, for a tenth of the file's age): the
// editor opened the stale copy and its save wiped a newer change, and after logout the file was
// still readable from the cache on a shared computer. A node gone hostile could also ask for
// shared caching (`public, max-age`) or name a script type the runnable-type check missed
// (`text/javascript1.5`, a list of types read by its last). Every proxied answer must be
// `private, no-store` and never a script type; every other answer not marked cacheable by its
// route is `no-store`; logout clears what the browser cached.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { startTestNode, type TestNode } from "../helpers/node";
import { panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { recordNodeCalls, type NodeRecorder } from "../helpers/node-recorder";

let node: TestNode;
let ctx: PanelWithNode;
let recorder: NodeRecorder;
let id: string;

/** What the hostile node answers for `hostile-<n>.txt`: its content type, and a cache it asks for. */
const HOSTILE_TYPES = ["text/javascript1.5", "text/plain, text/javascript", "application/x-ecmascript; charset=utf-8", " TEXT/CSS", "text/plain; charset=utf-8, text/javascript", "text/plain;,text/javascript"];

beforeAll(async () => {
  node = await startTestNode();
  ctx = await panelWithNode(node);
  id = await ctx.createServer("cached");
  recorder = await recordNodeCalls(ctx, (req) => {
    const hostile = /\/file\/hostile-(\d)\.txt$/.exec(new URL(req.url).pathname);
    if (!hostile) return undefined;
    return new Response("alert(document.domain)", { headers: { "content-type": HOSTILE_TYPES[Number(hostile[1])]!, "cache-control": "public, max-age=31536000, immutable" } });
  });
});
afterAll(async () => {
  recorder?.stop();
  await node.stop();
});

test("a server's file is never kept by a browser or a shared cache, whatever the node asks", async () => {
  await Bun.write(node.folder(id, "server.properties"), "rcon.password=hunter2\n");
  const res = await ctx.panel.request(`/proxy/daemon/server/${id}/file/server.properties`, { token: ctx.admin.token });
  expect(await res.text()).toBe("rcon.password=hunter2\n");
  expect(res.headers.get("cache-control")).toBe("private, no-store");
  for (const n of HOSTILE_TYPES.keys()) {
    const hostile = await ctx.panel.request(`/proxy/daemon/server/${id}/file/hostile-${n}.txt`, { token: ctx.admin.token });
    await hostile.arrayBuffer();
    expect({ n, type: hostile.headers.get("content-type"), cache: hostile.headers.get("cache-control") }).toEqual({ n, type: "text/plain; charset=utf-8", cache: "private, no-store" });
  }
});

test("a signed-in user's answers are not kept either; assets and translations keep their own caching", async () => {
  for (const path of ["/api/self", `/api/nodes/${ctx.nodeId}/deployment`, "/api/servers"]) {
    const res = await ctx.panel.request(path, { token: ctx.admin.token });
    await res.arrayBuffer();
    expect({ path, cache: res.headers.get("cache-control") }).toEqual({ path, cache: "no-store" });
  }
  const asset = [...ctx.panel.deps.assets.statics.keys()][0];
  expect(asset).toBeDefined();
  expect((await ctx.panel.request(`/static/${asset}`)).headers.get("cache-control")).toContain("max-age");
  expect((await ctx.panel.request("/i18n/messages?prefix=errors.")).headers.get("cache-control")).toContain("max-age");
});

test("logging out clears what the browser cached", async () => {
  const res = await ctx.panel.request("/auth/logout", { token: ctx.admin.token, method: "POST", headers: { origin: "http://localhost" } });
  expect(res.status).toBe(204);
  expect(res.headers.get("clear-site-data")).toBe('"cache"');
});
