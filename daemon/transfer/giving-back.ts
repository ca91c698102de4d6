// An answer's body that gives its slot back once it is done: read to its end, failed, or cancelled
// because the client went away (Bun cancels a Response's stream then). Until one of those, the
// slot stays taken, which is the point: a client that opens an answer and never reads it holds it.
export function givingBack(body: ReadableStream<Uint8Array>, give: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          give();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        give();
        controller.error(error);
      }
    },
    async cancel(reason) {
      give();
      await reader.cancel(reason);
    },
  });
}
