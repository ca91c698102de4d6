// Reinstalling a server that already has files: the vocabulary the node, the panel and the
// control bar share. A reinstall keeps the files the host changed since the last install unless
// told not to; what the install does with its own version of such a file is the template's word.

/**
 * The field that asks a reinstall to overwrite the changed files: `keepChanged=false` in the
 * node's query (`POST …/install?keepChanged=false`), beside `type` in the socket's install
 * message, and in the control bar's form. Anything else, absent included, keeps them: a client
 * that never heard of it (PufferPanel's) cannot destroy edits by accident.
 */
export const KEEP_CHANGED = "keepChanged";

/** Whether a request's keepChanged value keeps the changed files (only an explicit no does not). */
export function keepsChanged(value: unknown): boolean {
  return !(value === false || value === "false" || value === "0" || value === "no" || value === "off");
}

/**
 * A template's `changedFiles`: what a reinstall that keeps the host's changed files does with the
 * install's own version of each. "skip": not written (the host's file stays as it is, the
 * default); "beside": written next to it, named with BESIDE_SUFFIX, for the host to compare.
 */
export const CHANGED_FILES_MODES = ["skip", "beside"] as const;
export type ChangedFilesMode = (typeof CHANGED_FILES_MODES)[number];

/** The name the install's own version of a kept file gets in "beside" mode. */
export const BESIDE_SUFFIX = ".kiln-new";

/** At most this many changed paths are named in an answer (the count is whole). */
export const CHANGES_LISTED = 50;

/** The node's GET …/install/changes: what a reinstall would keep. */
export interface InstallChanges {
  /**
   * Whether the node recorded the folder after the last install. Without a record (a server
   * installed before Kiln kept one) everything in the folder counts as changed.
   */
  recorded: boolean;
  /** Changed entries relative to the server's folder: a folder the install did not make counts as one. */
  paths: string[];
  /** How many there are in all (paths names the first CHANGES_LISTED). */
  count: number;
  mode: ChangedFilesMode;
}
