// Claims read between logins: for a provider set to refresh every N minutes, each linked account's
// refresh token is exchanged when its claims are that old, and the provider's rules applied to what
// comes back, exactly as at a login. So a group removed at the provider takes its rights away within
// N minutes, not at the next login. A provider that refuses the token (invalid_grant: the account
// was disabled, its session or consent revoked) takes back what its revocable rules granted and the
// token is dropped; a provider that does not answer is asked again at the next pass.
import { and, eq } from "drizzle-orm";
import * as oidc from "openid-client";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { rulesOf, type ProviderRow } from "./providers";
import { applyRules, holdsRevocable, withdrawProvider } from "./grants";
import { clientFor, type SsoSources } from "./client";
import { identityOf } from "./identity";

export const REFRESH_PASS_MS = 60_000;

type Identity = typeof schema.userIdentities.$inferSelect;

/** One pass: every identity whose claims are due. Answers how many were refreshed or withdrawn. */
export async function refreshDueClaims(db: Db, sources: SsoSources, now = Date.now()): Promise<number> {
  const rows = (await db
    .select({ identity: schema.userIdentities, provider: schema.authProviders })
    .from(schema.userIdentities)
    .innerJoin(schema.authProviders, eq(schema.authProviders.id, schema.userIdentities.providerId))
    .where(eq(schema.authProviders.enabled, true))
    .all())
    .filter(({ identity, provider }) => provider.refreshMinutes > 0 && (identity.refreshedAt ?? 0) + provider.refreshMinutes * 60_000 <= now);
  let done = 0;
  // Providers that did not answer in this pass: each request waits up to its 10 s, and a provider
  // asked again for each of its hundreds of identities held every other provider's refresh (the
  // one that takes a group's rights back) for hours. Their identities wait for the next pass.
  const unanswered = new Set<string>();
  for (const { identity, provider } of rows) {
    if (identity.refreshToken !== null && unanswered.has(provider.id)) continue;
    const outcome = identity.refreshToken !== null ? await refreshOne(db, sources, provider, identity, now) : await withdrawUnrefreshable(db, provider, identity);
    if (outcome === "unanswered") unanswered.add(provider.id);
    else if (outcome) done++;
  }
  return done;
}

/**
 * An identity with no refresh token (its login brought none: offline access declined, or a
 * provider that issues none, or one refused since) cannot have its claims read again: what the
 * provider's revocable rules granted is taken back once they are due, as when the provider refuses
 * the token, rather than kept for good. The next login through the provider grants it anew.
 */
async function withdrawUnrefreshable(db: Db, provider: ProviderRow, identity: Identity): Promise<boolean> {
  // Only when there is something to take back: a pass every minute would otherwise write (and end
  // every kept read) for each account whose remaining grants are its rules' lasting ones.
  if (!(await holdsRevocable(db, provider.id, rulesOf(provider), identity.userId))) return false;
  await withdrawProvider(db, provider.id, rulesOf(provider), identity.userId);
  return true;
}

/** Whether the identity was refreshed or withdrawn; "unanswered" when the provider did not answer at all. */
async function refreshOne(db: Db, sources: SsoSources, provider: ProviderRow, identity: Identity, now: number): Promise<boolean | "unanswered"> {
  const config = await clientFor(provider, sources).catch(() => null);
  if (!config) return "unanswered";
  const where = and(eq(schema.userIdentities.providerId, provider.id), eq(schema.userIdentities.subject, identity.subject));
  let tokens: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>;
  try {
    tokens = await oidc.refreshTokenGrant(config, identity.refreshToken!);
  } catch (error) {
    // An OAuth error body is an answer (about this token); anything else (a timeout, a refused
    // connection, an answer past the cap or not the protocol's) is the provider not answering.
    if (!(error instanceof oidc.ResponseBodyError)) return "unanswered";
    if (error.error !== "invalid_grant") return false;
    await withdrawProvider(db, provider.id, rulesOf(provider), identity.userId);
    await db.update(schema.userIdentities).set({ refreshToken: null, refreshedAt: now }).where(where).run();
    return true;
  }
  const claims = await freshClaims(provider, config, tokens, sources, identity.subject).catch(() => null);
  if (!claims) return false;
  await applyRules(db, provider.id, rulesOf(provider), identity.userId, claims);
  // A provider that rotates refresh tokens sends a new one; else the old one stays good.
  await db.update(schema.userIdentities).set({ refreshToken: tokens.refresh_token ?? identity.refreshToken, refreshedAt: now }).where(where).run();
  return true;
}

async function freshClaims(provider: ProviderRow, config: oidc.Configuration, tokens: Awaited<ReturnType<typeof oidc.refreshTokenGrant>>, sources: SsoSources, subject: string): Promise<Record<string, unknown> | null> {
  // An OIDC refresh may leave the ID token out: userinfo then (the library checks its sub).
  if (provider.type === "oidc" && !tokens.id_token) return { ...(await oidc.fetchUserInfo(config, tokens.access_token, subject)) };
  const who = await identityOf(provider, config, tokens, sources);
  // Another subject's claims are never applied to this account.
  return who.subject === subject ? who.claims : null;
}

/** Refreshes due claims every `everyMs` (a pass at a time); answers a function that stops it. */
export function startClaimRefresh(db: Db, sources: SsoSources, everyMs = REFRESH_PASS_MS): () => void {
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    refreshDueClaims(db, sources)
      .catch((error: Error) => console.error(`kiln: refreshing sign-in claims failed: ${error.message}`))
      .finally(() => (running = false));
  }, everyMs);
  return () => clearInterval(timer);
}
