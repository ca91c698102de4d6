// Unpacks an archive from a server's folder into a folder of it (the file manager's
// "extract"). Everything is unpacked into a hidden staging folder inside the destination, through
// the jail; only when every entry was accepted, the limits held and no link leads out, the
// staging folder's content is moved into place. A refused, broken or oversized archive leaves
// nothing behind: the staging folder is removed whatever happened.
import { randomUUID } from "node:crypto";
import { closeSync, mkdirSync } from "node:fs";
import { posix } from "node:path";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { O_DIRECTORY, O_PATH } from "./openat2";
import { removePath } from "./operations";
import { openRegularFile } from "./open-regular";
import { archiveKind } from "./extract-names";
import { ExtractSink } from "./extract-sink";
import { readGz } from "./extract-gz";
import { checkLinksOnDisk } from "./extract-links";
import { moveIntoPlace } from "./extract-place";

export { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from "./extract-limits";
import type { ExtractLimits } from "./extract-limits";

/**
 * Unpacks `archive` into the folder `destination` (both jail-relative). Throws ErrUnsupportedArchive
 * (a kind the node cannot read, or a broken archive), ErrNotFound (no such archive file or
 * destination folder), ErrPathOutside (an entry or link would land outside), ErrArchiveTooLarge.
 */
/** `refuse` may throw for a path an entry would take (the file manager's fileDenylist): nothing is placed then. */
export async function extractArchive(jail: Jail, archive: string, destination: string, limits: ExtractLimits, refuse?: (target: string) => void): Promise<void> {
  const kind = archiveKind(archive);
  const dest = existingFolder(jail, destination);
  const name = posix.basename(jail.normalize(archive));
  const { fd, stats } = openRegularFile(jail, archive);
  const staging = `${dest ? `${dest}/` : ""}.kiln-extract-${randomUUID()}`;
  try {
    jail.at(staging, (entry) => mkdirSync(entry, 0o700));
  } catch (error) {
    closeSync(fd);
    throw error;
  }
  try {
    const sink = new ExtractSink(jail, staging, limits, name);
    // The zip and tar readers (yauzl, tar) load with the first extraction, not with the node, so a
    // node that never extracts starts faster and holds less memory.
    if (kind === "zip") await (await import("./extract-zip")).readZip(fd, sink, name);
    else if (kind === "gz") await readGz(fd, stats.mode & 0o777, sink, name);
    else await (await import("./extract-tar")).readTar(fd, kind === "tgz", sink, name);
    checkLinksOnDisk(jail, staging);
    moveIntoPlace(jail, staging, dest, refuse);
  } catch (error) {
    closeSync(fd);
    // The archive's own error is the one worth reporting; a failed clean-up of the hidden staging
    // folder behind it would only hide it (and the folder's name marks it as ours to remove later).
    try {
      removePath(jail, staging);
    } catch {}
    throw error;
  }
  closeSync(fd);
  removePath(jail, staging);
}

/** The destination, normalized; it must be a folder reached inside the jail. */
function existingFolder(jail: Jail, path: string): string {
  const normal = jail.normalize(path);
  let fd: number;
  try {
    fd = jail.open(normal, O_PATH | O_DIRECTORY);
  } catch (error) {
    if (error instanceof KilnError) throw error;
    throw new KilnError("ErrNotFound", { path }, `${path} is not a folder`);
  }
  closeSync(fd);
  return normal;
}
