// An open file's bytes as a stream a Response sends: read a chunk at a time as the client takes
// them, from `start` to `last` (inclusive) or the file's end wherever that is by then, and the
// descriptor closed at the end or when the client goes away.
import { closeSync, read } from "node:fs";

/** Read size: large enough for disk and socket throughput, small enough to stay flat. */
const CHUNK_BYTES = 1024 * 1024;

export function descriptorStream(fd: number, start = 0, last = Infinity): ReadableStream<Uint8Array> {
  let open = true;
  const close = () => {
    if (open) closeSync(fd);
    open = false;
  };
  let position = start;
  return new ReadableStream<Uint8Array>({
    pull: (controller) =>
      new Promise<void>((resolve) => {
        const wanted = Math.min(CHUNK_BYTES, last - position + 1);
        if (wanted <= 0) {
          close();
          controller.close();
          return resolve();
        }
        const buffer = Buffer.allocUnsafe(wanted);
        read(fd, buffer, 0, wanted, position, (error, bytes) => {
          if (!open) return resolve(); // cancelled meanwhile
          if (error || bytes === 0) {
            close();
            if (error) controller.error(error);
            else controller.close();
          } else {
            position += bytes;
            controller.enqueue(buffer.subarray(0, bytes));
          }
          resolve();
        });
      }),
    cancel: close,
  });
}
