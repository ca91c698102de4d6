// restic's snapshots as Kiln reads them: a server's backup entry (who made it, its sizes, whether
// it is locked) and what a `forget --json` answer says was kept.
import { BY_TAG, LOCKED_TAG, SERVER_TAG, type BackupEntry } from "../../core/backups";
import type { ServerBackupSettings } from "./server-settings";

export interface Snapshot {
  id: string;
  short_id: string;
  time: string;
  tags?: string[];
  original?: string;
  hostname?: string;
}

/**
 * The host a backup made before an add-on change is made under (others: "kiln"). Such backups are
 * kept among themselves, the newest few (BackupService), apart from the server's own: a host,
 * not a tag, since restic's forget can select a host (`--host kiln`: the keep rules never see
 * them) but cannot leave a tag out. restic picks a backup's parent among its host's, so each kind
 * reads on from its own last one. Backups of either kind made before this are "kiln"'s, the
 * server's own.
 */
export const CHANGE_HOST = "kiln-change";

export function isChangeBackup(snapshot: Snapshot): boolean {
  return snapshot.hostname === CHANGE_HOST;
}

/** The server's snapshots `restic forget --json` says it kept; null when its answer cannot be read. */
export function keptBy(answer: string, id: string): Snapshot[] | null {
  try {
    const groups = JSON.parse(answer) as Array<{ keep?: Snapshot[] | null }> | null;
    return (groups ?? []).flatMap((group) => group.keep ?? []).filter((s) => s.tags?.includes(`${SERVER_TAG}${id}`));
  } catch {
    return null;
  }
}

/**
 * The uid the server's files had when the snapshot was made (the node tags each backup with it):
 * what a download or restore hands back is judged by it (./handed-back), so a node rebuilt from
 * the target, which gave the server another uid, still hands back the server's own. Null for a
 * snapshot made before Kiln tagged it: nothing of such a snapshot is handed back until an
 * administrator adopts it (BackupService.adopt), since whose files it holds is not known.
 */
export const OWNER_TAG = "kiln-owner=";

export function ownerOf(snapshot: Snapshot): number | null {
  const tag = snapshot.tags?.find((t) => t.startsWith(OWNER_TAG));
  const uid = tag ? Number(tag.slice(OWNER_TAG.length)) : NaN;
  return Number.isSafeInteger(uid) && uid >= 0 ? uid : null;
}

export function isLocked(snapshot: Snapshot): boolean {
  return snapshot.tags?.includes(LOCKED_TAG) ?? false;
}

export function entry(snapshot: Snapshot, settings: ServerBackupSettings): BackupEntry {
  const sizes = settings.sizes[(snapshot.original ?? snapshot.id).slice(0, 8)];
  const by = snapshot.tags?.find((t) => t.startsWith(BY_TAG))?.slice(BY_TAG.length) ?? "";
  const note = settings.notes[(snapshot.original ?? snapshot.id).slice(0, 8)];
  return { id: snapshot.id, shortId: snapshot.short_id, time: snapshot.time, added: sizes?.added ?? null, total: sizes?.total ?? null, by, locked: isLocked(snapshot), ...(note ? { note } : {}), ...(ownerOf(snapshot) === null ? { unowned: true as const } : {}), ...(isChangeBackup(snapshot) ? { beforeChange: true as const } : {}) };
}
