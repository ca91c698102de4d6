// Attack: a compromised target node answers the panel's progress polls of a move with whatever it
// likes: a total of a megabyte of text and 1e300 bytes done. The panel wrote them onto the
// transfer's row as they came (SQLite keeps text and reals in an integer column), so every page
// that showed the move carried the text and the figures were nonsense, and the row kept them once
// the move ended; and a target that says "copying" for ever kept the move going. A progress that
// is not the wire's shape (a state of PULL_STATES, counts that are whole numbers a file system can
// hold) now fails the move (ErrTransferFailed; the server stays on its source) with nothing written;
// counts that merely disagree are bounded (the bytes done never above the total).
import { afterAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { panelWithTwoNodes, setNodePort, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { eventually, type TestNode } from "../helpers/node";

let ctx: PanelWithNode;
let second: TestNode;
let nodeB: number;
panelWithTwoNodes((made) => ({ ctx, second, nodeB } = made));

/** A relay in front of the target node that rewrites its answers to progress polls. */
function lyingRelay(realPort: number, lie: (real: Record<string, unknown>) => unknown) {
  return Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: async (request) => {
      const url = new URL(request.url);
      const body = request.method === "GET" || request.method === "HEAD" ? undefined : await request.arrayBuffer();
      const real = await fetch(`http://127.0.0.1:${realPort}${url.pathname}${url.search}`, { method: request.method, headers: request.headers, body, redirect: "manual" });
      if (request.method === "GET" && /^\/daemon\/server\/[^/]+\/transfer\/pull$/.test(url.pathname) && real.status === 200) {
        return Response.json(lie((await real.json()) as Record<string, unknown>));
      }
      return new Response(real.body, { status: real.status, headers: real.headers });
    },
  });
}

const relays: ReturnType<typeof lyingRelay>[] = [];
afterAll(() => relays.forEach((relay) => relay.stop(true)));

const transferOf = async (id: string) => (await ctx.panel.db.select().from(schema.transfers).where(eq(schema.transfers.serverId, id)).get())!;

test("a target's progress of text and absurd numbers fails the move and is not written", async () => {
  const relay = lyingRelay(second.node.port, () => ({ state: "copying", bytes: 1e300, totalBytes: "A".repeat(1024 * 1024), files: 1, filesDone: 0 }));
  relays.push(relay);
  await setNodePort(ctx.panel, nodeB, relay.port!);
  const id = await ctx.createServer("lied-about");
  const started = await ctx.panel.request(`/api/servers/${id}/transfer`, { token: ctx.admin.token, ...jsonInit("POST", { node: nodeB }) });
  expect(started.status).toBe(202);
  await eventually(async () => (await transferOf(id)).state === "failed", 20_000, "the move to fail");
  const row = await transferOf(id);
  expect(row.error).toBe("ErrTransferFailed");
  for (const figure of [row.bytes, row.totalBytes, row.rate]) expect(Number.isSafeInteger(figure) && figure >= 0).toBe(true);
  expect((await ctx.panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())!.nodeId).toBe(ctx.nodeId);
  const view = await (await ctx.panel.request(`/api/servers/${id}/transfer`, { token: ctx.admin.token })).text();
  expect(view.length).toBeLessThan(4096);
}, 60_000);

test("a target that reports more bytes done than in all is shown at most the total", async () => {
  const relay = lyingRelay(second.node.port, (real) => ({ ...real, bytes: Number.MAX_SAFE_INTEGER }));
  relays.push(relay);
  await setNodePort(ctx.panel, nodeB, relay.port!);
  const id = await ctx.createServer("over-reported");
  const started = await ctx.panel.request(`/api/servers/${id}/transfer`, { token: ctx.admin.token, ...jsonInit("POST", { node: nodeB }) });
  expect(started.status).toBe(202);
  await eventually(async () => ["done", "failed"].includes((await transferOf(id)).state), 20_000, "the move to end");
  const row = await transferOf(id);
  expect(row.state).toBe("done");
  expect(row.bytes).toBeLessThanOrEqual(row.totalBytes);
}, 60_000);
