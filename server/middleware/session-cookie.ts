// The session cookie a request carries, read here only (./authenticate asks), and what its answer
// does when the request carries one name twice, with two values. Cookies do not isolate by port, nor (with
// Domain=) by subdomain: a page on another port of the panel's host, such as a game server's web
// map whose files a server user controls, can set `kiln=<its own session>; Path=/server` for the
// panel's host. The browser then sends both copies to /server/..., the more specific first, and a
// reader taking the first puts the victim in the attacker's account (a logged-out victim is simply
// logged in as them). Nothing in a Cookie header says which copy is whose, not even the one at
// Path=/, so such a request is nobody's, and its answer deletes every copy that could have been
// sent, the victim's own included: they log in again. No session is revoked (the victim's row
// lives out its time; the attacker's is theirs to keep either way).
import type { Context } from "hono";
import { COOKIES } from "../cookies";
import { cookieValue } from "./cookie-value";

const SESSION_NAMES = [COOKIES.session, COOKIES.pufferPanelSession] as const;
/** Path segments whose prefixes are cleared: a copy planted deeper is not, but still makes its requests nobody's. */
const MAX_SEGMENTS = 16;
/** Parent domains cleared besides the host itself (a.b.example.com: b.example.com, example.com). */
const MAX_PARENT_DOMAINS = 4;

/**
 * The session cookie names the header carries more than once with different values (as Hono's
 * reader trims names and values). Copies of one value say one session, whoever set them.
 */
export function repeatedSessionCookies(header: string | null | undefined): string[] {
  if (!header) return [];
  const repeated: string[] = [];
  for (const name of SESSION_NAMES) {
    // Every request passes here: most carry each name at most once, as text.
    if (header.indexOf(name) === header.lastIndexOf(name)) continue;
    const values = new Set<string>();
    for (const pair of header.split(";")) {
      const eq = pair.indexOf("=");
      if (eq !== -1 && pair.slice(0, eq).trim() === name) values.add(pair.slice(eq + 1).trim());
    }
    if (values.size > 1) repeated.push(name);
  }
  return repeated;
}

/** The request's session token from its cookie (ours, else PufferPanel's), or null when there is none or it is ambiguous. */
export function sessionCookieToken(c: Context): string | null {
  // Every request asks: the header is read once, and most carry none.
  const header = c.req.raw.headers.get("cookie");
  if (!header || repeatedSessionCookies(header).length > 0) return null;
  return cookieValue(header, COOKIES.session) ?? cookieValue(header, COOKIES.pufferPanelSession) ?? null;
}

/**
 * Every cookie path a browser would send to `pathname` (RFC 6265 path-match): the path itself and
 * each prefix ending before or at a "/". A path holding ";" is no cookie's (an attribute ends there).
 */
export function cookiePathsOf(pathname: string): string[] {
  const paths = new Set<string>(["/"]);
  let segments = 0;
  for (let i = 1; i < pathname.length && segments < MAX_SEGMENTS; i++) {
    if (pathname[i] !== "/") continue;
    segments++;
    paths.add(pathname.slice(0, i)).add(pathname.slice(0, i + 1));
  }
  if (segments < MAX_SEGMENTS) paths.add(pathname);
  return [...paths].filter((p) => p.startsWith("/") && !p.includes(";"));
}

/** "" (host-only), the host, and its parents of two labels or more; an address has no parents. */
export function cookieDomainsOf(hostname: string): string[] {
  if (hostname.startsWith("[")) return [""];
  const domains = ["", hostname];
  if (/^\d+(\.\d+){3}$/.test(hostname)) return domains;
  const labels = hostname.split(".");
  for (let i = 1; i + 2 <= labels.length && domains.length < MAX_PARENT_DOMAINS + 2; i++) domains.push(labels.slice(i).join("."));
  return domains;
}

/** The host the browser sent the request to: X-Forwarded-Host only behind a trusted proxy (as ./origin). */
function browserHostname(c: Context, url: URL, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined;
  if (forwarded) {
    try {
      return new URL(`http://${forwarded}`).hostname;
    } catch {
      // a proxy's value that is no host: the request's own
    }
  }
  return url.hostname;
}

/**
 * On the answer to a request that carried a session cookie twice, deletes that name on every path
 * it could have come from, host-only and for each domain, before the answer's own cookies (a login
 * sent with planted copies keeps the session it makes).
 */
export function clearRepeatedSessionCookies(c: Context, trustProxy: boolean): void {
  const names = repeatedSessionCookies(c.req.raw.headers.get("cookie"));
  if (names.length === 0 || c.res.status < 200) return;
  // A Host that is no host was refused before anything was read (core/http/request-host).
  const url = URL.parse(c.req.url);
  if (!url) return;
  const paths = cookiePathsOf(url.pathname);
  const domains = cookieDomainsOf(browserHostname(c, url, trustProxy));
  const deletions: string[] = [];
  for (const name of names) for (const path of paths) for (const domain of domains) deletions.push(`${name}=; Max-Age=0; Path=${path}${domain ? `; Domain=${domain}` : ""}`);
  let headers = c.res.headers;
  const own = headers.getSetCookie();
  try {
    headers.delete("Set-Cookie");
  } catch {
    // an answer passed on as it came: its headers cannot change
    c.res = new Response(c.res.body, c.res);
    headers = c.res.headers;
    headers.delete("Set-Cookie");
  }
  for (const line of [...deletions, ...own]) headers.append("Set-Cookie", line);
}
