// A node's answer is read as a stranger's (a node may be compromised, or its address may come to
// point at a listener of someone who may edit nodes): its body has a size and a time it must end
// within, beyond which the read fails as a node that does not answer (ErrServiceNotAvailable),
// never as a panel holding a gigabyte in memory or waiting forever on a trickle. Transfers (file
// downloads and uploads, backups) are streams whose length is their data's: only the caller
// leaving ends them, and they are not bounded here.
import { KilnError } from "../core/errors";

/** More than any answer the contract names (a listing of 10,000 entries, a console tail, a task list) takes. */
export const NODE_ANSWER_MAX_BYTES = 32 * 1024 * 1024;
/** How long a node has to send an answer's body once it began it. */
export const NODE_ANSWER_BODY_MS = 60_000;

export interface AnswerBounds {
  maxBytes: number;
  /** from when the answer's headers arrived */
  bodyMs: number;
}

export const NODE_ANSWER_BOUNDS: AnswerBounds = { maxBytes: NODE_ANSWER_MAX_BYTES, bodyMs: NODE_ANSWER_BODY_MS };

/**
 * `response` with a body that fails (ErrServiceNotAvailable naming `nodeName`) past `bounds`: more
 * bytes than maxBytes, or not ended bodyMs after now. `abort` is called on a failure, so the
 * connection to the node is dropped instead of drained; `done` once the body ended either way.
 */
export function boundedAnswer(response: Response, nodeName: string, bounds: AnswerBounds, abort: () => void, done: () => void = () => undefined): Response {
  const body = response.body;
  if (!body) {
    done();
    return response;
  }
  const refusal = (why: string) => new KilnError("ErrServiceNotAvailable", { node: nodeName }, `node ${nodeName}'s answer ${why}`);
  let received = 0;
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    done();
  };
  const reader = body.getReader();
  let controllerOf: ReadableStreamDefaultController<Uint8Array> | null = null;
  const fail = (error: KilnError) => {
    finish();
    abort();
    void reader.cancel(error).catch(() => undefined);
    controllerOf?.error(error);
  };
  const timer = setTimeout(() => fail(refusal(`took longer than ${bounds.bodyMs} ms`)), bounds.bodyMs);
  const bounded = new ReadableStream<Uint8Array>({
    start(controller) {
      controllerOf = controller;
    },
    async pull(controller) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        if (!finished) fail(refusal("broke off"));
        return;
      }
      if (finished) return;
      if (chunk.done) {
        finish();
        controller.close();
        return;
      }
      received += chunk.value.byteLength;
      if (received > bounds.maxBytes) return fail(refusal(`is larger than ${bounds.maxBytes} bytes`));
      controller.enqueue(chunk.value);
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(bounded, { status: response.status, statusText: response.statusText, headers: response.headers });
}
