// Attack: a compromised target node holds the ticket of a move and opens the source's file route
// hundreds of times at once without reading the answers. Each such request held an open
// descriptor of the server's file and a read buffer on the source for as long as the target kept
// its connection (the node's HTTP server has no idle timeout), so one move could use up the
// source node's descriptors, and every other server on it with them. A ticket now opens at most
// MAX_READS_PER_OFFER reads at once (manifests and files together; a pull needs five); past that
// ErrTooManyRequests (429) with nothing opened, and a read the target ended gives its slot back.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TRANSFER_SOURCE_PATHS } from "../../core/transfer/wire";
import { MAX_READS_PER_OFFER } from "../../daemon/transfer/offers";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
const SOURCE_ID = "held-open";

beforeAll(async () => {
  node = await startTestNode();
  await node.json("PUT", `/daemon/server/${SOURCE_ID}`, echoTemplate());
  mkdirSync(node.folder(SOURCE_ID), { recursive: true });
  writeFileSync(join(node.folder(SOURCE_ID), "world.bin"), Buffer.alloc(32 * 1024 * 1024, 7));
});
afterAll(() => node?.stop());

test("a ticket opens a bounded number of reads at once, and an ended read gives its slot back", async () => {
  const { ticket } = await node.json("POST", `/daemon/server/${SOURCE_ID}/transfer/offer`);
  const url = `${node.node.url}${TRANSFER_SOURCE_PATHS.file}?path=world.bin`;
  const aborts: AbortController[] = [];
  const open = async () => {
    const abort = new AbortController();
    aborts.push(abort);
    // The answer's head is read, its 32 MiB body never: the source's stream stays open.
    return await fetch(url, { headers: { authorization: `Bearer ${ticket}` }, signal: abort.signal });
  };
  try {
    const answers = await Promise.all(Array.from({ length: 64 }, open));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200).length).toBe(MAX_READS_PER_OFFER);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.every((a) => a.status === 429)).toBe(true);
    for (const answer of refused) expect((await answer.json()).error.code).toBe("ErrTooManyRequests");
    for (const abort of aborts) abort.abort();
    aborts.length = 0;
    // The target went away: its reads end on the source and the ticket opens the file again.
    await eventually(async () => {
      const again = await open();
      const ok = again.status === 200;
      if (!ok) await again.body?.cancel();
      return ok;
    }, 10_000, "a slot given back");
    // A whole manifest or file, read to its end, holds nothing afterwards.
    for (const abort of aborts) abort.abort();
    aborts.length = 0;
    await eventually(async () => (await fetch(`${node.node.url}${TRANSFER_SOURCE_PATHS.manifest}`, { headers: { authorization: `Bearer ${ticket}` } })).status === 200, 10_000, "the manifest");
    for (let i = 0; i < MAX_READS_PER_OFFER + 4; i++) {
      const whole = await fetch(`${node.node.url}${TRANSFER_SOURCE_PATHS.manifest}`, { headers: { authorization: `Bearer ${ticket}` } });
      expect(whole.status).toBe(200);
      await whole.text();
    }
  } finally {
    for (const abort of aborts) abort.abort();
  }
}, 60_000);
