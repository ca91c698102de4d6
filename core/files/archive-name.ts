// The name an "archive this folder" action gives its zip: the
// folder's name plus ".zip", then " (2)", " (3)" … while that name is taken; the server's root
// folder (an empty name) is called "server". Shared by the file manager and the daemon.

/** What the root folder's archive is called: it has no name of its own. */
export const ROOT_ARCHIVE_BASE = "server";

/**
 * The first free archive name for `folderName` among `taken` (the names already in the folder the
 * archive goes to). Only the last path segment of `folderName` counts, so a path works as well.
 */
export function archiveName(folderName: string, taken: Set<string> | readonly string[]): string {
  const names = taken instanceof Set ? taken : new Set(taken);
  const base = folderName.split("/").filter(Boolean).pop() || ROOT_ARCHIVE_BASE;
  let candidate = `${base}.zip`;
  for (let n = 2; names.has(candidate); n++) candidate = `${base} (${n}).zip`;
  return candidate;
}
