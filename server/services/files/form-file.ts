// The bytes of the one file a plain form sends (multipart, with script off): a modpack the Mods
// tab uploads goes to the node as the file itself, not as multipart. The part's headers are read
// and skipped (at most HEAD_LIMIT bytes held), and the closing boundary is held back and dropped,
// so the bytes stream through and never sit in memory whole. The form must send that file as its
// only part (the Mods tab's does).
import { KilnError } from "../../../core/errors";

const HEAD_LIMIT = 16 * 1024;
const HEADERS_END = Buffer.from("\r\n\r\n");

export function formFileBytes(body: ReadableStream<Uint8Array> | null, contentType: string): ReadableStream<Uint8Array> {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!body || !boundary) throw noFile();
  // What follows the file's bytes: CRLF, the boundary, "--" and perhaps a CRLF.
  const trailer = Buffer.from(`\r\n--${boundary[1] ?? boundary[2]}`);
  const holdBack = trailer.length + 4;
  const reader = body.getReader();
  let head: Buffer | null = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) {
          const end = tail.indexOf(trailer);
          if (head !== null || end < 0) return controller.error(noFile());
          if (end > 0) controller.enqueue(new Uint8Array(tail.subarray(0, end)));
          return controller.close();
        }
        let chunk: Buffer = Buffer.from(value);
        if (head !== null) {
          head = Buffer.concat([head, chunk]);
          const at = head.indexOf(HEADERS_END);
          if (at < 0) {
            if (head.length > HEAD_LIMIT) return controller.error(noFile());
            continue;
          }
          if (!/name="file"; filename="/.test(head.subarray(0, at).toString("utf8"))) return controller.error(noFile());
          chunk = head.subarray(at + HEADERS_END.length);
          head = null;
        }
        tail = Buffer.concat([tail, chunk]);
        if (tail.length <= holdBack) continue;
        const out = tail.subarray(0, tail.length - holdBack);
        tail = Buffer.from(tail.subarray(tail.length - holdBack));
        return controller.enqueue(new Uint8Array(out));
      }
    },
    cancel: (reason) => reader.cancel(reason),
  });
}

function noFile(): KilnError {
  return new KilnError("ErrFieldRequired", { field: "file" }, "choose a file to upload");
}
