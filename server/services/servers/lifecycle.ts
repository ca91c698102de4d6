// Creating and deleting a server change two places, the panel's row and the node's definition,
// and the panel may be killed (kill -9, power loss) between them. So the row is written first and
// removed last, and its state says how far it got:
//
//   create: row "creating" (its id in the ledger of issued ids) → definition on the node → "ready"
//   delete: row "deleting" → definition removed on the node → row removed
//
// A row that is not "ready" and that no request of this process is working on is a crash's
// leftover: reconcile.ts finishes it when the node answers. An unfinished creation is rolled back,
// not completed: its creator was never told the id, and the install that follows never ran.
import { releaseLease, RENEW_MS, takeLease } from "../cluster/leases";
import { THIS_PANEL } from "../cluster/instance";
import { recordEvent } from "../activity/record";
import { eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { ServerDefinition } from "../../../core/definition";
import { SERVER_FLAGS } from "../../../core/scopes";
import { callOperation, jsonInit } from "../../daemon-client";
import type { NodeRow } from "../nodes";
import { expectOk } from "./node-answer";
import { boundsOf } from "./bounds";
import { takeAllocations } from "../allocations/creation";
import type { AllocationRow } from "../allocations/binding";
import type { NodeFit } from "../placement";

/** Everything a validated creation needs (index.ts checks the request and builds this). */
export interface ServerPlan {
  id: string;
  name: string;
  node: NodeRow;
  template: string;
  ownerId: number;
  definition: ServerDefinition;
  ip: string | null;
  port: number | null;
  /** Allocations the server takes, the primary first (none: a node without a pool). */
  allocations: AllocationRow[];
  /** The primary allocation's alias, for the address. */
  alias: string | null;
  /** The memory its definition asks for, which placement counts on its node. */
  memoryMiB: number | null;
  /** The node placement chose and every node's figures, when the request let it choose. */
  placement: { node: string; reasons: NodeFit[] } | null;
}

/** Ids a request of this process is creating, deleting, moving or reconciling right now. */
const busy = new Set<string>();
/** The renewal of each held id's lease, which other panel processes on the database respect. */
const renewals = new Map<string, ReturnType<typeof setInterval>>();

const leaseOf = (id: string) => `server:${id}`;

/**
 * Takes `id` for one piece of work; false when another piece holds it, in this process (tested
 * and taken before any await) or in another panel process on the same database (its lease row).
 */
export async function claim(db: Db, id: string): Promise<boolean> {
  if (busy.has(id)) return false;
  busy.add(id);
  const held = await takeLease(db, leaseOf(id), THIS_PANEL).catch(() => false);
  if (!held) {
    busy.delete(id);
    return false;
  }
  // A move takes minutes: the lease is renewed while the work goes on.
  const timer = setInterval(() => void takeLease(db, leaseOf(id), THIS_PANEL).catch(() => false), RENEW_MS);
  timer.unref();
  renewals.set(id, timer);
  return true;
}

/**
 * claim, asked again until `waitMs` has passed: for work that may queue behind a short piece of
 * another's (a change of the server's allocations, a node's answer included, takes less).
 */
export async function claimWithin(db: Db, id: string, waitMs = 10_000): Promise<boolean> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    if (await claim(db, id)) return true;
    if (Date.now() >= deadline) return false;
    await Bun.sleep(CLAIM_AGAIN_MS);
  }
}

const CLAIM_AGAIN_MS = 50;

export async function release(db: Db, id: string): Promise<void> {
  clearInterval(renewals.get(id));
  renewals.delete(id);
  await releaseLease(db, leaseOf(id), THIS_PANEL).catch(() => undefined);
  busy.delete(id);
}

export async function provisionServer(db: Db, plan: ServerPlan): Promise<void> {
  const { id, node } = plan;
  // A new id: nobody else holds it.
  await claim(db, id);
  try {
    await db.transaction(async (tx) => {
      await tx.insert(schema.servers).values({ id, name: plan.name, nodeId: node.id, template: plan.template, type: plan.definition.type || "generic", ip: plan.ip, port: plan.port, alias: plan.alias, memoryMiB: plan.memoryMiB, createdAt: new Date(), state: "creating", bounds: boundsOf(plan.definition) }).run();
      await takeAllocations(tx, id, plan.allocations);
      await tx.insert(schema.serverUsers).values({ serverId: id, userId: plan.ownerId, flags: [...SERVER_FLAGS] }).run();
      await tx.insert(schema.issuedServerIds).values({ id }).run();
    });
    try {
      await expectOk(await callOperation(node, "createServer", { id }, jsonInit({ ...plan.definition, id })), node.name);
    } catch (error) {
      // Refused, or no answer: the row goes. Should the node have written it after all (an answer
      // lost on the way), the ledger lets the reconcile remove that definition.
      await dropServerRow(db, id);
      throw error;
    }
    await db.update(schema.servers).set({ state: "ready" }).where(eq(schema.servers.id, id)).run();
    await recordEvent(db, "server.created", { serverId: id, properties: { name: plan.name, node: node.name, template: plan.template } });
  } finally {
    await release(db, id);
  }
  // Like other panels, a new server is installed straight away; the node queues the install
  // before any start, and its console shows how it went.
  await callOperation(node, "install", { id }).catch(() => undefined);
}

/**
 * Deletes a ready server: marked "deleting" (hidden from then on), removed on its node, then from
 * the panel. When the node refuses or does not answer, the server is ready again and the error
 * goes to the caller, as if nothing had been asked.
 */
export async function unprovisionServer(db: Db, id: string, node: NodeRow): Promise<void> {
  const row = await db.select({ state: schema.servers.state, name: schema.servers.name }).from(schema.servers).where(eq(schema.servers.id, id)).get();
  if (row?.state !== "ready" || !(await claim(db, id))) throw new KilnError("ErrNotFound", { id }, "no such server");
  try {
    await db.update(schema.servers).set({ state: "deleting" }).where(eq(schema.servers.id, id)).run();
    try {
      await removeFromNode(node, id);
    } catch (error) {
      await db.update(schema.servers).set({ state: "ready" }).where(eq(schema.servers.id, id)).run();
      throw error;
    }
    await dropServerRow(db, id);
    await recordEvent(db, "server.deleted", { serverId: id, properties: { name: row.name } });
  } finally {
    await release(db, id);
  }
}

/** Removes the definition and folder on the node; one already gone (deleted by hand) is fine. */
export async function removeFromNode(node: NodeRow, id: string): Promise<void> {
  const response = await callOperation(node, "deleteServer", { id });
  if (response.status !== 404) await expectOk(response, node.name);
}

/** The row and what hangs on it: its users (cascade) and its server-level OAuth2 clients with their tokens. */
export async function dropServerRow(db: Db, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const clients = (await tx.select({ id: schema.oauth2Clients.clientId }).from(schema.oauth2Clients).where(eq(schema.oauth2Clients.serverId, id)).all()).map((c) => c.id);
    if (clients.length > 0) {
      await tx.delete(schema.sessions).where(inArray(schema.sessions.clientId, clients)).run();
      await tx.delete(schema.oauth2Clients).where(inArray(schema.oauth2Clients.clientId, clients)).run();
    }
    // Its allocations go back to the pool (the foreign key frees them; the primary mark goes too).
    await tx.update(schema.allocations).set({ serverId: null, isPrimary: false }).where(eq(schema.allocations.serverId, id)).run();
    await tx.delete(schema.servers).where(eq(schema.servers.id, id)).run();
  });
}
