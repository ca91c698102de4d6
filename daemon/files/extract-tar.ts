// Reads tar and gzip'd tar archives with node-tar's Parser, entry by entry, into the sink. Only
// the parser is borrowed: node-tar's own unpacker writes by path name, and every write here must
// go through the jail. Decompression is zlib's stream, which honours back-pressure, so a gzip bomb
// is inflated only as fast as the sink writes it (and the sink stops it at the limit).
import { createGunzip } from "node:zlib";
import { Parser, type ReadEntry } from "tar";
import type { EntrySink, FileOut } from "./extract-sink";
import { brokenArchive } from "./extract-errors";
import { fdStream } from "./fd-chunks";

export async function readTar(fd: number, gzip: boolean, sink: EntrySink, name: string): Promise<void> {
  const input = fdStream(fd);
  const gunzip = gzip ? createGunzip() : undefined;
  // strict: anything node-tar would only warn about (a bad checksum, a truncated archive) fails.
  const parser = new Parser({ strict: true });
  // The file being written: a failure elsewhere (a corrupt block, a limit) must close it too.
  let current: FileOut | undefined;
  let failure: unknown;

  await new Promise<void>((resolve, reject) => {
    const fail = (error: unknown) => {
      if (failure !== undefined) return;
      failure = error;
      current?.abort();
      input.destroy();
      gunzip?.destroy();
      parser.abort(error instanceof Error ? error : new Error(String(error)));
      reject(error);
    };
    const guard = (fn: () => void) => {
      if (failure !== undefined) return;
      try {
        fn();
      } catch (error) {
        fail(error);
      }
    };
    parser.on("entry", (entry: ReadEntry) => {
      guard(() => {
        sink.count();
        if (!isFile(entry)) {
          take(entry, sink);
          return;
        }
        const out = sink.file(entry.path, entry.mode ?? 0o644);
        current = out;
        entry.on("data", (chunk: Buffer) => guard(() => out.write(chunk)));
        entry.on("end", () =>
          guard(() => {
            current = undefined;
            out.close(entry.mtime);
          }),
        );
      });
      // Whatever happened, the parser waits for this entry to be read to its end.
      if (failure !== undefined || !isFile(entry)) entry.resume();
    });
    parser.on("ignoredEntry", () => guard(() => sink.count()));
    parser.on("error", (error: Error) => fail(brokenArchive(name, error)));
    parser.on("end", () => resolve());
    input.on("error", (error) => fail(brokenArchive(name, error)));
    if (gunzip) {
      gunzip.on("error", (error) => fail(brokenArchive(name, error)));
      input.pipe(gunzip).pipe(parser as unknown as NodeJS.WritableStream);
    } else {
      input.pipe(parser as unknown as NodeJS.WritableStream);
    }
  });
  if (failure !== undefined) throw failure;
}

function isFile(entry: ReadEntry): boolean {
  return entry.type === "File" || entry.type === "OldFile" || entry.type === "ContiguousFile";
}

/** Folders and links are made at once; devices and FIFOs have no place in a server's folder. */
function take(entry: ReadEntry, sink: EntrySink): void {
  if (entry.type === "Directory") sink.folder(entry.path);
  else if (entry.type === "SymbolicLink") sink.symlink(entry.path, entry.linkpath ?? "");
  else if (entry.type === "Link") sink.hardlink(entry.path, entry.linkpath ?? "");
}
