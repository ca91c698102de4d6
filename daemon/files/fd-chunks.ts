// Reading a descriptor someone else owns as a stream. fs.createReadStream would take the
// descriptor over (Bun closes it on destroy even with autoClose off), and a descriptor closed
// twice may close whatever file reused its number; this reads at explicit positions and never
// closes anything.
import { read } from "node:fs";
import { Readable } from "node:stream";

const CHUNK_BYTES = 64 * 1024;

export async function* fdChunks(fd: number): AsyncGenerator<Buffer> {
  for (let position = 0; ; ) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const bytes = await new Promise<number>((resolve, reject) => read(fd, buffer, 0, CHUNK_BYTES, position, (error, n) => (error ? reject(error) : resolve(n))));
    if (bytes === 0) return;
    position += bytes;
    yield buffer.subarray(0, bytes);
  }
}

/** The same as a Node stream, for piping into zlib and node-tar. */
export function fdStream(fd: number): Readable {
  return Readable.from(fdChunks(fd), { objectMode: false });
}
