// Sessions, pending two-factor logins and OAuth2 access tokens: random tokens handed to the
// client, stored only as SHA-256 hashes, each with a kind and an expiry.
import { putValue, readValue } from "../cluster/one-time-values";
import { and, desc, eq, gt, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";
import { KeptLookups } from "../../../db/kept";
import { KilnError } from "../../../core/errors";
import { scopesOf } from "../users/queries";

export const SESSION_TTL_MS = 60 * 60 * 1000; // the UI renews every 10 minutes
export const PENDING_TTL_MS = 5 * 60 * 1000;
export const OAUTH2_TOKEN_TTL_MS = 60 * 60 * 1000;

export type TokenKind = "session" | "pending" | "oauth2";

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  scopes: string[];
  /** set when the caller is an OAuth2 client rather than a login */
  clientId?: string;
  /** set when that client is limited to one server */
  serverId?: string;
}

export function hashToken(token: string): string {
  // Every authenticated request hashes its token: the one-shot form makes no hasher object
  // (0.19 against 0.42-0.70 us); the same hex of the token's UTF-8 bytes (hash-token.test).
  return Bun.SHA256.hash(token, "hex");
}

export function randomToken(): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
}

const TTL: Record<TokenKind, number> = { session: SESSION_TTL_MS, pending: PENDING_TTL_MS, oauth2: OAUTH2_TOKEN_TTL_MS };

/**
 * The most live tokens one account keeps of one kind (and, for OAuth2, of one client): making
 * one more ends the oldest. A token is made only for good credentials, but those can be spent in
 * a loop (a client's script minting a token per call), and every token is a row until it lapses.
 * More browsers or scripts than anyone signs in with at once.
 */
export const LIVE_TOKENS_PER_KIND = 50;

/**
 * What a login proved, checked again in the transaction that makes its session: the password hash
 * it matched is still the account's, the pending two-factor login it finishes is still there (taken
 * with it). A login checked before a password change and written after it kept a session the
 * change's sign-out never saw.
 */
export interface LoginProof {
  checkedHash?: string;
  pendingToken?: string;
  /**
   * The secret hash an OAuth2 client's secret matched: the client is still there, the account's,
   * with that secret. A deletion landing while the secret was checked (the owner revoking a leaked
   * secret) broke the token's foreign key, a 500; a secret replaced meanwhile must not mint either.
   */
  clientSecretHash?: string;
}

export async function createSession(db: Db, userId: number, options: { kind?: TokenKind; clientId?: string; now?: number; proof?: LoginProof } = {}): Promise<string> {
  const kind = options.kind ?? "session";
  const now = options.now ?? Date.now();
  const token = randomToken();
  const { proof } = options;
  const insert = () =>
    db.insert(schema.sessions)
      .values({ tokenHash: hashToken(token), userId, kind, clientId: options.clientId ?? null, createdAt: new Date(now), expiresAt: new Date(now + TTL[kind]) })
      .run();
  if (!proof) {
    await insert();
    await endOldest(db, userId, kind, options.clientId ?? null, token);
    return token;
  }
  await db.transaction(async () => {
    if (proof.checkedHash !== undefined) {
      const row = await db.select({ passwordHash: schema.users.passwordHash, status: schema.users.status }).from(schema.users).where(eq(schema.users.id, userId)).get();
      if (row?.status !== "active" || row.passwordHash !== proof.checkedHash) throw new KilnError("ErrInvalidCredentials");
    }
    if (proof.clientSecretHash !== undefined) {
      const client = options.clientId === undefined ? undefined : await db.select({ userId: schema.oauth2Clients.userId, secretHash: schema.oauth2Clients.secretHash }).from(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, options.clientId)).get();
      if (client?.userId !== userId || client.secretHash !== proof.clientSecretHash) throw new KilnError("ErrInvalidCredentials");
    }
    if (proof.pendingToken !== undefined) {
      const taken = await db.delete(schema.sessions).where(and(eq(schema.sessions.tokenHash, hashToken(proof.pendingToken)), eq(schema.sessions.kind, "pending"), eq(schema.sessions.userId, userId))).returning({ userId: schema.sessions.userId }).all();
      if (taken.length === 0) throw new KilnError("ErrInvalidTokenState");
    }
    await insert();
  });
  await endOldest(db, userId, kind, options.clientId ?? null, token);
  // The pending login's provider sign-in is the session's: its two-factor step came after it.
  if (proof.pendingToken !== undefined) await carryProviderSignIn(db, hashToken(proof.pendingToken), hashToken(token));
  return token;
}

/**
 * How long a sign-in through a provider proves its session's holder: an account without a
 * password has nothing else to give before a change a session alone must not make
 * (auth/credentials requireHolderProof). errors.ErrProviderSignInRequired names these 5 minutes.
 */
export const FRESH_SIGN_IN_MS = 5 * 60_000;
const PROVIDER_SIGN_IN = "provider-sign-in";

/**
 * Records that the login behind `token` (a session, or a pending one awaiting its code) was made by
 * a sign-in through `providerId` at `at` (ms), kept while fresh: renewals carry it (rotateSession),
 * a stolen cookie of an older login never had it, and one older than FRESH_SIGN_IN_MS is not kept.
 */
export async function recordProviderSignIn(db: Db, token: string, providerId: string, at: number, now = Date.now()): Promise<void> {
  if (at + FRESH_SIGN_IN_MS <= now) return;
  await putValue(db, PROVIDER_SIGN_IN, hashToken(token), JSON.stringify({ providerId, at }), at + FRESH_SIGN_IN_MS);
}

/** The provider sign-in that made the login behind `token`, while fresh; null otherwise. */
export async function freshProviderSignIn(db: Db, token: string, now = Date.now()): Promise<{ providerId: string; at: number } | null> {
  return await providerSignInByHash(db, hashToken(token), now);
}

async function providerSignInByHash(db: Db, tokenHash: string, now = Date.now()): Promise<{ providerId: string; at: number } | null> {
  const value = await readValue(db, PROVIDER_SIGN_IN, tokenHash, now);
  if (value === undefined) return null;
  const { providerId, at } = JSON.parse(value) as { providerId: string; at: number };
  return at + FRESH_SIGN_IN_MS > now ? { providerId, at } : null;
}

async function carryProviderSignIn(db: Db, fromHash: string, toHash: string): Promise<void> {
  const signIn = await providerSignInByHash(db, fromHash);
  if (signIn) await putValue(db, PROVIDER_SIGN_IN, toHash, JSON.stringify(signIn), signIn.at + FRESH_SIGN_IN_MS);
}

/**
 * Ends the account's tokens of `kind` (and `clientId`) past the newest LIVE_TOKENS_PER_KIND, never
 * `made` (the one just handed out). Times are kept to the second: of tokens made in the same
 * second, which one goes is arbitrary.
 */
async function endOldest(db: Db, userId: number, kind: TokenKind, clientId: string | null, made: string): Promise<void> {
  const same = and(eq(schema.sessions.userId, userId), eq(schema.sessions.kind, kind), clientId === null ? isNull(schema.sessions.clientId) : eq(schema.sessions.clientId, clientId), ne(schema.sessions.tokenHash, hashToken(made)));
  const beyond = await db.select({ tokenHash: schema.sessions.tokenHash }).from(schema.sessions).where(same).orderBy(desc(schema.sessions.createdAt)).limit(1000).offset(LIVE_TOKENS_PER_KIND - 1).all();
  if (beyond.length > 0) await db.delete(schema.sessions).where(inArray(schema.sessions.tokenHash, beyond.map((row) => row.tokenHash))).run();
}

/** The user behind a session or OAuth2 token; pending two-factor logins are not sessions. */
export async function findSessionUser(db: Db, token: string, now = Date.now()): Promise<SessionUser | null> {
  return await findSessionUserByHash(db, hashToken(token), now);
}

const sessionRead = (db: Db) =>
  db
    .select({
      id: schema.users.id,
      username: schema.users.username,
      email: schema.users.email,
      status: schema.users.status,
      kind: schema.sessions.kind,
      clientId: schema.sessions.clientId,
      serverId: schema.oauth2Clients.serverId,
      expiresAt: schema.sessions.expiresAt,
    })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .leftJoin(schema.oauth2Clients, eq(schema.oauth2Clients.clientId, schema.sessions.clientId))
    .where(eq(schema.sessions.tokenHash, sql.placeholder("tokenHash")))
    .prepare();

/**
 * Every request asks for its session: kept in memory while nothing was written (db/kept), so a
 * logout, a removed account or lowered scopes hold from the write on; and at most this many.
 */
const keptSessions = new KeptLookups<string, { user: SessionUser; expiresAt: number } | null>(10_000);

/** The same, from the stored hash (what the live proxy keeps to re-check an open socket). */
export async function findSessionUserByHash(db: Db, tokenHash: string, now = Date.now()): Promise<SessionUser | null> {
  const found = await keptSessions.get(db, tokenHash, () => readSessionUser(db, tokenHash));
  if (!found || found.expiresAt <= now) return null;
  // A copy: a caller's change to its user never reaches another request's.
  return { ...found.user, scopes: [...found.user.scopes] };
}

/**
 * The account as a session of it sees: with every scope it holds, or as an OAuth2 client's token
 * does. A client bound to one server carries none of the account's panel-wide scopes, only its
 * rights there.
 */
export async function sessionUserOf(db: Db, account: { id: number; username: string; email: string }, client: { clientId: string; serverId: string | null } | null): Promise<SessionUser> {
  const user: SessionUser = { id: account.id, username: account.username, email: account.email, scopes: client?.serverId ? [] : await scopesOf(db, account.id) };
  if (client) user.clientId = client.clientId;
  if (client?.serverId) user.serverId = client.serverId;
  return user;
}

async function readSessionUser(db: Db, tokenHash: string): Promise<{ user: SessionUser; expiresAt: number } | null> {
  const row = await prepared(db, sessionRead).get({ tokenHash });
  if (!row || row.kind === "pending" || row.status !== "active") return null;
  const user = await sessionUserOf(db, row, row.clientId ? { clientId: row.clientId, serverId: row.serverId } : null);
  // Stored in whole seconds (drizzle's "timestamp" mode): the session is over from that second on.
  return { user, expiresAt: row.expiresAt.getTime() };
}

/** The user waiting for a two-factor code behind a pending-login token. */
export async function findPendingUserId(db: Db, token: string, now = Date.now()): Promise<number | null> {
  const row = await db
    .select({ userId: schema.sessions.userId, kind: schema.sessions.kind })
    .from(schema.sessions)
    .where(and(eq(schema.sessions.tokenHash, hashToken(token)), gt(schema.sessions.expiresAt, new Date(now))))
    .get();
  return row?.kind === "pending" ? row.userId : null;
}

export async function deleteSession(db: Db, token: string): Promise<void> {
  await db.delete(schema.sessions).where(eq(schema.sessions.tokenHash, hashToken(token))).run();
}

/**
 * Ends every login of a user (password change, account removal); OAuth2 tokens too unless kept.
 * One statement in a transaction of its own (serializable, as every transaction here): a renewal
 * racing it (rotateSession) either ends first, and its new session is deleted here, or finds its
 * old session gone and makes none. Read first and deleted row by row, a renewal on another panel
 * slipped a new session in between.
 */
export async function deleteUserSessions(db: Db, userId: number, exceptToken?: string): Promise<void> {
  const ofUser = eq(schema.sessions.userId, userId);
  await db.transaction(async () => {
    await db.delete(schema.sessions).where(exceptToken ? and(ofUser, ne(schema.sessions.tokenHash, hashToken(exceptToken))) : ofUser).run();
  });
}

/**
 * Reauth: a fresh token replaces the old one, so a stolen old token stops working. The old one is
 * taken inside the transaction that makes the new one, and only a token that was still there is
 * replaced: checked outside it, one token renewed twice at once became two sessions, and a renewal
 * racing a password change kept a session the change never saw.
 */
export async function rotateSession(db: Db, token: string, now = Date.now()): Promise<string | null> {
  const user = await findSessionUser(db, token, now);
  if (!user || user.clientId) return null;
  const fresh = await db.transaction(async () => {
    const taken = await db.delete(schema.sessions).where(and(eq(schema.sessions.tokenHash, hashToken(token)), eq(schema.sessions.kind, "session"), gt(schema.sessions.expiresAt, new Date(now)))).returning({ userId: schema.sessions.userId }).all();
    if (taken[0]?.userId !== user.id) return null;
    const made = await createSession(db, user.id, { now });
    // Sockets held by another panel process learn the move here (their listener is not told).
    await putValue(db, ROTATION, hashToken(token), hashToken(made), now + ROTATION_KEPT_MS);
    return made;
  });
  if (fresh === null) return null;
  await carryProviderSignIn(db, hashToken(token), hashToken(fresh));
  for (const listener of rotationListeners) listener(hashToken(token), hashToken(fresh));
  return fresh;
}

const ROTATION = "session-rotation";
/** Longer than any socket waits between two checks of its rights. */
const ROTATION_KEPT_MS = 60_000;

/** The session a renewal replaced `tokenHash` with, for a minute after it. */
export async function rotatedTo(db: Db, tokenHash: string): Promise<string | undefined> {
  return await readValue(db, ROTATION, tokenHash);
}

type RotationListener = (oldHash: string, newHash: string) => void;
const rotationListeners = new Set<RotationListener>();

/**
 * Told when a renewal replaces a session's token: the live proxy moves its open sockets to the
 * new one, so a renewal every ten minutes does not look like a logout to them.
 */
export function onSessionRotated(listener: RotationListener): () => void {
  rotationListeners.add(listener);
  return () => rotationListeners.delete(listener);
}

export async function purgeExpiredSessions(db: Db, now = Date.now()): Promise<void> {
  await db.delete(schema.sessions).where(lt(schema.sessions.expiresAt, new Date(now))).run();
}
