// One pull of a server's folder by the target node from the source, watched until it ends: the
// target reports its progress, checked (./progress-answer) and kept on the transfer's row (bytes,
// total, rate) for the pages; asking to cancel cancels the pull on the target.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { ERROR_STATUS, type ErrorCode } from "../../../core/errors/codes";
import type { PullProgress } from "../../../core/transfer/wire";
import { callOperation, jsonInit, nodeBaseUrl } from "../../daemon-client";
import type { NodeRow } from "../nodes";
import { expectOk } from "../servers/node-answer";
import { checkedProgress } from "./progress-answer";

const POLL_MS = 500;

export async function pullFolder(db: Db, transferId: string, serverId: string, source: NodeRow, target: NodeRow, ticket: string, prune: boolean, signal: AbortSignal): Promise<PullProgress> {
  await expectOk(await callOperation(target, "transferPull", { id: serverId }, jsonInit({ source: nodeBaseUrl(source), ticket, prune })), target.name);
  let last = { bytes: 0, at: Date.now() };
  for (;;) {
    if (signal.aborted) {
      await callOperation(target, "transferCancel", { id: serverId }).catch(() => undefined);
      throw new KilnError("ErrTransferCancelled");
    }
    await Bun.sleep(POLL_MS);
    const response = await callOperation(target, "transferProgress", { id: serverId });
    await expectOk(response, target.name);
    const progress = checkedProgress(await response.json().catch(() => null), target.name);
    const now = Date.now();
    const rate = now > last.at ? Math.min(Number.MAX_SAFE_INTEGER, Math.max(0, Math.round(((progress.bytes - last.bytes) * 1000) / (now - last.at)))) : 0;
    last = { bytes: progress.bytes, at: now };
    await db.update(schema.transfers).set({ bytes: progress.bytes, totalBytes: progress.totalBytes, rate }).where(eq(schema.transfers.id, transferId)).run();
    if (progress.state === "done") return progress;
    if (progress.state === "failed") throw new KilnError(isCode(progress.error) ? progress.error : "ErrTransferFailed", { node: target.name });
    if (progress.state === "cancelled") throw new KilnError("ErrTransferCancelled");
  }
}

/** A code the node names is used only when it is one of the catalogue's (the node is another machine). */
function isCode(code: unknown): code is ErrorCode {
  return typeof code === "string" && Object.hasOwn(ERROR_STATUS, code);
}
