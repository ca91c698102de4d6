// Small facts about the incoming request that several routes need.
import type { Context } from "hono";
import { KilnError } from "../core/errors";

/** The caller's address: the socket's peer, or the first X-Forwarded-For hop behind a trusted proxy. */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header("x-forwarded-for")?.split(",")[0]?.trim();
    if (forwarded) return forwarded;
  }
  const server = c.env as { requestIP?: (r: Request) => { address: string } | null } | undefined;
  return server?.requestIP?.(c.req.raw)?.address ?? "local";
}

/** True when the body is an HTML form rather than JSON: the caller is a page, not a program. */
export function isFormPost(c: Context): boolean {
  return /application\/x-www-form-urlencoded|multipart\/form-data/.test(c.req.header("content-type") ?? "");
}

/** The body as a plain record, from a form or from JSON (bad JSON is ErrInvalidJson). */
export async function readBody(c: Context): Promise<Record<string, unknown>> {
  if (isFormPost(c)) return (await c.req.parseBody()) as Record<string, unknown>;
  const parsed: unknown = await c.req.json().catch(() => {
    throw new KilnError("ErrInvalidJson");
  });
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new KilnError("ErrInvalidJson");
  return parsed as Record<string, unknown>;
}
