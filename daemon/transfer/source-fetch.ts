// The target's requests to the source node: the ticket as the bearer token, no redirects (a
// redirect could carry the ticket to another host), and three bounds on time: a source that sends
// no byte for `stallMs` (the head of its answer included) is given up on (ErrTransferStalled); a
// read with a `pace` that falls below it (./read-pace: a byte every 59 s passed the stall timer)
// and a read not ended `deadlineMs` after it was asked fail with ErrTransferFailed. A cancel or a
// failure elsewhere in the pull aborts through `signal`.
import { readCapped } from "../../core/net/capped-answer";
import { KilnError } from "../../core/errors";
import { watchPace, type ReadPace } from "./read-pace";

export interface SourceRequest {
  url: string;
  ticket: string;
  signal: AbortSignal;
  stallMs: number;
  /** The least pace of the answer's body, from its head on. */
  pace?: ReadPace;
  /** The most the whole read may take, from the request on. */
  deadlineMs?: number;
}

/** Thrown when `signal` aborted the request: the pull says why (cancelled, or another file's failure). */
export class PullAborted extends Error {}

/** The answer's body, chunk by chunk; the request is aborted when the consumer stops early. */
export async function* sourceBody({ url, ticket, signal, stallMs, pace, deadlineMs }: SourceRequest): AsyncGenerator<Uint8Array> {
  const local = new AbortController();
  // The bound that ended the read, if one did: thrown instead of the abort it caused.
  let cut: KilnError | null = null;
  const end = (error: KilnError) => {
    cut ??= error;
    local.abort();
  };
  const stall = () => end(new KilnError("ErrTransferStalled", { seconds: Math.round(stallMs / 1000) }, `the source sent nothing for ${stallMs} ms`));
  let timer = setTimeout(stall, stallMs);
  const rearm = () => {
    clearTimeout(timer);
    timer = setTimeout(stall, stallMs);
  };
  const deadline = deadlineMs === undefined ? undefined : setTimeout(() => end(new KilnError("ErrTransferFailed", { reason: "too slow", seconds: Math.round(deadlineMs / 1000) }, `the source's answer did not end within ${deadlineMs} ms`)), deadlineMs);
  let watch: ReturnType<typeof watchPace> | undefined;
  const onAbort = () => local.abort();
  if (signal.aborted) local.abort();
  signal.addEventListener("abort", onAbort);
  try {
    const response = await fetch(url, { headers: { authorization: `Bearer ${ticket}` }, signal: local.signal, redirect: "error" });
    if (response.status !== 200 || !response.body) throw await refusal(response);
    rearm();
    if (pace) {
      const { floorBytesPerSecond, windowMs } = pace;
      watch = watchPace(pace, () => end(new KilnError("ErrTransferFailed", { reason: "too slow", bytesPerSecond: floorBytesPerSecond }, `the source sent less than ${floorBytesPerSecond} bytes/s over ${windowMs} ms`)));
    }
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        rearm();
        watch?.count(value.byteLength);
        yield value;
      }
    } finally {
      // A consumer that stopped early (a refused file) ends the request too.
      local.abort();
      reader.releaseLock();
    }
  } catch (error) {
    if (cut) throw cut;
    if (signal.aborted) throw new PullAborted("aborted");
    if (error instanceof KilnError) throw error;
    throw new KilnError("ErrTransferFailed", { reason: "unreachable" }, `the source could not be reached: ${(error as Error).message}`);
  } finally {
    clearTimeout(timer);
    clearTimeout(deadline);
    watch?.stop();
    signal.removeEventListener("abort", onAbort);
  }
}

/** The largest error answer read from a source. */
const MAX_ERROR_BYTES = 64 * 1024;

/**
 * A source's refusal as the pull's error: its own ErrTransferManifest (its folder has too many
 * entries) is passed on; anything else (a ticket refused, a file gone since the manifest, a
 * server error) is ErrTransferFailed with the status, for the node's log.
 */
async function refusal(response: Response): Promise<KilnError> {
  const failed = new KilnError("ErrTransferFailed", { status: response.status }, `the source answered ${response.status}`);
  if (!response.body || !(response.headers.get("content-type") ?? "").includes("json")) {
    await response.body?.cancel().catch(() => undefined);
    return failed;
  }
  try {
    const bytes = await readCapped(response, MAX_ERROR_BYTES);
    if (bytes === null) return failed;
    const body = JSON.parse(bytes.toString("utf8")) as { error?: { code?: unknown; metadata?: { reason?: unknown } } };
    if (body.error?.code === "ErrTransferManifest") {
      const reason = typeof body.error.metadata?.reason === "string" ? body.error.metadata.reason.slice(0, 200) : "refused by the source";
      return new KilnError("ErrTransferManifest", { reason }, `the source refused to list its folder: ${reason}`);
    }
  } catch {
    // Not a catalogue answer: the status says enough.
  }
  return failed;
}

/** A whole answer of at most `maxBytes` (the manifest); `inspect` sees each chunk as it comes and may refuse it by throwing. */
export async function sourceText(request: SourceRequest, maxBytes: number, tooLarge: () => Error, inspect: (chunk: Uint8Array) => void = () => undefined): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of sourceBody(request)) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    inspect(chunk);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}
