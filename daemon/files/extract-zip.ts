// Reads zip and jar archives with yauzl, one entry at a time (lazyEntries), each file streamed
// from the archive's descriptor into the sink. Names are decoded here rather than by yauzl so
// that a hostile name reaches our own checks (and answers ErrPathOutside) instead of a generic
// parse error; yauzl's own entry-size validation stays on.
import { fromFd, getFileNameLowLevel, type Entry, type ZipFile } from "yauzl";
import type { Readable } from "node:stream";
import type { EntrySink } from "./extract-sink";
import { brokenArchive, pump } from "./extract-errors";
import { nextZipEntry } from "./next-zip-entry";

/** A symbolic link's target is its content; anything longer than a path can be is not a link. */
const MAX_LINK_TARGET = 4096;
const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;
const S_IFDIR = 0o040000;

export async function readZip(fd: number, sink: EntrySink, name: string): Promise<void> {
  const zip = await new Promise<ZipFile>((resolve, reject) =>
    fromFd(fd, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, file) => (error ? reject(brokenArchive(name, error)) : resolve(file))),
  );
  // A directory naming more entries than may be unpacked is refused before one is written.
  sink.declared(zip.entryCount);
  // Not zip.close(): that closes the descriptor, which belongs to the caller.
  for (;;) {
    const entry = await nextZipEntry(zip, (error) => brokenArchive(name, error));
    if (!entry) return;
    sink.count();
    await unpack(zip, entry, sink, name);
  }
}


async function unpack(zip: ZipFile, entry: Entry, sink: EntrySink, name: string): Promise<void> {
  // strictFileNames: keep backslashes so entryPath sees (and judges) them itself.
  const path = getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw as Buffer, entry.extraFields, true);
  const mode = unixMode(entry);
  if (path.endsWith("/") || path.endsWith("\\") || (mode & S_IFMT) === S_IFDIR) return sink.folder(path);
  if ((mode & S_IFMT) === S_IFLNK) {
    // A link's target is its content: read it whole, but never more than a path can be.
    const chunks: Uint8Array[] = [];
    let size = 0;
    await pump(await openEntry(zip, entry, name), (chunk) => {
      size += chunk.byteLength;
      if (size > MAX_LINK_TARGET) throw brokenArchive(name, new Error(`the link ${path} is too long`));
      chunks.push(chunk);
    }, name);
    return sink.symlink(path, Buffer.concat(chunks).toString("utf8"));
  }
  // Checked (and the file created) before a byte is inflated.
  const out = sink.file(path, mode & 0o777 || 0o644);
  try {
    await pump(await openEntry(zip, entry, name), out.write, name);
    out.close(entry.getLastModDate());
  } catch (error) {
    out.abort();
    throw error;
  }
}

function openEntry(zip: ZipFile, entry: Entry, name: string): Promise<Readable> {
  return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(brokenArchive(name, error)) : resolve(stream))));
}

/** The Unix mode a zip made on Unix carries in its external attributes; 0 when it has none. */
function unixMode(entry: Entry): number {
  const madeOnUnix = entry.versionMadeBy >> 8 === 3;
  return madeOnUnix ? (entry.externalFileAttributes >>> 16) & 0xffff : 0;
}
