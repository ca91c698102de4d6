// Rows that lapse and that nothing reads again once lapsed: sessions, one-time values (challenges,
// shares of sign-in starts, nonces, plans…) and unfinished sign-ins through a provider (a login
// abandoned at its provider, a password step never given). One panel of several drops them every
// EXPIRY_PURGE_MS, under the lease "expiry-purge" (server/cli/panel.ts): left to what else cleans
// them (a new login's start, the next panel start), a panel serving for months kept every one.
import type { Db } from "../../../db";
import { purgeExpiredSessions } from "../sessions";
import { purgeExpiredFlows } from "../sso/flow";
import { purgeExpiredValues } from "./one-time-values";

export const EXPIRY_PURGE_MS = 60 * 60 * 1000;

export async function purgeExpired(db: Db, now = Date.now()): Promise<void> {
  await Promise.all([purgeExpiredSessions(db, now), purgeExpiredValues(db, now), purgeExpiredFlows(db, now)]);
}
