// Finds the caller's session from the "kiln" cookie or a bearer header; never refuses by itself.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import type { Db } from "../../db";
import { findSessionUser } from "../services/sessions";
import { COOKIES } from "../cookies";
import type { KilnEnv } from "../context";
import { withRequestActor } from "../services/activity/actor";
import { clientAddress } from "../request";

export function bearerToken(header: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1] ?? null;
}

export const authenticate = (db: Db, trustProxy: boolean): MiddlewareHandler<KilnEnv> =>
  async function authenticate(c, next) {
    const token = bearerToken(c.req.header("authorization")) ?? getCookie(c, COOKIES.session) ?? getCookie(c, COOKIES.pufferPanelSession) ?? null;
    const user = token ? await findSessionUser(db, token) : null;
    c.set("user", user);
    c.set("sessionToken", user ? token : null);
    // Whatever the request changes is recorded with this caller and address (services/activity).
    await withRequestActor(db, user, () => clientAddress(c, trustProxy), next);
  };
