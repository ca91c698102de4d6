// An install that keeps what changed in the folder since the last one (./install-record): the
// changed entries set aside before the steps run, the folder recorded as the install left it,
// then the entries put back (even when a step failed), each said on the server's console.
import { BESIDE_SUFFIX, type ChangedFilesMode } from "../../core/install";
import { message, type DaemonMessage } from "../../core/live/daemon-message";
import type { Jail } from "../files/jail";
import { reasonMessage } from "../http/errors";
import type { InstallRecord } from "./install-record";

export interface KeptChangesContext {
  record: InstallRecord | undefined;
  jail: Jail;
  /** What happens to the install's own version of a kept entry (the template's changedFiles). */
  mode: ChangedFilesMode;
  log: (line: DaemonMessage) => void;
}

/** Runs `install` keeping the folder's changes (when `keep` and there is a record), then records the folder. */
export async function installKeepingChanges(ctx: KeptChangesContext, keep: boolean, install: () => Promise<void>): Promise<void> {
  const { record, jail, log } = ctx;
  recoverKept(ctx);
  const paths = record && keep ? (await record.changed(jail)).paths : [];
  try {
    if (paths.length > 0) {
      log(message("daemon.install.keeping", { count: paths.length, paths: paths.slice(0, 10) }));
      record!.keepAside(jail, paths);
    }
    await install();
    // The folder as the install left it, before the kept changes return: they stay changes.
    await record?.record(jail);
  } finally {
    if (paths.length > 0) putBack(ctx, record!);
  }
}

/** A stash an install left when the node stopped half way goes back (the node's start, every install). */
export function recoverKept(ctx: KeptChangesContext): void {
  if (ctx.record?.hasStash()) putBack(ctx, ctx.record);
}

function putBack(ctx: KeptChangesContext, record: InstallRecord): void {
  const { restored, left } = record.putBack(ctx.jail, ctx.mode);
  if (restored.length > 0) ctx.log(message(ctx.mode === "beside" ? "daemon.install.keptBeside" : "daemon.install.kept", { count: restored.length, suffix: BESIDE_SUFFIX }));
  for (const { path, reason } of left) ctx.log(message("daemon.install.notPutBack", { path, reason: reasonMessage(reason) }));
}
