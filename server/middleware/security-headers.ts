// Headers every response carries: no framing, no sniffing, scripts only from our own origin, no
// caching unless the route allows it.
import type { Context } from "hono";

// Styles allow inline attributes (charts and editors set them); scripts never run inline.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "connect-src 'self' ws: wss:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join("; ");

const FIXED: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["X-Frame-Options", "DENY"],
  ["Referrer-Policy", "same-origin"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
];

/** The headers set on `headers`; false when they cannot change (a response passed on as it came). */
function setOn(headers: Headers): boolean {
  try {
    // A stricter policy set by the route (the file proxy sandboxes users' files) stands.
    if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", CSP);
    for (const [name, value] of FIXED) headers.set(name, value);
    // An answer is kept by no cache unless its route says it may be (static assets, translations):
    // most are a signed-in user's own (a file, a node's secret, a page of their servers), and a
    // browser keeps an answer without the header for a while on its own, even past logout.
    if (!headers.has("Cache-Control")) headers.set("Cache-Control", "no-store");
    return true;
  } catch {
    return false;
  }
}

/** Answers made whole by securedAnswer: they carry every header already. */
const secured = new WeakSet<Response>();

/** Per Content-Type, that header and then the others in the order setOn sets them. */
const wholeHeaders = new Map<string, Record<string, string>>();

/**
 * An answer made with the security headers in it, the bytes on the wire those of the same body
 * answered by c.body and given them by setSecurityHeaders (Bun writes headers in the order they
 * were set): for the answers clients poll in loops (the server list, the public config), where
 * six Headers.set after the route were a tenth of the request and a Response made from all its
 * headers at once costs about half that. Only for a route's own plain answer, never one passed on.
 */
export function securedAnswer(body: string | Blob, contentType: string): Response {
  let headers = wholeHeaders.get(contentType);
  if (!headers) {
    headers = { "Content-Type": contentType, "Content-Security-Policy": CSP, ...Object.fromEntries(FIXED), "Cache-Control": "no-store" };
    if (wholeHeaders.size < 16) wholeHeaders.set(contentType, headers);
  }
  const answer = new Response(body, { status: 200, headers });
  secured.add(answer);
  return answer;
}

/** Sets them on the answer, whatever made it (a route, a refusal, an error page). */
export function setSecurityHeaders(c: Context): void {
  if (secured.has(c.res)) return;
  // Set in place: Hono's c.header() copies a finished response for every header it sets.
  if (!setOn(c.res.headers)) {
    c.res = new Response(c.res.body, c.res);
    setOn(c.res.headers);
  }
}
