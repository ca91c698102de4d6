// Creates a zip of files and folders in a server's folder (spec: the file manager's "archive").
// File contents are streamed from descriptors the jail opened, one file at a time, and the zip is
// written atomically (writeAtomically: a hidden temporary file renamed into place at the end,
// removed on failure), so a failed archive leaves nothing behind. The name follows spec
// section 5: the requested name, or " (2)", " (3)" … when it is taken.
import { createReadStream, type ReadStream } from "node:fs";
import { posix } from "node:path";
import type { Readable } from "node:stream";
import { ZipFile } from "yazl";
import { archiveName } from "../../core/files/archive-name";
import { KilnError } from "../../core/errors";
import type { Jail } from "./jail";
import { readFolder } from "./listing";
import { isFolder, writeAtomically } from "./operations";
import { openRegularFile } from "./open-regular";
import { collectSources } from "./archive-sources";

/**
 * Writes a zip of `sources` at `destination` (jail-relative; ".zip" is added when missing) and
 * returns the path actually written. ErrFieldRequired for no sources, ErrNotFound for a missing
 * source or destination folder.
 */
export async function createZip(jail: Jail, destination: string, sources: string[]): Promise<string> {
  if (!sources.length) throw new KilnError("ErrFieldRequired", { field: "paths" }, "a list of paths to archive is required");
  const normal = jail.normalize(destination);
  if (normal === "") throw new KilnError("ErrFieldRequired", { field: "destination" }, "the archive needs a name");
  const folder = posix.dirname(normal) === "." ? "" : posix.dirname(normal);
  if (!isFolder(jail, folder)) throw new KilnError("ErrNotFound", { path: folder }, `${folder} is not a folder`);
  const entries = collectSources(jail, folder, sources);

  const taken = new Set(readFolder(jail, folder).map((entry) => entry.name));
  const name = archiveName(posix.basename(normal).replace(/\.zip$/i, ""), taken);
  const path = folder ? `${folder}/${name}` : name;

  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  let reading: ReadStream | undefined;
  zip.on("error", (error: Error) => {
    reading?.destroy();
    output.destroy(error);
  });
  for (const entry of entries) {
    const options = { mtime: entry.stats.mtime, mode: entry.stats.mode };
    if (entry.stats.isDirectory()) {
      zip.addEmptyDirectory(entry.name, options);
      continue;
    }
    // Opened only when yazl reaches the entry, so one descriptor is open at a time.
    zip.addReadStreamLazy(entry.name, options, (done) => {
      let stream: ReadStream;
      try {
        stream = createReadStream("", { fd: openRegularFile(jail, entry.path).fd, start: 0 });
      } catch (error) {
        return done(error, undefined as never);
      }
      reading = stream;
      stream.on("error", (error) => zip.emit("error", error));
      done(null, stream);
    });
  }
  zip.end();
  try {
    await writeAtomically(jail, path, output);
  } catch (error) {
    // When the writing side fails first, yazl would otherwise hold the current file open.
    reading?.destroy();
    output.destroy();
    throw error;
  }
  return path;
}
