// A manager's removal of another account's ways in (passkeys, two-factor, linked providers) and
// "Secure this account": after a takeover, a password reset ends the sessions but a passkey or a
// provider the intruder added still signs in, and a second factor they turned on keeps the real
// holder out. Under the account rule (./manage: assertMayManage), never on one's own account (the
// Account page changes those, with proof), and never by an OAuth2 client's token. Each change is one
// transaction with its activity rows, and ends the account's logins (sessions and pending
// two-factor steps: a session does not record how it signed in); the live proxy closes their
// sockets before the request answers (server/middleware/recheck-sockets).
import { and, count, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { validatePassword } from "../../../core/validation/account";
import { recordEvent } from "../activity/record";
import { hashPassword } from "../auth/credentials";
import { providerRow, rulesOf } from "../sso/providers";
import { withdrawProvider } from "../sso/grants";
import { endLoginsOf } from "../sso/end-logins";
import { linkedIdentities } from "../sso/identities";
import { endSftpSessions } from "../sftp/disconnect";
import { assertMayManage, type Actor } from "./manage";
import { dropPendingChange } from "./email-confirmation";

/** The manager: a signed-in account, never a client's token (it would strip its own owner's ways in). */
export type Manager = Actor & { clientId?: string };

async function assertMayStrip(db: Db, actor: Manager, userId: number): Promise<{ username: string }> {
  if (actor.clientId) throw new KilnError("ErrNoPermission", { reason: "OAuth2 clients do not change how accounts sign in" });
  if (actor.id === userId) throw new KilnError("ErrNoPermission", { reason: "your own ways to sign in change on your account page" });
  const { account } = await assertMayManage(db, actor, userId);
  return { username: account.username || account.email };
}

const passkeyCount = async (db: Db, userId: number) => (await db.select({ n: count() }).from(schema.passkeys).where(eq(schema.passkeys.userId, userId)).get())?.n ?? 0;
const hasPasswordIn = async (db: Db, userId: number) => ((await db.select({ hash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, userId)).get())?.hash ?? "") !== "";

/** One passkey (`passkeyId`) or all of them; another account's passkey id is ErrNotFound, nothing removed. */
export async function removePasskeys(db: Db, actor: Manager, userId: number, passkeyId?: string): Promise<number> {
  await assertMayStrip(db, actor, userId);
  const removed = await db.transaction(async (tx) => await dropPasskeys(tx, userId, passkeyId));
  if (passkeyId !== undefined && removed.length === 0) throw new KilnError("ErrNotFound", { id: passkeyId });
  return removed.length;
}

async function dropPasskeys(tx: Db, userId: number, passkeyId?: string): Promise<string[]> {
  const which = passkeyId === undefined ? eq(schema.passkeys.userId, userId) : and(eq(schema.passkeys.userId, userId), eq(schema.passkeys.id, passkeyId));
  const removed = await tx.delete(schema.passkeys).where(which).returning({ name: schema.passkeys.name }).all();
  for (const { name } of removed) await recordEvent(tx, "user.passkey.removed", { subject: userId, properties: { name } });
  if (removed.length > 0) await endLoginsOf(tx, [userId]);
  return removed.map((p) => p.name);
}

/** Two-factor off: the TOTP secret (a confirmed one or an enrolment begun) and the recovery codes. ErrInvalidTokenState when it is off. */
export async function turnOffTwoFactor(db: Db, actor: Manager, userId: number): Promise<void> {
  const { username } = await assertMayStrip(db, actor, userId);
  await db.transaction(async (tx) => {
    if (!await dropTwoFactor(tx, userId, username)) throw new KilnError("ErrInvalidTokenState");
  });
}

async function dropTwoFactor(tx: Db, userId: number, username: string): Promise<boolean> {
  const row = await tx.select({ otpEnabled: schema.users.otpEnabled }).from(schema.users).where(eq(schema.users.id, userId)).get();
  // An enrolment begun and not confirmed goes too: its secret was shown to whoever began it.
  await tx.update(schema.users).set({ otpEnabled: false, otpSecret: null, otpLastStep: 0 }).where(eq(schema.users.id, userId)).run();
  await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId)).run();
  if (!row?.otpEnabled) return false;
  await recordEvent(tx, "user.totp.disabled", { subject: userId, properties: { username } });
  await endLoginsOf(tx, [userId]);
  return true;
}

/**
 * One linked provider (`providerId`) or all. The account keeps a way in (as when its holder
 * unlinks, sso/identities): with no password, no passkey and no other provider left it is
 * ErrSsoLastLogin, nothing unlinked; "Secure this account" sets a password in the same step instead.
 */
export async function unlinkIdentities(db: Db, actor: Manager, userId: number, providerId?: string): Promise<number> {
  await assertMayStrip(db, actor, userId);
  return (await db.transaction(async (tx) => {
    const linked = await linkedIdentities(tx, userId);
    const going = providerId === undefined ? linked : linked.filter((i) => i.providerId === providerId);
    if (providerId !== undefined && going.length === 0) throw new KilnError("ErrNotFound", { id: providerId });
    if (!await hasPasswordIn(tx, userId) && await passkeyCount(tx, userId) === 0 && linked.length <= going.length) throw new KilnError("ErrSsoLastLogin");
    return await dropIdentities(tx, userId, going.map((i) => i.providerId));
  })).length;
}

async function dropIdentities(tx: Db, userId: number, providerIds: string[]): Promise<string[]> {
  for (const providerId of providerIds) {
    // No login through it will check its claims again: what its revocable rules granted goes now.
    await withdrawProvider(tx, providerId, rulesOf(await providerRow(tx, providerId)), userId);
    await tx.delete(schema.userIdentities).where(and(eq(schema.userIdentities.userId, userId), eq(schema.userIdentities.providerId, providerId))).run();
    await recordEvent(tx, "user.identity.unlinked", { subject: userId, properties: { provider: providerId } });
  }
  if (providerIds.length > 0) await endLoginsOf(tx, [userId]);
  return providerIds;
}

export interface SecureOptions {
  /** A new password, set in the same step; required when the account has none (else ErrSsoLastLogin). */
  password?: unknown;
  /** Delete the account's OAuth2 clients too (their tokens end either way). */
  deleteClients?: boolean;
}

/**
 * "Secure this account": every passkey, linked provider and the second factor go, every session,
 * pending login and OAuth2 token ends, and a password (when given) is set, in one transaction: a
 * refusal leaves everything as it was. What it did is one user.secured row beside each removal's.
 */
export async function secureAccount(db: Db, actor: Manager, userId: number, options: SecureOptions = {}): Promise<void> {
  const { username } = await assertMayStrip(db, actor, userId);
  const newPassword = options.password !== undefined && options.password !== "" ? await hashPassword(validatePassword(options.password)) : undefined;
  await db.transaction(async (tx) => {
    if (newPassword === undefined && !await hasPasswordIn(tx, userId)) throw new KilnError("ErrSsoLastLogin");
    if (newPassword !== undefined) {
      await tx.update(schema.users).set({ passwordHash: newPassword }).where(eq(schema.users.id, userId)).run();
      await recordEvent(tx, "user.password.changed", { subject: userId, properties: { username } });
    }
    const passkeys = await dropPasskeys(tx, userId);
    const totp = await dropTwoFactor(tx, userId, username);
    const identities = await dropIdentities(tx, userId, (await linkedIdentities(tx, userId)).map((i) => i.providerId));
    // Every token: sessions, pending two-factor steps and the clients' tokens (a client kept needs a new one).
    await tx.delete(schema.sessions).where(eq(schema.sessions.userId, userId)).run();
    // A thief's pending email change, whose link went to the thief's address.
    await dropPendingChange(tx, userId);
    const clients = options.deleteClients ? (await tx.delete(schema.oauth2Clients).where(eq(schema.oauth2Clients.userId, userId)).returning({ id: schema.oauth2Clients.clientId }).all()).map((c) => c.id) : [];
    for (const clientId of clients) await recordEvent(tx, "oauth2.client.deleted", { subject: userId, properties: { clientId } });
    await recordEvent(tx, "user.secured", { subject: userId, properties: { username, passkeys, identities, totp, clients, password: newPassword !== undefined } });
  });
  // SFTP logs in with the password (and under the email): whatever is open ends.
  await endSftpSessions(db, { userId });
}
