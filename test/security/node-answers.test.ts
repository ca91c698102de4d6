// A node's answers are read as a stranger's: a compromised node, or a listener at a node's address
// run by someone who may edit nodes, answers with a body that never ends, one byte at a time, or
// gigabytes. The panel reads at most a bounded size and waits a bounded time for each (its proof,
// its status, every answer the contract names), then drops the connection and says the node does
// not answer (ErrServiceNotAvailable); it never holds the whole body in memory nor waits forever.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { schema } from "../../db";
import { nodeProof, NODE_PROOF_PATH } from "../../core/node-token";
import { KilnError } from "../../core/errors";
import { nodeStatus } from "../../server/daemon-client";
import { checkNodes } from "../../server/node-heartbeat";
import { NODE_ANSWER_MAX_BYTES } from "../../server/node-answer-bounds";
import { fetchDefinition } from "../../server/services/servers";
import { removeFromNode } from "../../server/services/servers/lifecycle";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { SCOPES } from "../../core/scopes";

const SECRET = "hostile-node-secret-0123456789abcdef";
const CHUNK = new Uint8Array(64 * 1024).fill(0x20);
/** What loopback sockets' buffers take in beyond what the panel read (both ends' kernel buffers, autotuned). */
const SOCKET_SLACK = 16 * 1024 * 1024;
type Mode = "endless" | "trickle";
let mode: Mode = "endless";
let proofMode: "honest" | "endless" = "honest";
/** What the hostile node answers a DELETE: an error body with this code. */
let refusalCode = "ErrFileExists";
/** Status questions each hostile listener was asked, by its port. */
const statusAsked = new Map<number, number>();
/** Bytes the hostile node handed to the connection for the last answer, and whether its reader hung up. */
let sent = 0;
let hungUp = false;
let panel: TestPanel;
let hostile: ReturnType<typeof Bun.serve>;
let node: typeof schema.nodes.$inferSelect;
const SERVER_ID = "0123abcd";

/** A JSON-looking body that never ends: as fast as the reader takes it, or a byte a second. */
function endlessBody(prefix: string): ReadableStream<Uint8Array> {
  sent = 0;
  hungUp = false;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (first) {
        first = false;
        controller.enqueue(new TextEncoder().encode(prefix));
        return;
      }
      if (mode === "trickle") await Bun.sleep(1000);
      const chunk = mode === "trickle" ? CHUNK.subarray(0, 1) : CHUNK;
      sent += chunk.byteLength;
      controller.enqueue(chunk);
    },
    cancel() {
      hungUp = true;
    },
  });
}

beforeAll(async () => {
  panel = await testPanel();
  hostile = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(request) {
      const url = new URL(request.url);
      if (url.pathname === NODE_PROOF_PATH) {
        if (proofMode === "endless") return new Response(endlessBody('{"proof":"'), { headers: { "content-type": "application/json" } });
        return Response.json({ proof: nodeProof(SECRET, Number(url.searchParams.get("node")), url.searchParams.get("challenge") ?? "") });
      }
      if (request.method === "DELETE") return Response.json({ error: { code: refusalCode, msg: "as the node says" } }, { status: 409 });
      if (url.pathname === "/daemon") statusAsked.set(hostile.port!, (statusAsked.get(hostile.port!) ?? 0) + 1);
      return new Response(endlessBody('{"version":"'), { headers: { "content-type": "application/json" } });
    },
  });
  node = await panel.db.insert(schema.nodes).values({ name: "hostile", publicHost: "127.0.0.1", publicPort: hostile.port!, privateHost: "127.0.0.1", privatePort: hostile.port!, sftpPort: 5657, secret: SECRET, createdAt: new Date() }).returning().get();
  await panel.db.insert(schema.servers).values({ id: SERVER_ID, name: "on the hostile node", nodeId: node.id, createdAt: new Date() }).run();
});
afterAll(() => hostile.stop(true));

/** Whether the hostile node sees its reader hang up within a second. */
async function hangsUp(): Promise<boolean> {
  for (let i = 0; i < 50 && !hungUp; i++) await Bun.sleep(20);
  return hungUp;
}

async function refusal(work: Promise<unknown>): Promise<string> {
  try {
    await work;
    return "answered";
  } catch (error) {
    return error instanceof KilnError ? error.code : String(error);
  }
}

test("a status answer that never ends: the heartbeat gives up on it within its time-out, having read about a megabyte", async () => {
  mode = "endless";
  const started = Date.now();
  expect(await nodeStatus(node, 3000)).toBeNull();
  expect(Date.now() - started).toBeLessThan(6000);
  expect(await hangsUp()).toBe(true);
  // What the node pushed: the cap, plus what the sockets' buffers hold.
  expect(sent).toBeLessThan(1024 * 1024 + SOCKET_SLACK);
});

test("a status answer of a byte a second: the heartbeat gives up when its time-out has passed, not when the body ends", async () => {
  mode = "trickle";
  const started = Date.now();
  expect(await nodeStatus(node, 1500)).toBeNull();
  expect(Date.now() - started).toBeLessThan(4000);
  expect(await hangsUp()).toBe(true);
});

test("an operation's answer of gigabytes: ErrServiceNotAvailable once past the cap, the connection dropped", async () => {
  mode = "endless";
  const before = process.memoryUsage().rss;
  expect(await refusal(fetchDefinition(panel.db, SERVER_ID))).toBe("ErrServiceNotAvailable");
  await Bun.sleep(200);
  expect(sent).toBeGreaterThan(NODE_ANSWER_MAX_BYTES / 2);
  expect(sent).toBeLessThan(NODE_ANSWER_MAX_BYTES + SOCKET_SLACK);
  // The connection was dropped, not drained.
  expect(await hangsUp()).toBe(true);
  // The body was never held whole (it would be at least the cap in memory, twice over as text).
  expect(process.memoryUsage().rss - before).toBeLessThan(3 * NODE_ANSWER_MAX_BYTES);
});

test("through the proxy: an answer past the cap is cut off, and the node's connection is dropped", async () => {
  mode = "endless";
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const res = await panel.request(`/proxy/daemon/server/${SERVER_ID}`, { token: admin.token });
  let read = 0;
  let broken = false;
  try {
    for await (const chunk of res.body!) read += chunk.byteLength;
  } catch {
    broken = true;
  }
  expect(broken).toBe(true);
  expect(read).toBeLessThanOrEqual(NODE_ANSWER_MAX_BYTES + 20);
  expect(await hangsUp()).toBe(true);
});

test("a proof that never ends: the node is unverified at once, never a token sent, the body not read to its end", async () => {
  proofMode = "endless";
  mode = "endless";
  // A node not yet proven at its address (another secret would be another key: a new row).
  const fresh = await panel.db.insert(schema.nodes).values({ name: "hostile-proof", publicHost: "127.0.0.1", publicPort: hostile.port!, privateHost: "127.0.0.1", privatePort: hostile.port!, sftpPort: 5657, secret: SECRET, createdAt: new Date() }).returning().get();
  const started = Date.now();
  expect(await nodeStatus(fresh, 3000)).toBeNull();
  expect(Date.now() - started).toBeLessThan(7000);
  expect(await hangsUp()).toBe(true);
  expect(sent).toBeLessThan(4096 + SOCKET_SLACK);
  proofMode = "honest";
});

test("heartbeat rounds while a node trickles its status: the node is asked once at a time, never a pile of rounds", async () => {
  mode = "trickle";
  statusAsked.clear();
  // Three rounds started together, as a timer and node creations would start them.
  await Promise.all([checkNodes(panel.db, () => false), checkNodes(panel.db, () => false), checkNodes(panel.db, () => false)]);
  // Each node row at this listener is asked once, not once per round.
  const rows = (await panel.db.select().from(schema.nodes).all()).filter((row) => row.privatePort === hostile.port);
  expect(statusAsked.get(hostile.port!)).toBe(rows.length);
  mode = "endless";
});

test("adding a node asks that node only, not every node; a node name of megabytes is refused and nothing stored", async () => {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  statusAsked.clear();
  const body = { name: "added", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2022 };
  const created = await panel.request("/api/nodes", { token: admin.token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(created.status).toBe(201);
  await Bun.sleep(500);
  expect(statusAsked.get(hostile.port!) ?? 0).toBe(0);
  const before = (await panel.db.select().from(schema.nodes).all()).length;
  for (const name of ["n".repeat(65), "n".repeat(2_000_000)]) {
    const res = await panel.request("/api/nodes", { token: admin.token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, name }) });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
  }
  expect((await panel.db.select().from(schema.nodes).all()).length).toBe(before);
});

test("a node's refusal passes on its catalogue code, but never one about the caller's sign-in nor a name that is no code", async () => {
  const answered = async (code: string) => {
    refusalCode = code;
    return await refusal(removeFromNode(node, SERVER_ID));
  };
  expect(await answered("ErrFileExists")).toBe("ErrFileExists");
  for (const code of ["ErrSessionTimedOut", "ErrInvalidCredentials", "toString", "__proto__", "constructor"]) expect([code, await answered(code)]).toEqual([code, "ErrServiceNotAvailable"]);
});
