import { KilnError } from "../errors";
// A backup as the API lists it, and how the node tags restic snapshots so each server sees only
// its own: every snapshot carries `kiln-server=<id>`, and every operation on one checks it.
export interface BackupEntry {
  /** restic's snapshot id (64 hex digits). */
  id: string;
  shortId: string;
  /** ISO time the backup was made. */
  time: string;
  /** Bytes the backup added to the repository (after deduplication); null when not known (made elsewhere). */
  added: number | null;
  /** Bytes of the server's files it holds. */
  total: number | null;
  /** Who made it: "user:<name>", "task:<name>", or "" when not known. */
  by: string;
  /** Kept whatever the retention policy says. */
  locked: boolean;
  /** What its maker wrote about it ("before the 1.21 update"); absent when nothing. */
  note?: string;
  /**
   * Made before the node recorded whose files a backup holds: nothing of it is handed back
   * (download, browse, restore: ErrBackupUnowned) until an administrator adopts it. Absent otherwise.
   */
  unowned?: true;
  /**
   * Made before an add-on change (mods, plugins, a modpack, a version switch) so it can be undone:
   * kept among such backups only, the newest CHANGE_BACKUPS_KEPT. Absent otherwise.
   */
  beforeChange?: true;
}

/** How many backups made before add-on changes a server keeps: a session's worth of changes to go back through. */
export const CHANGE_BACKUPS_KEPT = 6;

/** A backup's note: one line of at most this many characters. */
export const BACKUP_NOTE_MAX = 200;

/** The note as it is kept: trimmed, "" for none; ErrFieldTooLarge or ErrFieldHasControlCharacters (field "note") refuse it. */
export function backupNote(raw: unknown): string {
  if (raw === undefined || raw === null) return "";
  if (typeof raw !== "string") throw new KilnError("ErrFieldRequired", { field: "note" });
  const note = raw.trim();
  if (note.length > BACKUP_NOTE_MAX) throw new KilnError("ErrFieldTooLarge", { field: "note", max: BACKUP_NOTE_MAX });
  if (/[\u0000-\u001f\u007f]/.test(note)) throw new KilnError("ErrFieldHasControlCharacters", { field: "note" });
  return note;
}

/** One entry of a folder inside a backup (the node's GET …/backups/{id}/files). */
export interface BackupFolder {
  /** The folder, from the server's folder ("" for its root). */
  path: string;
  files: Array<{ name: string; isFile: boolean; size: number; modifyTime: number }>;
  /** More entries than are listed (BACKUP_FOLDER_MAX). */
  truncated: boolean;
}

/** At most this many entries of one folder of a backup are listed. */
export const BACKUP_FOLDER_MAX = 2000;

/** What the node is doing with a server's backups now, for the progress bar. */
export interface BackupActivity {
  action: "backup" | "restore";
  /** 0 to 1; null before the engine said. */
  done: number | null;
}

export interface BackupList {
  backups: BackupEntry[];
  running: BackupActivity | null;
}

export const SERVER_TAG = "kiln-server=";
export const BY_TAG = "kiln-by=";
export const LOCKED_TAG = "kiln-locked";
/** A server's definition, kept beside its backups (one snapshot, the latest), so a lost node can be rebuilt. */
export const DEFINITION_TAG = "kiln-definition=";

/** A snapshot id as the API takes it: restic's full id or its 8-digit short form. */
export const SNAPSHOT_ID = /^(?:[0-9a-f]{8}|[0-9a-f]{64})$/;

export const DOWNLOAD_FORMATS = ["tar.gz", "zip"] as const;
export type DownloadFormat = (typeof DOWNLOAD_FORMATS)[number];

/** "by" as a tag value: restic tags are split at commas, so only plain characters are kept. */
export function byTag(by: string): string {
  return by.replace(/[^A-Za-z0-9_.@:+ -]/g, "_").slice(0, 96);
}
