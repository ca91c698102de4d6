// Every request body the node reads keeps a pace, as a mature server holds its clients to one
// (nginx's client_body_timeout: 60 s between two reads; Apache's mod_reqtimeout: a least rate).
// The node serves with no idle timeout (a panel's call may wait minutes for an install), so
// without this an upload sending a byte now and then lasted as long as its sender liked, holding
// the server's change count (a move's offer waits for it), a modpack place and a partial file.
// A body that sends nothing for `stallMs`, or less than the floor over a window after its first
// (daemon/transfer/read-pace), ends with ErrUploadStalled; one the node ends on purpose (a move's
// offer: servers/folder-changes) ends with the error it is given. The reader of the body then
// fails with that error, and what it wrote goes with it (an upload is all or nothing).
import type { MiddlewareHandler } from "hono";
import { KilnError } from "../../core/errors";
import { watchPace } from "../transfer/read-pace";
import { admit } from "./admitted";

export interface UploadPace {
  /** The longest wait for the next bytes while the node is reading. */
  stallMs: number;
  /** The least average, in bytes per second, over any window after the first. */
  floorBytesPerSecond: number;
  windowMs: number;
}

/**
 * A minute without a byte (nginx's client_body_timeout), and 1 KiB/s over a minute: a phone on
 * the slowest mobile link sends several times that, a trickle of a byte every 50 s (which a stall
 * timer alone lets through) is ended within two minutes, and one that keeps to the floor must send
 * 60 KB a minute, for a place an upload holds for its length at most (a modpack's: 256 MB).
 */
export const UPLOAD_PACE: UploadPace = { stallMs: 60_000, floorBytesPerSecond: 1024, windowMs: 60_000 };

/** Ends a body being read with `error` (nothing when it was read to its end already). */
export type EndBody = (error: KilnError) => void;

const enders = new WeakMap<Request, EndBody>();

/** What ends the body of `request` (one the middleware below paced), or undefined for one without a body. */
export function bodyEnder(request: Request): EndBody | undefined {
  return enders.get(request);
}

/**
 * Paces the body of every request that has one. Runs after the token check (the request it makes
 * is admitted as the original was: http/admitted). An answer to a request whose body was ended
 * closes its connection: the rest of that body is not read.
 */
export const paceBodies = (pace: UploadPace): MiddlewareHandler =>
  async function paceBodies(c, next) {
    const body = c.req.raw.body;
    if (!body || c.req.method === "GET" || c.req.method === "HEAD") return next();
    const paced = pacedBody(body, pace);
    const request = new Request(c.req.raw, { body: paced.body, duplex: "half" } as RequestInit);
    admit(request);
    enders.set(request, paced.end);
    c.req.raw = request;
    try {
      await next();
    } finally {
      paced.stop();
    }
    if (paced.ended()) {
      try {
        c.res.headers.set("Connection", "close");
      } catch {
        // An answer passed on as it came cannot change: it is closed with the request anyway.
      }
    }
  };

/** `body`, read through a stall timer and a least pace, and ended at once by `end`. */
export function pacedBody(body: ReadableStream<Uint8Array>, pace: UploadPace): { body: ReadableStream<Uint8Array>; end: EndBody; ended: () => boolean; stop: () => void } {
  const reader = body.getReader();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let finished = false;
  let cause: KilnError | null = null;
  let stall: ReturnType<typeof setTimeout> | undefined;
  const watch = watchPace({ floorBytesPerSecond: pace.floorBytesPerSecond, windowMs: pace.windowMs }, () =>
    end(new KilnError("ErrUploadStalled", { seconds: Math.round(pace.windowMs / 1000) }, `the body arrived at less than ${pace.floorBytesPerSecond} bytes/s over ${pace.windowMs} ms`)),
  );
  const stop = () => {
    finished = true;
    clearTimeout(stall);
    watch.stop();
  };
  const end: EndBody = (error) => {
    if (finished) return;
    cause = error;
    stop();
    try {
      controller.error(error);
    } catch {
      // already errored
    }
    reader.cancel(error).catch(() => undefined);
  };
  const paced = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      async pull(c) {
        if (finished) return;
        // The stall timer runs only while the node waits for bytes: a slow disk is not the sender's.
        // Ending cancels the reader, which settles a read under way (done), and errors this stream.
        stall = setTimeout(() => end(new KilnError("ErrUploadStalled", { seconds: Math.round(pace.stallMs / 1000) }, `the body sent nothing for ${pace.stallMs} ms`)), pace.stallMs);
        try {
          const { done, value } = await reader.read();
          clearTimeout(stall);
          if (cause) return;
          if (done) {
            stop();
            c.close();
            return;
          }
          watch.count(value.byteLength);
          c.enqueue(value);
        } catch (error) {
          clearTimeout(stall);
          if (cause) return;
          stop();
          c.error(error);
        }
      },
      cancel(reason) {
        stop();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { body: paced, end, ended: () => cause !== null, stop };
}
