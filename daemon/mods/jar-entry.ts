// Reads a few named entries of a jar in a server's folder, never extracting it. The jar is the
// server's users' file, so it may be anything: a link out (refused by the jail), a FIFO or a hard
// link (refused by openRegularFile), a forged central directory claiming millions of entries, an
// entry that inflates to gigabytes, or plain garbage. So: at most MAX_JAR_ENTRIES entries of the
// central directory are looked at, only entries that declare (and then deliver) at most
// MAX_ENTRY_BYTES are read, names are compared as raw bytes (yauzl's name checks would end the
// whole jar on one hostile name), and any fault ends that jar's reading without an exception.
//
// yauzl reads the central directory a few bytes per call; through its own fd reader that is two
// read(2)s per entry (30 000 entries: 2 s here). The reader below serves those small reads from
// one 64 KiB window of the file instead (the same 30 000 entries: 0.1 s).
import { closeSync, readSync } from "node:fs";
import { Readable } from "node:stream";
import { fromRandomAccessReader, RandomAccessReader, type Entry, type ZipFile } from "yauzl";
import type { Jail } from "../files/jail";
import { openRegularFile } from "../files/open-regular";
import { nextZipEntry } from "../files/next-zip-entry";

/** The most one entry (version.json, MANIFEST.MF…) may hold to be read at all. */
export const MAX_ENTRY_BYTES = 64 * 1024;
/** The most central-directory entries looked at in one jar (a plain zip's own maximum). */
export const MAX_JAR_ENTRIES = 65_535;
const WINDOW_BYTES = 64 * 1024;

/**
 * The entries named in `wanted` that the jar at `path` holds within the bounds, by name. Null when
 * the jar cannot be opened as a regular file inside the folder; what was read before a fault is kept.
 */
export async function readJarEntries(jail: Jail, path: string, wanted: readonly string[]): Promise<Map<string, Buffer> | null> {
  let opened: ReturnType<typeof openRegularFile>;
  try {
    opened = openRegularFile(jail, path);
  } catch {
    return null;
  }
  const found = new Map<string, Buffer>();
  let zip: ZipFile | undefined;
  try {
    const size = opened.stats.size;
    zip = await new Promise<ZipFile>((resolve, reject) =>
      fromRandomAccessReader(new WindowReader(opened.fd, size), size, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true }, (error, file) => (error ? reject(error) : resolve(file))),
    );
    const looking = new Set(wanted);
    for (let seen = 0; looking.size > 0 && seen < MAX_JAR_ENTRIES; seen++) {
      const entry = await nextZipEntry(zip);
      if (!entry) break;
      const name = (entry.fileNameRaw as Buffer).toString("latin1");
      if (!looking.has(name)) continue;
      looking.delete(name); // the first of duplicate names counts, as Java's JarFile takes it
      const bytes = await entryBytes(zip, entry);
      if (bytes) found.set(name, bytes);
    }
  } catch {
    // A damaged or hostile jar: what it gave so far stands, the rest is not there.
  } finally {
    try {
      zip?.close();
    } catch {
      // already closed by its own fault
    }
    closeSync(opened.fd);
  }
  return found;
}


/** The entry's bytes when it declares and delivers at most MAX_ENTRY_BYTES; else null. */
function entryBytes(zip: ZipFile, entry: Entry): Promise<Buffer | null> {
  // Deflate may make incompressible data slightly larger, never twice as large.
  if (entry.uncompressedSize > MAX_ENTRY_BYTES || entry.compressedSize > 2 * MAX_ENTRY_BYTES) return Promise.resolve(null);
  return new Promise((resolve) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return resolve(null);
      const chunks: Buffer[] = [];
      let total = 0;
      stream.on("data", (chunk: Buffer) => {
        total += chunk.length;
        if (total > MAX_ENTRY_BYTES) {
          stream.destroy();
          return resolve(null);
        }
        chunks.push(chunk);
      });
      stream.on("end", () => resolve(Buffer.concat(chunks)));
      stream.on("error", () => resolve(null));
    });
  });
}

/** yauzl's reader over a descriptor it does not own, with one cached window for the small reads. */
class WindowReader extends RandomAccessReader {
  private windowStart = 0;
  private window = Buffer.alloc(0);

  constructor(
    private readonly fd: number,
    private readonly size: number,
  ) {
    super();
  }

  override read(buffer: Buffer, offset: number, length: number, position: number, callback: (error: Error | null) => void): void {
    let error: Error | null = null;
    try {
      const inWindow = position >= this.windowStart && position + length <= this.windowStart + this.window.length;
      if (!inWindow) {
        const fresh = Buffer.alloc(Math.max(length, WINDOW_BYTES));
        this.window = fresh.subarray(0, readSync(this.fd, fresh, 0, fresh.length, position));
        this.windowStart = position;
      }
      const copied = this.window.copy(buffer, offset, position - this.windowStart, Math.min(position - this.windowStart + length, this.window.length));
      if (copied < length) error = new Error("unexpected end of the jar");
    } catch (cause) {
      error = cause as Error;
    }
    // Never synchronously: yauzl calls back into read from the callback.
    queueMicrotask(() => callback(error));
  }

  override _readStreamForRange(start: number, end: number): Readable {
    // Only entries within the bounds above are opened, so this range is small.
    const bytes = Buffer.alloc(Math.max(0, Math.min(end, this.size) - start));
    const read = bytes.length ? readSync(this.fd, bytes, 0, bytes.length, start) : 0;
    return Readable.from([bytes.subarray(0, read)], { objectMode: false });
  }

  override close(callback: (error: Error | null) => void): void {
    // The descriptor belongs to readJarEntries, which closes it.
    queueMicrotask(() => callback(null));
  }
}
