// An answer from a machine the reader does not run (for the panel: a node, a mod source, a sign-in
// provider; for a node: another node's refusal) is read to a cap: as it comes, stopped at the cap,
// never taken whole first. A body without end, or a Content-Length that lies, cannot grow the
// reader's memory past the cap.

/** The body's bytes, or null when it is (or says it is) longer than `max` bytes; a body that breaks off rejects. */
export async function readCapped(response: Response, max: number): Promise<Buffer | null> {
  const declared = Number(response.headers.get("content-length") ?? NaN);
  if (declared > max) {
    await response.body?.cancel().catch(() => undefined);
    return null;
  }
  if (!response.body) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => undefined);
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}
