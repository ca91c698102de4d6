// Attack: a hostile source answers the target's manifest request with millions of tiny values
// (`{"entries":[{},{},…`). Under the 64 MiB cap that is 22 million objects, which JSON.parse made
// into about 2 GB over some 16 s of the node's one thread (every server on the node stalled) before
// the entry count refused the list; a source that kept the answer open after them held the pull
// until its stall timer. The target now counts the values as the bytes arrive and refuses the
// manifest (ErrTransferManifest) once there are more than a real one holds, without waiting for the end.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, readdirSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { TRANSFER_SOURCE_PATHS, type PullProgress } from "../../core/transfer/wire";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
const TARGET_ID = "flooded";

beforeAll(async () => {
  node = await startTestNode();
  await node.json("PUT", `/daemon/server/${TARGET_ID}`, echoTemplate());
  mkdirSync(node.folder(TARGET_ID), { recursive: true });
});
afterAll(() => node?.stop());

test("a manifest of a million empty entries, its answer left open, is refused at once", async () => {
  const flood = new TextEncoder().encode("{},".repeat(1_000_000));
  let asked = 0;
  const source = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    idleTimeout: 0,
    fetch: (request) => {
      asked++;
      if (new URL(request.url).pathname !== TRANSFER_SOURCE_PATHS.manifest) return new Response("x");
      // The values, then nothing more: the answer never ends.
      return new Response(new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode('{"entries":[')); c.enqueue(flood); }, pull: () => new Promise(() => undefined) }));
    },
  });
  try {
    const started = Date.now();
    const response = await node.call("POST", `/daemon/server/${TARGET_ID}/transfer/pull`, { source: `http://127.0.0.1:${source.port}`, ticket: randomBytes(32).toString("base64url") });
    expect(response.status).toBe(202);
    let last!: PullProgress;
    await eventually(async () => (last = await node.json("GET", `/daemon/server/${TARGET_ID}/transfer/pull`)).state !== "copying", 15_000, "the pull to end");
    expect([last.state, last.error]).toEqual(["failed", "ErrTransferManifest"]);
    // Well before the stall timer (60 s): the refusal did not wait for the answer's end.
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(asked).toBe(1);
    expect(readdirSync(node.folder(TARGET_ID))).toEqual([]);
  } finally {
    source.stop(true);
  }
}, 30_000);
