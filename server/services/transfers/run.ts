// Moving a server to another node, step by step. Until the switch the source keeps everything
// (definition, folder, allocations, the row's node), so a failure or a cancel before it leaves the
// server where it was, running again if it ran; the target's copy is removed. The switch is one
// transaction (the row's node and the allocations); the source's copy is removed after it.
//
//   create the definition on the target (the source's, with the panel's copy of its bounds laid
//   over it: services/servers/bounds) → offer the folder on the source → [stop] → pull
//   → [keepRunning: stop, pull again with prune: the final sync] → switch → remove from the
//   source → start on the target if it ran
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import type { TransferState } from "../../../db/schema/transfers";
import { callOperation, jsonInit } from "../../daemon-client";
import { getNodeRow, type NodeRow } from "../nodes";
import { expectOk } from "../servers/node-answer";
import { removeFromNode } from "../servers/lifecycle";
import { takeAllocations } from "../allocations/creation";
import { withAllocations } from "../allocations/binding";
import { addressParts } from "../servers/definition";
import type { ServerDefinition } from "../../../core/definition";
import type { TransferSkipped } from "../../../core/transfer/wire";
import { recordEvent } from "../activity/record";
import { SYSTEM } from "../activity/actor";
import { targetAllocations } from "./target-allocations";
import { pullFolder } from "./pull";
import { withKeptBounds } from "../servers/bounds";

type TransferRow = typeof schema.transfers.$inferSelect;

/** A stop, a start: as long as the server takes (a stop may wait its whole timeout). */
const POWER_TIMEOUT_MS = 5 * 60_000;

export async function runTransfer(db: Db, transfer: TransferRow, signal: AbortSignal): Promise<void> {
  const id = transfer.serverId;
  const source = await getNodeRow(db, transfer.fromNodeId);
  const target = await getNodeRow(db, transfer.toNodeId);
  const setState = async (state: TransferState, extra: Partial<TransferRow> = {}) => await db.update(schema.transfers).set({ state, ...extra }).where(eq(schema.transfers.id, transfer.id)).run();
  let createdOnTarget = false;
  let offered = false;
  let stoppedSource = false;
  let switched = false;
  let wasRunning = false;
  /** The bounds the source answered otherwise than the panel's copy, for the activity row. */
  let corrected: string | undefined;
  const boundsNote = () => (corrected ? { boundsCorrected: corrected } : {});
  try {
    const answered = (await (await expectOkResponse(callOperation(source, "definition", { id }), source)).json()) as ServerDefinition;
    // The source's word for the definition, but never for its bounds (limits, denylist, environment, network): the panel's copy holds.
    const { definition, differing } = await withKeptBounds(db, id, answered);
    if (differing.length > 0) {
      corrected = differing.join(",");
      console.error(`kiln: ${source.name} answered server ${id}'s definition with other ${corrected} than the panel set; the move places the panel's`);
    }
    wasRunning = await isRunning(source, id);
    const { chosen, definition: moved } = await targetAllocations(db, id, target, definition, transfer.allocationPolicy);
    await placeDefinition(target, id, moved);
    createdOnTarget = true;
    const { ticket } = (await (await expectOkResponse(callOperation(source, "transferOffer", { id }), source)).json()) as { ticket: string };
    offered = true;
    const live = transfer.keepRunning && wasRunning;
    if (wasRunning && !live) {
      await power(source, id, "stop");
      stoppedSource = true;
    }
    // What the source left out (hard links, FIFOs, sockets, devices), as the last pull saw it:
    // the move goes on, and says so on its row and activity rather than losing them without a word.
    let skipped: TransferSkipped | undefined;
    const pull = async (prune: boolean) => void ({ skipped } = await pullFolder(db, transfer.id, id, source, target, ticket, prune, signal));
    if (live) await livePull(() => pull(false));
    else await pull(false);
    if (live) {
      // The final sync: only what changed since the first copy, while the server is down.
      await setState("syncing");
      await power(source, id, "stop");
      stoppedSource = true;
      await pull(true);
    }
    if (signal.aborted) throw new KilnError("ErrTransferCancelled");
    await db.transaction(async (tx) => {
      const t = tx;
      await t.update(schema.allocations).set({ serverId: null, isPrimary: false }).where(eq(schema.allocations.serverId, id)).run();
      await takeAllocations(t, id, chosen);
      const bound = chosen.length > 0 ? withAllocations(moved, chosen) : moved;
      await t.update(schema.servers).set({ nodeId: target.id, ...addressParts(bound), alias: chosen[0]?.alias ?? null }).where(eq(schema.servers.id, id)).run();
    });
    switched = true;
    await setState("starting");
    await revokeOffer(source, id);
    // A copy left on the source (it did not answer) is removed by its next reconcile: this panel issued the id and the row is elsewhere now.
    await removeFromNode(source, id).catch((error: Error) => console.error(`kiln: the moved server ${id} is still on ${source.name}: ${error.message}`));
    if (wasRunning) await power(target, id, "start").catch((error: Error) => console.error(`kiln: the moved server ${id} did not start on ${target.name}: ${error.message}`));
    await setState("done", { finishedAt: Date.now(), skipped: skipped ?? null });
    await recordEvent(db, "server.transfer.completed", { actor: SYSTEM, serverId: id, properties: { from: source.name, to: target.name, ...boundsNote(), ...(skipped ? { skipped: skipped.count } : {}) } });
  } catch (error) {
    const code = error instanceof KilnError ? error.code : "ErrTransferFailed";
    if (!switched) {
      if (offered) await revokeOffer(source, id);
      if (createdOnTarget) await callOperation(target, "transferCancel", { id }).catch(() => undefined);
      if (createdOnTarget) await removeFromNode(target, id).catch((e: Error) => console.error(`kiln: the cancelled copy of ${id} is still on ${target.name}: ${e.message}`));
      if (stoppedSource && wasRunning) await power(source, id, "start").catch(() => undefined);
    }
    await setState(code === "ErrTransferCancelled" ? "cancelled" : "failed", { error: code, finishedAt: Date.now() });
    await recordEvent(db, "server.transfer.failed", { actor: SYSTEM, serverId: id, properties: { from: source.name, to: target.name, error: code, ...boundsNote() } });
  }
}

/**
 * Ends the source's offer of the server's folder: its ticket opens the folder until then (a day at
 * most, or the source node's restart). Asked a few times: one lost answer must not leave it open.
 */
export async function revokeOffer(source: NodeRow | null, id: string): Promise<void> {
  if (!source) return;
  for (let attempt = 1; attempt <= REVOKE_ATTEMPTS; attempt++) {
    const answer = await callOperation(source, "transferRevoke", { id }).catch(() => null);
    if (answer?.ok) return;
    if (attempt < REVOKE_ATTEMPTS) await Bun.sleep(REVOKE_AGAIN_MS);
  }
  console.error(`kiln: the offer of ${id}'s folder on ${source.name} could not be revoked; it ends when that node restarts, or in a day`);
}

const REVOKE_ATTEMPTS = 3;
const REVOKE_AGAIN_MS = 1_000;

/**
 * The definition on the target. A copy an earlier attempt left there (its node did not answer when
 * the attempt was undone) is this panel's own, for this server: it takes the definition again and
 * keeps its files, so the pull goes on from what was already copied.
 */
async function placeDefinition(target: NodeRow, id: string, definition: ServerDefinition): Promise<void> {
  const created = await callOperation(target, "createServer", { id }, jsonInit({ ...definition, id }));
  if (created.status !== 409) return void (await expectOk(created, target.name));
  await expectOkResponse(callOperation(target, "replaceDefinition", { id }, jsonInit({ ...definition, id })), target);
}

/**
 * The copy while the server runs: a file it writes meanwhile no longer matches the hash the source
 * listed (ErrTransferChecksum). The files that did match are kept and skipped next time, so the
 * copy is asked again a few times; what still differs after that is left to the final sync.
 */
async function livePull(pull: () => Promise<unknown>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await pull();
      return;
    } catch (error) {
      if (!(error instanceof KilnError && error.code === "ErrTransferChecksum") || attempt >= LIVE_ATTEMPTS) {
        if (error instanceof KilnError && error.code === "ErrTransferChecksum") return;
        throw error;
      }
    }
  }
}

const LIVE_ATTEMPTS = 3;

async function expectOkResponse(pending: Promise<Response>, node: NodeRow): Promise<Response> {
  const response = await pending;
  await expectOk(response, node.name);
  return response;
}

async function isRunning(node: NodeRow, id: string): Promise<boolean> {
  const status = (await (await expectOkResponse(callOperation(node, "status", { id }), node)).json()) as { running?: boolean };
  return status.running === true;
}

async function power(node: NodeRow, id: string, action: "start" | "stop"): Promise<void> {
  await expectOkResponse(callOperation(node, action, { id }, { query: "?wait=true", timeoutMs: POWER_TIMEOUT_MS }), node);
}
