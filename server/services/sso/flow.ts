// A login through a provider: the authorization request (PKCE S256, a random state and nonce kept
// server-side and used once), then the callback: the flow is taken out by its state (a second use
// finds nothing), the code exchanged and the ID token checked by openid-client (signature against
// the provider's keys, iss, aud, exp, nonce), and the provider's subject resolved to an account:
// the one it is linked to; the account linking it from the account page; an existing account with
// the same verified email only after its password is given (./linking); or a new account when the
// provider allows registration and its verified email is trusted. Nothing else logs anyone in.
import { and, count, eq, lt } from "drizzle-orm";
import * as oidc from "openid-client";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validateEmail } from "../../../core/validation/account";
import { providerRow, rulesOf } from "./providers";
import { applyRules } from "./grants";
import { clientFor, forgetClient, type SsoSources } from "./client";
import { identityOf, type ProviderIdentity } from "./identity";
import { createSsoAccount } from "./accounts";
import { heldUnconfirmed } from "../users/unconfirmed-hold";
import { recordEvent } from "../activity/record";
import { userActor } from "../activity/actor";
import { FRESH_SIGN_IN_MS, randomToken } from "../sessions";
import { countAnonymousStart, storeWithinCap } from "../auth/anonymous-starts";

/** A login must come back from the provider within this. */
export const FLOW_TTL_MS = 10 * 60_000;

export type SsoOutcome =
  /** `signedInAt`: when the person signed in at the provider (its auth_time when it says, else now), for sessions' recordProviderSignIn. */
  | { kind: "login"; userId: number; providerId: string; multiFactor: boolean; satisfiesTwoFactor: boolean; signedInAt: number; next: string }
  | { kind: "linked"; userId: number; next: string }
  /** `token` is also the browser's key for the password step (./linking), as a login's state is. */
  | { kind: "confirm"; token: string; email: string; providerName: string };

/** A path on this panel to return to; anything else (another site, a scheme, a backslash trick) is "/". */
export function safeNext(next: unknown): string {
  if (typeof next !== "string" || !/^\/(?![/\\])[\x21-\x7e]*$/.test(next) || next.length > 500) return "/";
  return next;
}

/**
 * Starts a login: the provider's address to send the browser to, and the key the route keeps in
 * that browser (a cookie). Only the browser that began a login finishes it: a callback address
 * taken from the attacker's own login and handed to someone else (a link, an image) would log them
 * in as the attacker, or link the attacker's provider account to theirs through the password step.
 */
/** Login flows waiting for their provider's answer, from every address together (anonymous-starts bounds each one). */
export const MAX_LIVE_FLOWS = 10_000;

/** `address` is the caller's: anyone may begin a login, and each flow is a row for ten minutes (auth/anonymous-starts). */
/**
 * `fresh` asks an OpenID Connect provider to have the person sign in again (prompt=login, and an
 * auth_time no older than sessions' FRESH_SIGN_IN_MS): the Account page's sign-in again, which an
 * account without a password gives before changing how it signs in (auth/credentials requireHolderProof).
 * The callback believes the auth_time it gets, not this request, which the browser could change.
 */
export async function beginLogin(db: Db, sources: SsoSources, providerId: string, redirectUri: string, next: unknown, address: string, linkUserId: number | null = null, fresh = false): Promise<{ url: URL; browserKey: string }> {
  const provider = await providerRow(db, providerId);
  if (!provider.enabled) throw new KilnError("ErrNotFound", { id: providerId });
  await countAnonymousStart(db, "sso", address);
  const config = await clientFor(provider, sources).catch(() => {
    throw new KilnError("ErrSsoUnavailable", { provider: provider.name });
  });
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const parameters: Record<string, string> = { redirect_uri: redirectUri, scope: provider.scopes, code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier), code_challenge_method: "S256", state };
  if (provider.type === "oidc") parameters.nonce = nonce;
  if (provider.type === "oidc" && fresh) Object.assign(parameters, { prompt: "login", max_age: String(FRESH_SIGN_IN_MS / 1000) });
  let url: URL;
  try {
    url = oidc.buildAuthorizationUrl(config, parameters);
  } catch {
    // The endpoint is the discovery document's: missing, not a URL, or not http(s) there is the
    // provider's fault, not a flow to keep. Its document is fetched anew next time (it may be fixed).
    forgetClient(provider.id);
    throw new KilnError("ErrSsoUnavailable", { provider: provider.name });
  }
  const now = Date.now();
  await purgeExpiredFlows(db, now);
  await storeWithinCap(
    db,
    "sso",
    MAX_LIVE_FLOWS,
    async (tx) => (await tx.select({ n: count() }).from(schema.ssoFlows).get())?.n ?? 0,
    async (tx) => void (await tx.insert(schema.ssoFlows).values({ state, providerId, nonce, codeVerifier, next: safeNext(next), linkUserId, createdAt: now }).run()),
  );
  // The state is already a secret of this login's alone: it is the browser's key too.
  return { url, browserKey: state };
}

/** Drops the flows older than FLOW_TTL_MS, which no callback or password step takes any more (also the hourly expiry purge's, cluster/expiry-purge). */
export async function purgeExpiredFlows(db: Db, now = Date.now()): Promise<void> {
  await db.delete(schema.ssoFlows).where(lt(schema.ssoFlows.createdAt, now - FLOW_TTL_MS)).run();
}

/** `browserKey` is what the browser calling back holds from beginLogin (undefined: nothing). */
export async function finishLogin(db: Db, sources: SsoSources, providerId: string, callbackUrl: URL, browserKey: string | undefined): Promise<SsoOutcome> {
  const state = callbackUrl.searchParams.get("state");
  if (!state || browserKey !== state) throw new KilnError("ErrSsoFailed", { reason: "state" });
  // Taken out whatever happens next: a state is good for one callback.
  const flow = state ? await db.delete(schema.ssoFlows).where(and(eq(schema.ssoFlows.state, state), eq(schema.ssoFlows.providerId, providerId))).returning().get() : undefined;
  if (!flow || flow.pendingSubject !== null || flow.createdAt < Date.now() - FLOW_TTL_MS) throw new KilnError("ErrSsoFailed", { reason: "state" });
  const provider = await providerRow(db, providerId);
  if (!provider.enabled) throw new KilnError("ErrNotFound", { id: providerId });
  const config = await clientFor(provider, sources, true).catch(() => {
    throw new KilnError("ErrSsoUnavailable", { provider: provider.name });
  });
  if (callbackUrl.searchParams.has("error")) throw new KilnError("ErrSsoFailed", { reason: "refused" });
  let identity: ProviderIdentity;
  let refreshToken: string | null = null;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, { pkceCodeVerifier: flow.codeVerifier, expectedState: state!, ...(provider.type === "oidc" ? { expectedNonce: flow.nonce } : {}), idTokenExpected: provider.type === "oidc" });
    identity = await identityOf(provider, config, tokens, sources);
    // Kept only where the provider's claims are refreshed between logins (./refresh).
    if (provider.refreshMinutes > 0 && typeof tokens.refresh_token === "string") refreshToken = tokens.refresh_token;
  } catch (error) {
    if (error instanceof KilnError) throw error;
    // The library's reason (a bad signature, a wrong audience, an expired token) is kept for the log only.
    throw new KilnError("ErrSsoFailed", { reason: "token" }, `sign-in through ${provider.name} refused: ${(error as Error).message}`);
  }
  const linked = await db.select().from(schema.userIdentities).where(and(eq(schema.userIdentities.providerId, providerId), eq(schema.userIdentities.subject, identity.subject))).get();
  const trustedEmail = provider.trustEmail && identity.emailVerified ? addressOf(identity.email) : null;

  // What the provider's claims grant follows every login of an account it is linked to.
  const grant = async (userId: number) => {
    await applyRules(db, providerId, rulesOf(provider), userId, identity.claims);
    await db.update(schema.userIdentities).set({ refreshToken, refreshedAt: Date.now() }).where(and(eq(schema.userIdentities.providerId, providerId), eq(schema.userIdentities.subject, identity.subject), eq(schema.userIdentities.userId, userId))).run();
  };
  if (flow.linkUserId !== null) {
    // The account may have gone while its owner was at the provider (the flow outlives it by up to ten minutes).
    const account = await db.select({ status: schema.users.status }).from(schema.users).where(eq(schema.users.id, flow.linkUserId)).get();
    if (account?.status !== "active") throw new KilnError("ErrSsoFailed", { reason: "account" });
    if (linked && linked.userId !== flow.linkUserId) throw new KilnError("ErrSsoIdentityTaken", { provider: provider.name });
    if (!linked) await linkIdentity(db, providerId, identity, flow.linkUserId);
    await grant(flow.linkUserId);
    return { kind: "linked", userId: flow.linkUserId, next: flow.next };
  }
  if (linked) {
    await db.update(schema.userIdentities).set({ lastLoginAt: Date.now(), email: identity.email }).where(and(eq(schema.userIdentities.providerId, providerId), eq(schema.userIdentities.subject, identity.subject))).run();
    await grant(linked.userId);
    return { kind: "login", userId: linked.userId, providerId, multiFactor: identity.multiFactor, satisfiesTwoFactor: provider.satisfiesTwoFactor, signedInAt: signedInAt(identity), next: flow.next };
  }
  // An account with this email exists: it is linked only once its owner proves it is theirs, and
  // only when the address is confirmed its own (users/email-confirmation): an unconfirmed holder
  // may be someone who typed another's address, and is offered nobody's identity.
  const owner = trustedEmail ? await db.select({ id: schema.users.id, email: schema.users.email, status: schema.users.status, emailConfirmed: schema.users.emailConfirmed }).from(schema.users).where(eq(schema.users.email, trustedEmail)).get() : undefined;
  // The provider proves the caller holds the address, as a confirmation link would: where it makes
  // accounts, theirs is made with the address, taken from the account that only typed it or the
  // invitation whose link expired (createSsoAccount, users/unconfirmed-hold), or a squatter's registration would keep the
  // address's owner out for as long as it lived. Where it makes none, they are told who holds it.
  const squatted = owner !== undefined && await heldUnconfirmed(db, owner.email);
  if (squatted && !provider.allowRegistration) throw new KilnError("ErrEmailUnconfirmed", { email: owner.email });
  if (owner && owner.status === "active" && !squatted) {
    const token = randomToken();
    await db.insert(schema.ssoFlows).values({ state: token, providerId, nonce: "", codeVerifier: "", next: flow.next, pendingSubject: identity.subject, pendingUserId: owner.id, createdAt: Date.now() }).run();
    return { kind: "confirm", token, email: owner.email, providerName: provider.name };
  }
  if (!provider.allowRegistration) throw new KilnError("ErrSsoNoAccount", { provider: provider.name });
  if (!trustedEmail || (owner && !squatted)) throw new KilnError("ErrSsoEmailUnverified", { provider: provider.name });
  const userId = await createSsoAccount(db, { email: trustedEmail, username: identity.username, provider: provider.id });
  await linkIdentity(db, providerId, identity, userId);
  await grant(userId);
  return { kind: "login", userId, providerId, multiFactor: identity.multiFactor, satisfiesTwoFactor: provider.satisfiesTwoFactor, signedInAt: signedInAt(identity), next: flow.next };
}

/**
 * When the person signed in at the provider: its auth_time when it gives one (a login the provider
 * let through on an older session of its own proves no more than that session), never later than now.
 */
function signedInAt(identity: ProviderIdentity): number {
  return Math.min(identity.authTime ?? Date.now(), Date.now());
}

/**
 * The claim as an account's email, by the rule every other door applies (core/validation/account),
 * or null: a provider's "verified" text may be two addresses in one, spaces, or no address at all,
 * and an account must never be made with, nor found by, what the panel would refuse from a form.
 */
function addressOf(claim: string | null): string | null {
  if (claim === null) return null;
  try {
    return validateEmail(claim);
  } catch {
    return null;
  }
}

export async function linkIdentity(db: Db, providerId: string, identity: Pick<ProviderIdentity, "subject" | "email">, userId: number): Promise<void> {
  await db.insert(schema.userIdentities).values({ providerId, subject: identity.subject, userId, email: identity.email, createdAt: Date.now(), lastLoginAt: Date.now() }).run();
  const user = (await db.select({ id: schema.users.id, username: schema.users.username }).from(schema.users).where(eq(schema.users.id, userId)).get())!;
  await recordEvent(db, "user.identity.linked", { actor: userActor(user), subject: userId, properties: { provider: providerId, email: identity.email } });
}
