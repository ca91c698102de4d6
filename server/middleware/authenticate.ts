// Finds the caller's session from the "kiln" cookie or a bearer header; never refuses by itself.
import type { Context } from "hono";
import { getCookie } from "hono/cookie";
import type { Db } from "../../db";
import { findSessionUser, type SessionUser } from "../services/sessions";
import { COOKIES } from "../cookies";
import type { KilnEnv } from "../context";

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

/** Sets the request's caller (and their token) from the session the request carries, if valid. */
export async function identifyCaller(c: Context<KilnEnv>, db: Db): Promise<SessionUser | null> {
  const token = bearerToken(c.req.header("authorization")) ?? getCookie(c, COOKIES.session) ?? getCookie(c, COOKIES.pufferPanelSession) ?? null;
  const user = token ? await findSessionUser(db, token) : null;
  c.set("user", user);
  c.set("sessionToken", user ? token : null);
  return user;
}
