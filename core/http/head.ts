// A HEAD is answered with the headers its GET would have, the body's length included (RFC 9110
// §9.3.2: a cache may update its stored copy from them). Hono answers a HEAD by dropping the GET
// answer's body (`new Response(null, answer)`), after which Bun.serve could only say
// Content-Length: 0. So the app's outermost step keeps the whole answer for the request, and the
// fetch Bun.serve calls hands that on: Bun.serve sends no body for a HEAD, and tells a string's,
// a Blob's or a file's length without reading a file (a stream goes out chunked, length unknown).
const wholeAnswers = new WeakMap<Request, Response>();

/** Called by an app's outermost step with its final answer. */
export function keepHeadAnswer(request: Request, answer: Response): void {
  if (request.method === "HEAD") wholeAnswers.set(request, answer);
}

/** `fetch` with each HEAD answered by what keepHeadAnswer kept for it (else as `fetch` answered); other requests untouched. */
export function wholeHeadAnswers<Rest extends unknown[], Answer extends Response | undefined>(
  fetch: (request: Request, ...rest: Rest) => Answer | Promise<Answer>,
): (request: Request, ...rest: Rest) => Answer | Promise<Answer | Response> {
  const head = async (request: Request, rest: Rest): Promise<Answer | Response> => {
    const answer = await fetch(request, ...rest);
    const whole = wholeAnswers.get(request);
    wholeAnswers.delete(request);
    return whole ?? answer;
  };
  return (request, ...rest) => (request.method === "HEAD" ? head(request, rest) : fetch(request, ...rest));
}
