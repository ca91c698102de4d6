// Reads a lone gzip'd file (not a tar): it unpacks to one file named like the archive without
// ".gz". zlib's stream honours back-pressure, and the sink stops a bomb at the byte limit.
import { posix } from "node:path";
import { createGunzip } from "node:zlib";
import type { EntrySink } from "./extract-sink";
import { pump } from "./extract-errors";
import { fdStream } from "./fd-chunks";

export async function readGz(fd: number, mode: number, sink: EntrySink, name: string): Promise<void> {
  sink.count();
  const base = posix.basename(name);
  // "log.gz" gives "log"; ".gz" alone has no name left, so it keeps its own.
  const target = base.slice(0, -".gz".length) || base;
  const out = sink.file(target, mode);
  const input = fdStream(fd);
  const gunzip = createGunzip();
  input.on("error", (error) => gunzip.destroy(error));
  try {
    await pump(input.pipe(gunzip), out.write, name);
    out.close();
  } catch (error) {
    input.destroy();
    gunzip.destroy();
    out.abort();
    throw error;
  }
}
