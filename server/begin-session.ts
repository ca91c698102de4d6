// Starting a login session once the caller has proved who they are (password, code, passkey,
// invitation): the token, its cookie, and where the user lands.
import type { Context } from "hono";
import { SCOPES, hasScope } from "../core/scopes";
import type { Deps } from "./deps";
import { isHttps, setSessionCookie } from "./cookies";
import { createSession, deleteSession, SESSION_TTL_MS, type LoginProof, type SessionUser } from "./services/sessions";
import { firstAdminLoggedIn, getUser, scopesOf } from "./services/users";
import type { Db } from "../db";
import { recordLogin, type LoginMethod } from "./services/activity/logins";
import { recordEvent } from "./services/activity/record";
import { userActor } from "./services/activity/actor";
import { hasAnyServer } from "./services/servers";

/**
 * Where a fresh login lands: Servers for those who may view them (by scope, or because a server
 * was shared with them), else Account.
 */
export function landingPath(scopes: string[], sharedServers = false): string {
  return sharedServers || hasScope(scopes, SCOPES.serversView) ? "/server" : "/account";
}

export async function beginSession(c: Context, deps: Deps, userId: number, method: LoginMethod, proof?: LoginProof): Promise<{ token: string; scopes: string[]; landing: string }> {
  const token = await createSession(deps.db, userId, { proof });
  await recordLogin(deps.db, await getUser(deps.db, userId), method);
  await firstAdminLoggedIn(deps.db, userId);
  setSessionCookie(c, token, SESSION_TTL_MS / 1000, isHttps(c, deps.config.trustProxy));
  const scopes = await scopesOf(deps.db, userId);
  return { token, scopes, landing: landingPath(scopes, await hasAnyServer(deps.db, userId)) };
}

/** Logs the session out: the token stops working at once, and the log says who left. */
export async function endSession(db: Db, token: string, user: SessionUser | null): Promise<void> {
  await deleteSession(db, token);
  if (user && !user.clientId) await recordEvent(db, "user.logout", { actor: userActor(user), subject: user.id });
}
