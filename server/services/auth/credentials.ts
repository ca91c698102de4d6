// Checking an email and password against the stored argon2id hash.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { normalizeEmail } from "../../../core/validation/email";
import { freshProviderSignIn } from "../sessions";
import { sameUsername } from "../users/create-user";
import { placeholderWhere } from "../users/unconfirmed-hold";

/**
 * argon2id with OWASP's first recommended setting (19 MiB, 2 passes, 1 lane): Bun's default of
 * 64 MiB cost four times the CPU per login and let a few dozen logins at once take a small VPS's
 * memory. A hash names its own parameters, so hashes made with other ones keep verifying.
 */
const ARGON2ID = { algorithm: "argon2id", memoryCost: 19_456, timeCost: 2 } as const;

/** The stored form of a password or a client secret. */
export function hashPassword(password: string): Promise<string> {
  return Bun.password.hash(password, ARGON2ID);
}

// Verifying against a real hash when the account is unknown keeps the answer time the same.
// Made on first need, not at start-up.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= hashPassword("kiln-timing-equaliser");
    await Bun.password.verify(password, await dummyHash);
    return false;
  }
  return Bun.password.verify(password, hash);
}

/**
 * The account a name typed to sign in with a password names (the login form, SFTP), as a query's
 * condition: the holder of that address, or, for a name without "@", the account with that
 * username while it holds a placeholder. An account holding a placeholder has no address to sign
 * in by (a registration waiting for its link, an address taken from it: unconfirmed-hold); it signs
 * in by its username, which no address is (an address holds an "@", a username never does).
 */
export function signInWhere(typed: string) {
  const name = normalizeEmail(typed);
  return name.includes("@") ? eq(schema.users.email, name) : and(sameUsername(name), placeholderWhere);
}

/** The account id for a good email (or a placeholder holder's username) and password; ErrInvalidCredentials otherwise, saying no more. */
export async function checkCredentials(db: Db, email: unknown, password: unknown): Promise<{ id: number; otpEnabled: boolean; checkedHash: string }> {
  if (typeof email !== "string" || normalizeEmail(email) === "") throw new KilnError("ErrFieldRequired", { field: "email" });
  if (typeof password !== "string" || password === "") throw new KilnError("ErrFieldRequired", { field: "password" });
  const user = await db.select().from(schema.users).where(signInWhere(email)).get();
  const active = user?.status === "active";
  const ok = await verifyPassword(password, active ? user.passwordHash : undefined);
  if (!user || !ok) throw new KilnError("ErrInvalidCredentials");
  // The hash the password matched: a session is made only while it is still the account's (createSession).
  return { id: user.id, otpEnabled: user.otpEnabled, checkedHash: user.passwordHash };
}

/**
 * The account's current password, asked again of its holder before a change a session alone must
 * not make (its email or password, a new passkey, new recovery codes, a linked identity): a
 * stolen session or cookie does not carry it. ErrFieldRequired without one, ErrInvalidCredentials
 * for a wrong one (an account a provider made has none, so nothing matches).
 */
export async function requirePassword(db: Db, userId: number, password: unknown): Promise<void> {
  if (typeof password !== "string" || password === "") throw new KilnError("ErrFieldRequired", { field: "password" });
  const row = await db.select({ passwordHash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!(await verifyPassword(password, row?.passwordHash))) throw new KilnError("ErrInvalidCredentials");
}

/** Whether the account has a password (an account a provider made has none). */
export async function hasPassword(db: Db, userId: number): Promise<boolean> {
  return ((await db.select({ hash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, userId)).get())?.hash ?? "") !== "";
}

/**
 * What proves the account's holder before a change a session alone (a stolen cookie, an unlocked
 * computer) must not make, where the account may make it without a password: its current password
 * when it has one (requirePassword); else a sign-in through one of its linked providers made in
 * the last few minutes and made this login (sessions' recordProviderSignIn), as GitHub's sudo mode
 * asks for a fresh sign-in. Without it, ErrProviderSignInRequired: the Account page offers that
 * sign-in.
 */
export async function requireHolderProof(db: Db, userId: number, password: unknown, sessionToken: string | null | undefined): Promise<void> {
  if (await hasPassword(db, userId)) return await requirePassword(db, userId, password);
  if (await hasFreshProviderSignIn(db, userId, sessionToken)) return;
  throw new KilnError("ErrProviderSignInRequired");
}

/** Whether the login behind `sessionToken` was made in the last few minutes by a provider still linked to the account. */
export async function hasFreshProviderSignIn(db: Db, userId: number, sessionToken: string | null | undefined): Promise<boolean> {
  const signIn = sessionToken ? await freshProviderSignIn(db, sessionToken) : null;
  if (!signIn) return false;
  const linked = await db.select({ userId: schema.userIdentities.userId }).from(schema.userIdentities).where(and(eq(schema.userIdentities.userId, userId), eq(schema.userIdentities.providerId, signIn.providerId))).get();
  return linked !== undefined;
}
