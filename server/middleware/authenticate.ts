// Finds the caller's session from the "kiln" cookie or a bearer header; never refuses by itself.
import type { Context } from "hono";
import type { Db } from "../../db";
import { findSessionUser, type SessionUser } from "../services/sessions";
import { sessionCookieToken } from "./session-cookie";
import type { KilnEnv } from "../context";

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

/**
 * The one place that decides which credential a request is judged by: its bearer token when the
 * Authorization header holds one that parses, else its session cookie (ours, or PufferPanel's
 * puffer_auth). A header that only looks like a bearer ("Bearer a b", two of them) is no
 * credential, and the cookie decides; the same-origin rule asks this too, so a cookie is never
 * excused from it by a header that was not used. A session cookie sent twice is none
 * (./session-cookie: a copy planted from another port of the host shadows the caller's own).
 */
export function requestCredential(c: Context): { token: string; via: "bearer" | "cookie" } | null {
  const bearer = bearerToken(c.req.header("authorization"));
  if (bearer !== null) return { token: bearer, via: "bearer" };
  const cookie = sessionCookieToken(c);
  return cookie ? { token: cookie, via: "cookie" } : null;
}

/** Sets the request's caller (and their token) from the session the request carries, if valid. */
export async function identifyCaller(c: Context<KilnEnv>, db: Db): Promise<SessionUser | null> {
  const token = requestCredential(c)?.token ?? null;
  const user = token ? await findSessionUser(db, token) : null;
  c.set("user", user);
  c.set("sessionToken", user ? token : null);
  return user;
}
