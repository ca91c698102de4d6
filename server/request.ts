// Small facts about the incoming request that several routes need.
import type { Context } from "hono";
import { KilnError } from "../core/errors";
import { requestTarget } from "../core/node-token";
import { bearerToken } from "./middleware/authenticate";

/**
 * The caller's address: the socket's peer, or behind a trusted proxy the last X-Forwarded-For hop,
 * the one that proxy appended (nginx's $proxy_add_x_forwarded_for, HAProxy's `option forwardfor`)
 * or set. Every hop before it is the client's own say: taking the first let any client pick its
 * login-throttle bucket, or lock another's, and write the address the activity log records.
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",").at(-1)?.trim();
    if (forwarded) return withoutPort(forwarded);
  }
  const server = c.env as { requestIP?: (r: Request) => { address: string } | null } | undefined;
  return server?.requestIP?.(c.req.raw)?.address ?? "local";
}

/**
 * A forwarded hop without the client's port, which some proxies write (Azure's Application Gateway:
 * "192.0.2.7:40001", "[2001:db8::1]:40001"): the address names the caller, and a port that is new
 * on every connection made every connection a new caller to the login throttle. A bare IPv6
 * address keeps all its words (no port can be told from its last one).
 */
function withoutPort(hop: string): string {
  const ported = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(hop) ?? /^\[([0-9a-fA-F:.%\w-]+)\]:\d{1,5}$/.exec(hop);
  return ported ? ported[1]! : hop;
}

/** True when the body is an HTML form rather than JSON: the caller is a page, not a program. */
export function isFormPost(c: Context): boolean {
  return /application\/x-www-form-urlencoded|multipart\/form-data/.test(c.req.header("content-type") ?? "");
}

/**
 * The body as a plain record, from a form or from JSON. A body that cannot be read as its
 * Content-Type says (bad JSON, a multipart body without its boundary or cut short, a JSON array)
 * is ErrInvalidJson, the catalogue's code for an unreadable body. The record has no prototype,
 * so a field named __proto__ or constructor is only ever a field.
 */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  if (isFormPost(c)) return plainRecord(await readForm(c));
  const parsed: unknown = await c.req.json().catch(() => {
    throw new KilnError("ErrInvalidJson");
  });
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new KilnError("ErrInvalidJson");
  return plainRecord(parsed as Record<string, unknown>);
}

/** A form body (urlencoded or multipart); one that cannot be parsed is ErrInvalidJson. */
export async function readForm(c: Context, options: { all?: boolean } = {}): Promise<Record<string, string | File | (string | File)[]>> {
  try {
    return await c.req.parseBody(options);
  } catch {
    throw new KilnError("ErrInvalidJson", undefined, "the form data cannot be read");
  }
}

function plainRecord<T>(record: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, record);
}

/** A node's call to the panel as its token is checked: the bearer token, the method and the target it signed. */
export function nodeCallOf(c: Context): { token: string | null; method: string; target: string } {
  return { token: bearerToken(c.req.header("authorization")), method: c.req.method, target: requestTarget(c.req.url) };
}
