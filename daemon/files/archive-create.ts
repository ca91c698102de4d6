// Creates a zip of files and folders in a server's folder (the file manager's "archive").
// File contents are streamed from descriptors the jail opened (./zip-entries), and the zip is
// written atomically (writeAtomically: a hidden temporary file renamed into place at the end,
// removed on failure), so a failed archive leaves nothing behind. The name is the
// requested one, with " (2)", " (3)" … added while it is taken.
import { posix } from "node:path";
import { archiveName } from "../../core/files/archive-name";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { isFolder, writeAtomically } from "./operations";
import { collectSources } from "./archive-sources";
import { zipEntries } from "./zip-entries";
import type { ExtractLimits } from "./extract-limits";

/**
 * Writes a zip of `sources` at `destination` (jail-relative; ".zip" is added when missing) and
 * returns the path actually written. ErrFieldRequired for no sources, ErrNotFound for a missing
 * source or destination folder, ErrArchiveTooLarge for more entries than `limits` lets a zip
 * hold (the node's extraction limits: what Kiln zips, Kiln can unpack), before anything is written.
 */
export async function createZip(jail: Jail, destination: string, sources: string[], skip?: (path: string) => boolean, limits?: ExtractLimits): Promise<string> {
  if (!sources.length) throw new KilnError("ErrFieldRequired", { field: "paths" }, "a list of paths to archive is required");
  const normal = jail.normalize(destination);
  if (normal === "") throw new KilnError("ErrFieldRequired", { field: "destination" }, "the archive needs a name");
  const folder = posix.dirname(normal) === "." ? "" : posix.dirname(normal);
  if (!isFolder(jail, folder)) throw new KilnError("ErrNotFound", { path: folder }, `${folder} is not a folder`);
  const entries = await collectSources(jail, folder, sources, skip, limits);

  const taken = new Set(readFolder(jail, folder).map((entry) => entry.name));
  const name = archiveName(posix.basename(normal).replace(/\.zip$/i, ""), taken);
  const path = folder ? `${folder}/${name}` : name;

  const { output, stop } = zipEntries(jail, entries);
  try {
    await writeAtomically(jail, path, output);
  } catch (error) {
    // When the writing side fails first, the zip would otherwise hold the current file open.
    stop();
    throw error;
  }
  return path;
}
