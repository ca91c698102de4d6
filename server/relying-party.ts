// The panel's public origin, for WebAuthn and for links in emails: the master URL setting when
// set, else what the request itself came to.
import type { Context } from "hono";
import type { Deps } from "./deps";
import type { Db } from "../db";
import { brandName } from "./render";
import { getSetting, SETTING_KEYS } from "./services/settings";
import { isHttps } from "./cookies";
import type { RelyingParty } from "./services/passkeys";

/** The origin of the master URL an administrator set, or null while none is. */
export async function masterOrigin(db: Db): Promise<string | null> {
  const master = await getSetting(db, SETTING_KEYS.masterUrl);
  return master ? new URL(master).origin : null;
}

/**
 * The master URL's origin, else the one the request came to. The latter is its sender's to write
 * (Host, or a trusted proxy's X-Forwarded-Host): fit for what goes back to that sender, never for
 * a link sent to someone else (./invitations).
 */
export async function publicOrigin(c: Context, deps: Deps): Promise<string> {
  const master = await masterOrigin(deps.db);
  if (master) return master;
  const host = (deps.config.trustProxy ? c.req.header("x-forwarded-host") : undefined) ?? c.req.header("host") ?? new URL(c.req.url).host;
  return `${isHttps(c, deps.config.trustProxy) ? "https" : "http"}://${host}`;
}

export async function relyingParty(c: Context, deps: Deps): Promise<RelyingParty> {
  const origin = await publicOrigin(c, deps);
  return { name: await brandName(deps), id: new URL(origin).hostname, origin };
}
