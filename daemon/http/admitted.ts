// Which requests proved who sent them: a panel's with a valid node token, a target node's with a
// transfer ticket. Only their connections are kept open for the next request; every other answer
// (a refusal, the node's proof, a page that does not exist) closes its connection. The node's
// server has no idle timeout (a panel's call may wait minutes for an install without a byte), so
// a connection anyone kept alive after one refused request would stay open for good: enough of
// them use up the node's descriptors and memory.
const admitted = new WeakSet<Request>();

export function admit(request: Request): void {
  admitted.add(request);
}

/** Sets `Connection: close` on the answer to a request no token or ticket admitted. */
export function closeUnlessAdmitted(request: Request, answer: Response): void {
  if (admitted.has(request)) return;
  try {
    answer.headers.set("Connection", "close");
  } catch {
    // An answer passed on as it came cannot change; none of those reaches a caller not admitted.
  }
}
