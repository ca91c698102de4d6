// Who may read /metrics: a caller sending `Authorization: Bearer <the metrics token>`, the panel
// setting panel.metrics.token, and no one else: not a session, not an admin's cookie, not an
// OAuth2 token. With no token set metrics are off and every caller is refused. The comparison
// takes the same time whatever the token sent (hashes of both, compared in constant time).
import { createHash, timingSafeEqual } from "node:crypto";
import type { Db } from "../../db";
import { KilnError } from "../../core/errors";
import { getSetting, SETTING_KEYS } from "../services/settings";

/** The token as the setting holds it; null when metrics are off. */
async function metricsToken(db: Db): Promise<string | null> {
  const token = await getSetting(db, SETTING_KEYS.metricsToken);
  return token ? token : null;
}

export async function metricsEnabled(db: Db): Promise<boolean> {
  return await metricsToken(db) !== null;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Throws ErrInvalidCredentials (401) unless `authorization` is `Bearer <the metrics token>`. */
export async function checkMetricsToken(db: Db, authorization: string | undefined): Promise<void> {
  const expected = await metricsToken(db);
  // The token may hold spaces (any printable character): all after "Bearer " is the token.
  const sent = /^Bearer +(.+)$/i.exec(authorization ?? "")?.[1]?.trim();
  const matches = timingSafeEqual(digest(sent ?? ""), digest(expected ?? "")) && expected !== null && sent !== undefined;
  if (!matches) throw new KilnError("ErrInvalidCredentials", undefined, "metrics need the metrics token as a bearer token");
}
