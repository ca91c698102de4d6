// A node's every call to the panel carries a token good once; its nonce is written to the
// database (`one_time_values`, kind `node-nonce`) so that every panel process refuses it again,
// and each process's ledger of a node's nonces (NONCES_PER_NODE) was to bound what one node
// writes there. A compromised node holds its own secret and picks its tokens' expiry: tokens
// minted a second before they lapse left its ledger a second later, so the node wrote a row per
// call at whatever rate the panel answered, each kept until the hourly purge (millions of rows an
// hour). A nonce now holds its place in the ledger for a token's whole life however near its
// lapse it came, and the rows of lapsed tokens go within minutes, not an hour.
import { afterAll, beforeAll, expect, setSystemTime, test } from "bun:test";
import { and, count, eq, like } from "drizzle-orm";
import { schema } from "../../db";
import { NODE_CLOCK_SKEW_S, NODE_TOKEN_TTL_S, signNodeToken } from "../../core/node-token";
import { KilnError } from "../../core/errors";
import { callingNodes, NONCES_PER_NODE } from "../../server/services/nodes/caller";
import { testPanel, type TestPanel } from "../helpers/app";
import { onPostgres } from "../helpers/database";

let panel: TestPanel;
// An id of its own: each panel process keeps a ledger per node id, and test files share the process.
const node = { id: 7_340_021, secret: "rogue-secret-0123456789abcdefghijklm" };
beforeAll(async () => {
  panel = await testPanel();
  await panel.db.insert(schema.nodes).values({ id: node.id, name: "rogue", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2022, secret: node.secret, createdAt: new Date() }).run();
});
afterAll(() => setSystemTime());

const request = { method: "POST", target: "/api/internal/sftp-auth" };
/** A token the node signs as if a moment before its lifetime (and the clock skew) runs out. */
const aboutToLapse = () => signNodeToken(node.secret, { direction: "to-panel", nodeId: node.id, ...request }, Date.now() - (NODE_TOKEN_TTL_S + NODE_CLOCK_SKEW_S - 1) * 1000);

async function accepted(token: string): Promise<boolean> {
  try {
    await callingNodes(panel.db, { token, ...request });
    return true;
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrInvalidCredentials") return false;
    throw error;
  }
}

const rows = async () => (await panel.db.select({ n: count() }).from(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, "node-nonce"), like(schema.oneTimeValues.key, `${node.id}:%`))).get())?.n ?? 0;

// Once, on SQLite: the bound is this process's ledger in front of the database, the same code on
// either engine, and what the database adds (a nonce good once across panels) is
// cluster-node-tokens' on PostgreSQL; tens of thousands of single inserts took the PostgreSQL pass
// minutes.
test.skipIf(onPostgres())("a node minting tokens about to lapse writes no more rows than its ledger holds, and they go once lapsed", async () => {
  let now = Date.now();
  setSystemTime(new Date(now));
  let taken = 0;
  // Three rounds, each a few seconds after the last (the time the panel's clock shows).
  for (let round = 0; round < 3; round++) {
    for (let i = 0; i < Math.ceil(NONCES_PER_NODE * 0.6); i++) if (await accepted(aboutToLapse())) taken++;
    now += 3_000;
    setSystemTime(new Date(now));
  }
  expect(taken).toBeLessThanOrEqual(NONCES_PER_NODE);
  expect(await rows()).toBeLessThanOrEqual(NONCES_PER_NODE);
  // A quarter of an hour on (well before the hourly purge): a fresh token is taken, and the rows
  // of the lapsed ones are gone.
  now += 15 * 60_000;
  setSystemTime(new Date(now));
  expect(await accepted(signNodeToken(node.secret, { direction: "to-panel", nodeId: node.id, ...request }))).toBe(true);
  for (let i = 0; i < 100 && (await rows()) > 1; i++) await Bun.sleep(50);
  expect(await rows()).toBe(1);
}, 180_000);
