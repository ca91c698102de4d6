// A streaming reader for multipart/form-data uploads: yields the bytes of one named part as they
// arrive, holding at most one network chunk plus a boundary's length in memory, so a file of any
// size is written to disk without ever being whole in memory. The body must end with the
// closing boundary; a body cut short is an error, so a partial upload is never taken for a file.
import { KilnError } from "../../core/errors";

const HEADER_END = Buffer.from("\r\n\r\n");
const GATHER_BYTES = 1024 * 1024;

/** The boundary from a Content-Type header, or an ErrFieldRequired error. */
export function multipartBoundary(contentType: string | undefined): string {
  const match = /^multipart\/form-data\b.*;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? "");
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw new KilnError("ErrFieldRequired", { field: "file" }, "a multipart/form-data body with a file field is required");
  return boundary;
}

/**
 * The content of the part named `field`, streamed. Parts before it are skipped; anything after
 * it is read and dropped. Throws ErrFieldRequired when the body has no such part. A yielded
 * chunk is only valid until the next one is asked for (the buffer is reused): write it at once.
 */
export async function* multipartField(body: ReadableStream<Uint8Array>, boundary: string, field: string): AsyncGenerator<Uint8Array> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const reader = body.getReader();
  // The preamble ends at the first boundary; prefixing CRLF lets one delimiter serve for all.
  let pending: Buffer = Buffer.from("\r\n");
  let state: "preamble" | "headers" | "wanted" | "skipped" | "done" = "preamble";
  let found = false;
  let ended = false;

  // Network chunks are small (tens of KB); gathering about a megabyte into one reused buffer
  // before looking at them means one copy and one disk write per megabyte, and no garbage.
  let scratch = Buffer.allocUnsafe(2 * GATHER_BYTES);
  const more = async (): Promise<boolean> => {
    if (ended) return false;
    let size = pending.length;
    scratch.set(pending, 0);
    let got = false;
    while (size < GATHER_BYTES) {
      const { value, done } = await reader.read();
      if (done) {
        ended = true;
        break;
      }
      if (size + value.byteLength > scratch.length) {
        const bigger = Buffer.allocUnsafe(2 * (size + value.byteLength));
        bigger.set(scratch.subarray(0, size), 0);
        scratch = bigger;
      }
      scratch.set(value, size);
      size += value.byteLength;
      got = true;
    }
    pending = scratch.subarray(0, size);
    return got;
  };

  try {
    for (;;) {
      if (state === "preamble" || state === "skipped" || state === "wanted") {
        const at = pending.indexOf(delimiter);
        if (at === -1) {
          // Keep the tail that could be the start of a delimiter; the rest is content.
          const keep = Math.min(pending.length, delimiter.length - 1);
          if (state === "wanted" && pending.length > keep) yield pending.subarray(0, pending.length - keep);
          pending = pending.subarray(pending.length - keep);
          if (!(await more())) throw incomplete();
          continue;
        }
        if (state === "wanted" && at > 0) yield pending.subarray(0, at);
        if (state === "wanted") found = true;
        pending = pending.subarray(at + delimiter.length);
        while (pending.length < 2) if (!(await more())) throw incomplete();
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = "done";
          break;
        }
        state = "headers";
        continue;
      }
      if (state === "headers") {
        const end = pending.indexOf(HEADER_END);
        if (end === -1) {
          if (pending.length > 16 * 1024) throw new KilnError("ErrFieldRequired", { field }, "a multipart part header is too long");
          if (!(await more())) throw incomplete();
          continue;
        }
        const headers = pending.subarray(0, end).toString("utf8");
        pending = pending.subarray(end + HEADER_END.length);
        state = !found && partName(headers) === field ? "wanted" : "skipped";
      }
    }
    if (!found) throw new KilnError("ErrFieldRequired", { field }, `the multipart body has no ${field} field`);
  } finally {
    reader.releaseLock();
  }
}

function partName(headers: string): string | undefined {
  const disposition = headers.split("\r\n").find((line) => /^content-disposition:/i.test(line));
  return disposition ? /\bname="([^"]*)"/i.exec(disposition)?.[1] : undefined;
}

function incomplete(): KilnError {
  return new KilnError("ErrFieldRequired", { field: "file" }, "the upload ended before the file was complete");
}
