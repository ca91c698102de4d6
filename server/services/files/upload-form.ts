// A file uploaded by the files tab's plain form (no script): the browser sends multipart with the
// file's name inside the part's headers, where the node's file API wants it in the path. The
// first part's headers are read here (at most HEAD_LIMIT bytes held), and the body is passed on
// whole and streamed, bytes already read first, so a file of any size never sits in memory.
import { KilnError } from "../../../core/errors";
import { cleanNewName } from "../../../core/files";

const HEAD_LIMIT = 16 * 1024;
const HEADERS_END = Buffer.from("\r\n\r\n");

export interface FormUpload {
  /** the file's own name, as one plain name */
  name: string;
  /** the whole multipart body, to forward with its Content-Type */
  body: ReadableStream<Uint8Array>;
}

export async function readFormUpload(body: ReadableStream<Uint8Array> | null): Promise<FormUpload> {
  if (!body) throw noFile();
  const reader = body.getReader();
  const read: Uint8Array[] = [];
  let head = Buffer.alloc(0);
  while (head.indexOf(HEADERS_END) < 0) {
    const { value, done } = await reader.read();
    if (done || head.length > HEAD_LIMIT) throw noFile();
    read.push(value);
    head = Buffer.concat([head, value]);
  }
  const headers = head.subarray(0, head.indexOf(HEADERS_END)).toString("utf8");
  // Browsers escape a quote and line breaks in the name as %22, %0D, %0A and send the rest as is.
  const raw = /name="file"/.test(headers) ? /filename="([^"]*)"/.exec(headers)?.[1] : undefined;
  const name = raw === undefined ? null : cleanNewName(raw.replace(/%22/g, '"').replace(/%0D|%0A/gi, ""));
  if (!name) throw noFile();
  return {
    name,
    body: new ReadableStream<Uint8Array>({
      async pull(controller) {
        const first = read.shift();
        if (first) return controller.enqueue(first);
        const { value, done } = await reader.read();
        if (done) controller.close();
        else controller.enqueue(value);
      },
      cancel: (reason) => reader.cancel(reason),
    }),
  };
}

function noFile(): KilnError {
  return new KilnError("ErrFieldRequired", { field: "file" }, "choose a file to upload");
}
