// The panel's public origin, for WebAuthn and for links in emails: the master URL setting when
// set, else what the request itself came to.
import type { Context } from "hono";
import type { Deps } from "./deps";
import { brandName } from "./render";
import { getSetting, SETTING_KEYS } from "./services/settings";
import { isHttps } from "./cookies";
import type { RelyingParty } from "./services/passkeys";

export function publicOrigin(c: Context, deps: Deps): string {
  const master = getSetting(deps.db, SETTING_KEYS.masterUrl);
  if (master) return new URL(master).origin;
  const host = (deps.config.trustProxy ? c.req.header("x-forwarded-host") : undefined) ?? c.req.header("host") ?? new URL(c.req.url).host;
  return `${isHttps(c, deps.config.trustProxy) ? "https" : "http"}://${host}`;
}

export function relyingParty(c: Context, deps: Deps): RelyingParty {
  const origin = publicOrigin(c, deps);
  return { name: brandName(deps), id: new URL(origin).hostname, origin };
}
