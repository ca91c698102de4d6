// Giving someone access to a server by email: an existing account gets the flags at once; an
// unknown email is invited first (spec section 7), and the invitation comes back.
import type { Context } from "hono";
import type { Deps } from "./deps";
import type { ServerFlag } from "../core/scopes";
import type { Locale } from "../core/i18n/locales";
import { invite, type InviteResult } from "./invitations";
import { findUserByEmail, putServerUser } from "./services/servers";

export async function shareServer(c: Context, deps: Deps, serverId: string, email: string, flags: ServerFlag[], locale: Locale): Promise<InviteResult | null> {
  const existing = findUserByEmail(deps.db, email);
  const invited = existing ? null : await invite(c, deps, email, locale);
  putServerUser(deps.db, serverId, existing?.id ?? invited!.id, flags);
  return invited;
}
