// Passkeys (WebAuthn): register one on the account page, sign in with it from the login page.
// Credentials are discoverable, so signing in needs no email first.
import { MAX_PASSKEYS_PER_ACCOUNT } from "../../../core/validation/account";
import { recordEvent } from "../activity/record";
import { and, count, eq } from "drizzle-orm";
import type { AuthenticationResponseJSON, RegistrationResponseJSON } from "@simplewebauthn/server";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { countAnonymousStart, storeWithinCap } from "../auth/anonymous-starts";
import { MAX_WAITING_CHALLENGES, type ChallengeStore } from "./challenges";
import { requirePassword } from "../auth/credentials";

/**
 * @simplewebauthn/server (and its ASN.1 and CBOR libraries, some 330 KB of code) loads with the
 * first passkey request, not with the panel: an idle panel does not hold it.
 */
const webauthn = () => import("@simplewebauthn/server");

/** Who the browser must believe it is talking to: the panel's own origin. */
export interface RelyingParty {
  name: string;
  id: string;
  origin: string;
}

/** WebAuthn's own bound on a credential id; an authenticator claiming a longer one is not one. */
const MAX_CREDENTIAL_ID_BYTES = 1023;
/** A COSE public key of any algorithm offered (EdDSA, ES256, RS256 up to 8192 bits) is well under this. */
const MAX_PUBLIC_KEY_BYTES = 2048;
/** The transports WebAuthn names; the browser's list is the caller's to write, so only these are kept. */
const KNOWN_TRANSPORTS = new Set(["ble", "cable", "hybrid", "internal", "nfc", "smart-card", "usb"]);

async function assertRoomForPasskey(db: Db, userId: number): Promise<void> {
  const held = (await db.select({ n: count() }).from(schema.passkeys).where(eq(schema.passkeys.userId, userId)).get())!.n;
  if (held >= MAX_PASSKEYS_PER_ACCOUNT) throw new KilnError("ErrPasskeyLimit", { max: MAX_PASSKEYS_PER_ACCOUNT });
}

export interface PasskeyView {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export async function listPasskeys(db: Db, userId: number): Promise<PasskeyView[]> {
  return (await db
    .select({ id: schema.passkeys.id, name: schema.passkeys.name, createdAt: schema.passkeys.createdAt, lastUsedAt: schema.passkeys.lastUsedAt })
    .from(schema.passkeys)
    .where(eq(schema.passkeys.userId, userId))
    .all())
    .map((p) => ({ ...p, createdAt: p.createdAt.getTime(), lastUsedAt: p.lastUsedAt?.getTime() ?? null }));
}

export async function deletePasskey(db: Db, userId: number, id: string): Promise<void> {
  const deleted = await db.delete(schema.passkeys).where(and(eq(schema.passkeys.userId, userId), eq(schema.passkeys.id, id))).returning({ id: schema.passkeys.id, name: schema.passkeys.name }).all();
  if (deleted.length === 0) throw new KilnError("ErrNotFound");
  await recordEvent(db, "user.passkey.removed", { subject: userId, properties: { name: deleted[0]!.name } });
}

/**
 * The options a browser makes a new passkey with, for the holder who gives the account's current
 * password again: a passkey signs in without the second factor and outlives a password change,
 * so a session alone (a stolen cookie) must not add one. Only a challenge handed out here is
 * accepted by registerPasskey.
 */
export async function registrationOptions(db: Db, challenges: ChallengeStore, rp: RelyingParty, user: { id: number; email: string; username: string }, password: unknown) {
  await requirePassword(db, user.id, password);
  await assertRoomForPasskey(db, user.id);
  const { generateRegistrationOptions } = await webauthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: user.email,
    userDisplayName: user.username,
    userID: new TextEncoder().encode(`kiln-user-${user.id}`),
    attestationType: "none",
    excludeCredentials: (await listPasskeys(db, user.id)).map((p) => ({ id: p.id })),
    authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
  });
  await challenges.put(`register:${user.id}`, options.challenge);
  return options;
}

export async function registerPasskey(db: Db, challenges: ChallengeStore, rp: RelyingParty, userId: number, name: unknown, response: unknown): Promise<PasskeyView> {
  const expectedChallenge = await challenges.take(`register:${userId}`);
  if (!expectedChallenge) throw new KilnError("ErrInvalidTokenState");
  let verified;
  try {
    const { verifyRegistrationResponse } = await webauthn();
    verified = await verifyRegistrationResponse({ response: response as RegistrationResponseJSON, expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: false });
  } catch {
    throw new KilnError("ErrTokenInvalid");
  }
  if (!verified.verified || !verified.registrationInfo) throw new KilnError("ErrTokenInvalid");
  const { credential } = verified.registrationInfo;
  // What the authenticator says is the caller's to write (a script, not a browser): its id and
  // key are bounded as WebAuthn bounds them, its transports kept only when WebAuthn names them.
  if (Buffer.from(credential.id, "base64url").length > MAX_CREDENTIAL_ID_BYTES || credential.publicKey.length > MAX_PUBLIC_KEY_BYTES) throw new KilnError("ErrTokenInvalid");
  const transports = [...new Set((Array.isArray(credential.transports) ? credential.transports : []).filter((t) => KNOWN_TRANSPORTS.has(t)))];
  // Cut to whole characters: a cut inside a surrogate pair stored half an emoji.
  const label = typeof name === "string" && name.trim() !== "" ? Array.from(name.trim()).slice(0, 60).join("") : "Passkey";
  const now = new Date();
  // The count and the insert are one transaction (serializable on both engines): one challenge
  // waits per account, but a second one asked for while the first registration was being verified
  // passed the count beside it, and the account held one passkey more than its bound.
  // A credential id is one passkey's, whoever holds it: an id already registered (another
  // account's, which is no secret, claimed by an attacker's authenticator, or this account's own
  // again) is refused, not a database fault.
  const added = await db.transaction(async (tx) => {
    await assertRoomForPasskey(tx, userId);
    return await tx.insert(schema.passkeys)
      .values({ id: credential.id, userId, publicKey: Buffer.from(credential.publicKey), counter: credential.counter, transports: transports.join(","), name: label, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: schema.passkeys.id })
      .all();
  });
  if (added.length === 0) throw new KilnError("ErrTokenInvalid");
  await recordEvent(db, "user.passkey.added", { subject: userId, properties: { name: label } });
  return { id: credential.id, name: label, createdAt: now.getTime(), lastUsedAt: null };
}

/**
 * Options for signing in; the challenge is filed under a key the caller keeps in a cookie. Anyone
 * may ask, and each challenge is a row for five minutes: bounded per `address` and in all
 * (auth/anonymous-starts).
 */
export async function authenticationOptions(db: Db, challenges: ChallengeStore, rp: RelyingParty, key: string, address: string) {
  await countAnonymousStart(db, "passkey", address);
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: "preferred", allowCredentials: [] });
  // The store's queries join the transaction (it is the async context's).
  await storeWithinCap(db, "passkey", MAX_WAITING_CHALLENGES, () => challenges.waiting(), () => challenges.put(`login:${key}`, options.challenge));
  return options;
}

/** The account a signed challenge proves; ErrInvalidCredentials for anything else. */
export async function verifyPasskeyLogin(db: Db, challenges: ChallengeStore, rp: RelyingParty, key: string, response: unknown): Promise<number> {
  const expectedChallenge = await challenges.take(`login:${key}`);
  const answer = response as AuthenticationResponseJSON | undefined;
  if (!expectedChallenge || typeof answer?.id !== "string") throw new KilnError("ErrInvalidCredentials");
  const stored = await db.select().from(schema.passkeys).where(eq(schema.passkeys.id, answer.id)).get();
  if (!stored) throw new KilnError("ErrInvalidCredentials");
  let result;
  try {
    const { verifyAuthenticationResponse } = await webauthn();
    result = await verifyAuthenticationResponse({
      response: answer,
      expectedChallenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.id,
      credential: { id: stored.id, publicKey: new Uint8Array(stored.publicKey), counter: stored.counter, transports: stored.transports ? stored.transports.split(",") : undefined },
      requireUserVerification: false,
    });
  } catch {
    throw new KilnError("ErrInvalidCredentials");
  }
  if (!result.verified) throw new KilnError("ErrInvalidCredentials");
  // The counter read is still the stored one, or this answer proves nothing: two answers with one
  // counter at once (a cloned authenticator beside the original) both passed the library's check
  // against the same read, and a passkey removed (or its account deleted) meanwhile is gone. An
  // authenticator that keeps no counter (always 0, as synced passkeys) is not told apart, as
  // WebAuthn allows.
  const used = await db.update(schema.passkeys)
    .set({ counter: result.authenticationInfo.newCounter, lastUsedAt: new Date() })
    .where(and(eq(schema.passkeys.id, stored.id), eq(schema.passkeys.userId, stored.userId), eq(schema.passkeys.counter, stored.counter)))
    .returning({ id: schema.passkeys.id })
    .all();
  if (used.length === 0) throw new KilnError("ErrInvalidCredentials");
  return stored.userId;
}

export { ChallengeStore } from "./challenges";
