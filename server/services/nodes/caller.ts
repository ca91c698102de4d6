// Calls a node makes to the panel (SFTP logins, scheduled-task checks) carry a token signed with
// the node's secret for that one request (core/node-token). These find which node is calling,
// refuse a token used before (by any panel process: the nonce is written to the database, so a
// token caught on its way to one panel is not good again at another behind the same balancer), and
// refuse a node asking about a server it does not hold.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { NODE_CLOCK_SKEW_S, NonceLedger, nonceKeptUntil, readNodeToken, verifyNodeToken } from "../../../core/node-token";
import { markUsed, purgeExpiredOf } from "../cluster/one-time-values";

/** A node's request as it reached the panel: its bearer token, method and path with query. */
export interface NodeCall {
  token: string | null;
  method: string;
  /** requestTarget of the request's URL. */
  target: string;
}

/**
 * Tokens each node has used with this panel process, a ledger per node: a node that mints tokens
 * by the hundred thousand (it holds its own secret) fills its own ledger and is refused until they
 * lapse, while every other node's logins and task checks go on. This bounds what one node writes
 * to the database's ledger (`usedNonce`) through this process; that one is what makes a token good
 * once across panels. A nonce holds its place for a fresh token's life at least (nonceKeptUntil),
 * however near its lapse the node signed it, so the bound is on rows, not only on live tokens.
 */
/** Per database (one per served panel: its node ids are its own; tests serve many in one process), by node id. */
const usedBy = new WeakMap<Db, Map<number, NonceLedger>>();
/** Over 300 calls a second for the minute a nonce is kept (its token's life and the clock skew): more than a node makes. */
export const NONCES_PER_NODE = 20_000;
/** How often this process drops the rows of lapsed nonces (the hourly purge left a flood's rows for an hour). */
const SWEEP_EVERY_MS = 60_000;
let sweptAt = 0;

function ledgerOf(db: Db, nodeId: number): NonceLedger {
  let ledgers = usedBy.get(db);
  if (!ledgers) usedBy.set(db, (ledgers = new Map()));
  let ledger = ledgers.get(nodeId);
  if (!ledger) ledgers.set(nodeId, (ledger = new NonceLedger(NONCES_PER_NODE)));
  return ledger;
}

/** The ids of the nodes whose secret signed this request's token; ErrInvalidCredentials when none did. */
export async function callingNodes(db: Db, call: NodeCall): Promise<number[]> {
  const read = readNodeToken(call.token);
  // A token naming its node is checked against that node's secret only; one naming none (a node
  // whose config has no id) against each, as every node's secret is its own.
  const candidates = !read ? [] : read.nodeId > 0 ? await db.select({ id: schema.nodes.id, secret: schema.nodes.secret }).from(schema.nodes).where(eq(schema.nodes.id, read.nodeId)).all() : await db.select({ id: schema.nodes.id, secret: schema.nodes.secret }).from(schema.nodes).all();
  const request = { direction: "to-panel" as const, method: call.method, target: call.target };
  const ids = candidates.filter((node) => verifyNodeToken(node.secret, call.token, request) !== null).map((node) => node.id);
  // Nothing about accounts or servers is said to a caller that is not a node, nor to a replay.
  // Nodes sharing a secret are one signer: its ledger is the first one's.
  const now = Date.now();
  if (ids.length === 0 || !ledgerOf(db, ids[0]!).claim(read!.nonce, read!.expiry, now) || !await usedNonce(db, ids[0]!, read!, now)) throw new KilnError("ErrInvalidCredentials", { reason: "node-token" }, "a valid node token is required");
  if (now - sweptAt >= SWEEP_EVERY_MS) {
    sweptAt = now;
    // Not waited for: the node's call does not pay for it, and a failed sweep is made good by the next.
    void purgeExpiredOf(db, "node-nonce", now).catch(() => undefined);
  }
  return ids;
}

/**
 * Records the token's nonce as used by node `nodeId`, for as long as this process's ledger keeps
 * it (nonceKeptUntil) and the clock skew again: whichever panel drops lapsed rows (by its own
 * clock) may run ahead of another panel still accepting the token by as much as a node's clock
 * may; false when any panel process had it already.
 */
function usedNonce(db: Db, nodeId: number, token: { nonce: string; expiry: number }, now: number): Promise<boolean> {
  return markUsed(db, "node-nonce", `${nodeId}:${token.nonce}`, (nonceKeptUntil(token.expiry, Math.floor(now / 1000)) + NODE_CLOCK_SKEW_S) * 1000);
}

/** True when one of the calling nodes holds the server. */
export async function nodeHoldsServer(db: Db, nodeIds: number[], serverId: string): Promise<boolean> {
  const server = await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, serverId)).get();
  return server !== undefined && nodeIds.includes(server.nodeId);
}
