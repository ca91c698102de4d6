// The panel's public origin, for WebAuthn and for links in emails: the master URL setting when
// set, else what the request itself came to.
import type { Context } from "hono";
import type { Deps } from "./deps";
import { brandName } from "./render";
import { getSetting, SETTING_KEYS } from "./services/settings";
import { isHttps } from "./cookies";
import type { RelyingParty } from "./services/passkeys";

export async function publicOrigin(c: Context, deps: Deps): Promise<string> {
  const master = await getSetting(deps.db, SETTING_KEYS.masterUrl);
  if (master) return new URL(master).origin;
  const host = (deps.config.trustProxy ? c.req.header("x-forwarded-host") : undefined) ?? c.req.header("host") ?? new URL(c.req.url).host;
  return `${isHttps(c, deps.config.trustProxy) ? "https" : "http"}://${host}`;
}

export async function relyingParty(c: Context, deps: Deps): Promise<RelyingParty> {
  const origin = await publicOrigin(c, deps);
  return { name: await brandName(deps), id: new URL(origin).hostname, origin };
}
