// The one answer to "does this request come from the panel's own pages?", for the same-origin
// check of cookie-authenticated changes and for opening a live socket.
import type { Context } from "hono";

/**
 * True when the request carries no Origin or an Origin naming the host the request was sent to.
 * Browsers send Origin on every socket handshake and every cross-origin change, so a missing one
 * means a program, not a page of another site. "null" (sandboxed frames, file: pages, some
 * redirects) and anything that does not parse are foreign. The host the browser used is Host, or
 * X-Forwarded-Host (its first value) only when the config trusts a reverse proxy: otherwise any
 * caller could name itself. Hosts are compared, not schemes, so a TLS-terminating proxy that keeps
 * Host but not the scheme still works.
 */
export function isSameOrigin(c: Context, trustProxy: boolean): boolean {
  const origin = c.req.header("origin");
  if (origin === undefined) return true;
  const forwarded = trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  const host = forwarded || c.req.header("host");
  if (!host) return false;
  try {
    const from = new URL(origin);
    if (from.protocol !== "http:" && from.protocol !== "https:") return false;
    // The request's host read as the same scheme's, so default ports and letter case compare alike.
    return from.host === new URL(`${from.protocol}//${host}`).host;
  } catch {
    return false;
  }
}
