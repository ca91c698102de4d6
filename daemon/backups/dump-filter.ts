// A backup's archive with entries left out (./handed-back): restic dumps the snapshot as a tar,
// node-tar's Parser reads it entry by entry, and what may be handed back is written again, as a
// tar (node-tar's Header and Pax encode each header, contents stream through) or as a zip (yazl,
// names made safe by core/files/zip-name). The parser waits for an entry's content to be taken
// before it reads on, and the output is pulled by whoever downloads, so memory stays flat
// whatever the size.
import { Readable } from "node:stream";
import type { ReadEntry } from "tar";
import type { ZipFile as YazlZipFile } from "yazl";
import { zipEntryName } from "../../core/files/zip-name";

export type LeftOut = (path: string) => boolean;

/** The entry's path as the snapshot names it: relative, no trailing "/". */
const pathOf = (path: string) => path.replace(/^\.?\/+/, "").replace(/\/+$/, "");

/** Entries whose content follows their header in a tar. */
const WITH_CONTENT = new Set(["File", "OldFile", "ContiguousFile"]);

/** restic's tar (`tar`) written again without the entries `leftOut` names, as a tar or a zip. */
export async function rewriteDump(tar: ReadableStream<Uint8Array>, format: "tar" | "zip", leftOut: LeftOut): Promise<ReadableStream<Uint8Array>> {
  // node-tar and yazl load with the first filtered download, not with the node.
  const tarModule = await import("tar");
  const entries = parsedEntries(tar, tarModule.Parser);
  // A hard link whose target is left out would give that content back under its own name.
  const kept = (entry: ReadEntry) => !leftOut(pathOf(entry.path)) && !(entry.type === "Link" && leftOut(pathOf(entry.linkpath ?? "")));
  const output = format === "tar" ? Readable.from(tarOf(entries, kept, tarModule)) : zipOf(entries, kept);
  return Readable.toWeb(output) as unknown as ReadableStream<Uint8Array>;
}

/** The parser's entries in order, each handed out once the one before was taken. */
async function* parsedEntries(tar: ReadableStream<Uint8Array>, Parser: typeof import("tar").Parser): AsyncGenerator<ReadEntry> {
  const parser = new Parser({ strict: true });
  const queue: ReadEntry[] = [];
  let ended = false;
  let failure: unknown;
  let wake: (() => void) | undefined;
  const notify = () => {
    wake?.();
    wake = undefined;
  };
  parser.on("entry", (entry: ReadEntry) => {
    queue.push(entry);
    notify();
  });
  parser.on("end", () => {
    ended = true;
    notify();
  });
  const fail = (error: unknown) => {
    failure ??= error;
    notify();
  };
  parser.on("error", fail);
  const input = Readable.fromWeb(tar as never);
  input.on("error", fail);
  input.pipe(parser as never);
  try {
    for (;;) {
      if (failure !== undefined) throw failure;
      const entry = queue.shift();
      if (entry) yield entry;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    input.destroy();
  }
}

/** The kept entries as a tar: each header encoded again (with a PAX header where one is needed), the content as it comes. */
async function* tarOf(entries: AsyncIterable<ReadEntry>, kept: (entry: ReadEntry) => boolean, { Header, Pax }: typeof import("tar")): AsyncGenerator<Buffer> {
  for await (const entry of entries) {
    if (!kept(entry)) {
      entry.resume();
      continue;
    }
    const fields = { path: entry.path, mode: entry.mode, uid: entry.uid, gid: entry.gid, size: entry.size, mtime: entry.mtime, type: entry.type, linkpath: entry.linkpath, uname: entry.uname, gname: entry.gname };
    const header = new Header(fields);
    if (header.encode()) yield new Pax({ ...fields, atime: entry.atime, ctime: entry.ctime }).encode();
    yield header.block!;
    if (!WITH_CONTENT.has(entry.type) || !entry.size) {
      entry.resume();
      continue;
    }
    for await (const chunk of entry) yield chunk as Buffer;
    const rest = entry.size % 512;
    if (rest) yield Buffer.alloc(512 - rest);
  }
  // A tar ends with two empty blocks.
  yield Buffer.alloc(1024);
}

/** The kept entries as a zip, one after the other (yazl takes each entry's content as it comes). */
function zipOf(entries: AsyncIterable<ReadEntry>, kept: (entry: ReadEntry) => boolean): Readable {
  const { ZipFile } = require("yazl") as { ZipFile: typeof YazlZipFile };
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  zip.on("error", (error: Error) => output.destroy(error));
  void (async () => {
    for await (const entry of entries) {
      const name = zipEntryName(pathOf(entry.path));
      const mtime = entry.mtime ?? new Date();
      const permissions = (entry.mode ?? 0o644) & 0o7777;
      if (kept(entry) && WITH_CONTENT.has(entry.type)) {
        // Taken only when yazl reaches it; the next entry is read once this one's content is through.
        await new Promise<void>((resolve, reject) => {
          entry.on("end", resolve);
          entry.on("error", reject);
          // Stored, as restic's own zip stores them: worlds are mostly compressed already.
          zip.addReadStream(entry as never, name, { mtime, mode: 0o100000 | permissions, size: entry.size, compress: false });
        });
        continue;
      }
      if (kept(entry) && entry.type === "Directory") zip.addEmptyDirectory(name, { mtime, mode: 0o040000 | permissions });
      else if (kept(entry) && entry.type === "SymbolicLink") zip.addBuffer(Buffer.from(entry.linkpath ?? ""), name, { mtime, mode: 0o120777, compress: false });
      // Anything else (a device, a FIFO, a hard link) has no place in a zip.
      entry.resume();
    }
    zip.end();
  })().catch((error) => output.destroy(error instanceof Error ? error : new Error(String(error))));
  return output;
}
