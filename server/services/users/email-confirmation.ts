// Whether an account's address is its holder's. Only a confirmed address names its account when a
// server is shared by address (services/servers/users: assertGrantableByAddress): otherwise anyone
// could register, or change their email to, bob@corp.example before Bob has an account and receive
// what is shared with Bob.
//
// An address is confirmed when an administrator made the account or set the address (they vouch
// for it), when an invitation's link was used (the link went to the address), when a sign-in
// provider trusted for email made the account, or when the link mailed here is used. The link is
// one random token, stored as its SHA-256, bound to one account and one address, valid for a day;
// a newer link replaces it. A self-chosen new address waits beside the current one (pending),
// which stays in force until the link is used.
import { and, eq, gte, ne } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { hashToken, randomToken } from "../sessions";
import { recordEvent } from "../activity/record";
import { endSftpSessions } from "../sftp/disconnect";
import { countInDay } from "../cluster/daily-count";
import { subscriberNetwork } from "../../../core/net/address-rules";
import { assertMayManage, type Actor } from "./manage";
import { assertUnique, mayVouch } from "./create-user";
import { SCOPES } from "../../../core/scopes";
import { heldUnconfirmed, isPlaceholderAddress, releaseUnconfirmed } from "./unconfirmed-hold";
import { tellPreviousAddress, type EmailChangeNotifier } from "./email-change-notice";

export const CONFIRMATION_TTL_MS = 24 * 60 * 60 * 1000;
/** Confirmation mails an account asks for again in any 24 hours: each is the panel's mail to an address its holder chose. */
export const CONFIRMATION_RESENDS_PER_DAY = 5;
/**
 * Links mailed to one address in any 24 hours at the asking of one network (an IPv6 address by its
 * /64): a registration and every resend its holder may ask. The bounds per account (changes,
 * resends) and per registering network left an address's mail unbounded: accounts made on earlier
 * days count afresh each day, each 15 mails, and every network multiplied it.
 */
export const CONFIRMATION_MAILS_PER_NETWORK = 1 + CONFIRMATION_RESENDS_PER_DAY;
/**
 * Links mailed to one address in any 24 hours, whoever asked. Someone asking from enough networks
 * can use it up and keep the address's owner from receiving a link that day (an administrator
 * confirms the address then); without it, they could fill the mailbox.
 */
export const CONFIRMATION_MAILS_PER_ADDRESS = 20;

/**
 * Mails the link holding `token` to `to` (`send`) for the request from `requester` (the caller's
 * address); null when this panel cannot (no email provider, or no master URL for the link to name:
 * a link built from a request's Host is its sender's to aim).
 */
export type ConfirmationMailer = { send: (to: string, token: string) => Promise<void>; requester: string } | null;

export interface EmailState {
  email: string;
  confirmed: boolean;
  /** an address waiting for its link, or null */
  pending: string | null;
  /**
   * The address to name to the account's holder (its pages, GET /api/self): its own, or while it
   * holds a placeholder (unconfirmed-hold: a registration waiting for its link, an address taken
   * from it) none (""). A placeholder is nobody's address, not even its holder's to use.
   */
  own: string;
}

export async function emailState(db: Db, userId: number): Promise<EmailState> {
  const user = await db.select({ email: schema.users.email, confirmed: schema.users.emailConfirmed }).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!user) throw new KilnError("ErrUserNotFound");
  const link = await db.select({ email: schema.emailConfirmations.email }).from(schema.emailConfirmations).where(eq(schema.emailConfirmations.userId, userId)).get();
  return { email: user.email, confirmed: user.confirmed, pending: link && link.email !== user.email ? link.email : null, own: isPlaceholderAddress(user.email) ? "" : user.email };
}

/**
 * Makes a new link for `email` (replacing the account's earlier one) and mails it. An address
 * another account holds gets no mail (its holder did not ask for one); the caller's answer is the
 * same, so it tells nothing about who has an account here. An address held only unconfirmed is
 * mailed: its link, used, takes the address from that holder (unconfirmed-hold). Each link is
 * counted against the address first, held or not (so the count tells nothing either): past
 * CONFIRMATION_MAILS_PER_NETWORK or CONFIRMATION_MAILS_PER_ADDRESS, ErrTooManyRequests and the
 * account's earlier link stays as it was. The mail is sent without waiting for it (below).
 */
export async function sendConfirmation(db: Db, userId: number, email: string, mailer: NonNullable<ConfirmationMailer>, now = Date.now()): Promise<void> {
  // The network's own bound first: its refusals must not use up the address's bound for everyone.
  await countInDay(db, "confirmation-mails-from", `${subscriberNetwork(mailer.requester)} ${email}`, CONFIRMATION_MAILS_PER_NETWORK, now);
  await countInDay(db, "confirmation-mails-to", email, CONFIRMATION_MAILS_PER_ADDRESS, now);
  const token = await storeLink(db, userId, email, now);
  const holder = await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.email, email)).get();
  if (holder && holder.id !== userId && !await heldUnconfirmed(db, email, userId)) return;
  // Not waited for: the provider's time (a second for a distant relay) or its refusal would tell a
  // free address from a taken one, which gets no mail. A failure is logged; the account's page
  // offers the link again.
  void mailer.send(email, token).catch((error: unknown) => {
    console.warn(`kiln: the confirmation link for account ${userId} was not sent: ${error instanceof KilnError ? error.code : String(error)}`);
  });
}

/**
 * Stores a new link for `email` (replacing the account's earlier one) without mailing it; its token.
 * A registration whose mail the address's bound refused stores one too: its account holds a
 * placeholder, and the address waits on its page (the link sent again later) instead of being lost.
 */
export async function storeLink(db: Db, userId: number, email: string, now = Date.now()): Promise<string> {
  const token = randomToken();
  await db.transaction(async (tx) => {
    await tx.delete(schema.emailConfirmations).where(eq(schema.emailConfirmations.userId, userId)).run();
    await tx.insert(schema.emailConfirmations).values({ tokenHash: hashToken(token), userId, email, expiresAt: new Date(now + CONFIRMATION_TTL_MS) }).run();
  });
  return token;
}

/** The account's link again, to the pending address or its unconfirmed one; false when there is nothing to confirm. */
export async function resendConfirmation(db: Db, userId: number, mailer: ConfirmationMailer, now = Date.now()): Promise<boolean> {
  if (!mailer) throw new KilnError("ErrEmailNotConfigured");
  const state = await emailState(db, userId);
  // A placeholder is mailed nothing (it is nobody's address).
  const address = state.pending ?? (state.confirmed || isPlaceholderAddress(state.email) ? null : state.email);
  if (address === null) return false;
  await countInDay(db, "email-confirmations", String(userId), CONFIRMATION_RESENDS_PER_DAY, now);
  await sendConfirmation(db, userId, address, mailer, now);
  return true;
}

/** What a link would confirm (the confirmation page shows it before anything changes). */
export async function findConfirmation(db: Db, token: unknown, now = Date.now()): Promise<{ userId: number; username: string; email: string }> {
  if (typeof token !== "string" || token === "") throw new KilnError("ErrConfirmLinkInvalid");
  const row = await db
    .select({ userId: schema.emailConfirmations.userId, email: schema.emailConfirmations.email, username: schema.users.username })
    .from(schema.emailConfirmations)
    .innerJoin(schema.users, eq(schema.users.id, schema.emailConfirmations.userId))
    .where(and(eq(schema.emailConfirmations.tokenHash, hashToken(token)), gte(schema.emailConfirmations.expiresAt, new Date(now))))
    .get();
  if (!row) throw new KilnError("ErrConfirmLinkInvalid");
  return row;
}

/**
 * Uses a link: its address becomes the account's, confirmed. In one transaction with the link's
 * removal, so a link confirms once; an address another account confirmed or was invited to
 * meanwhile stays theirs (ErrDuplicateUser, told to the address's own mailbox holder), one held
 * only unconfirmed is taken from its holder (unconfirmed-hold). The previous address is told
 * (`notify`, email-change-notice).
 */
export async function confirmEmail(db: Db, token: unknown, notify: EmailChangeNotifier = null, now = Date.now()): Promise<{ userId: number; email: string }> {
  const { userId, email } = await findConfirmation(db, token, now);
  const { before, released } = await db.transaction(async (tx) => {
    const used = await tx.delete(schema.emailConfirmations).where(and(eq(schema.emailConfirmations.tokenHash, hashToken(token as string)), gte(schema.emailConfirmations.expiresAt, new Date(now)))).returning({ userId: schema.emailConfirmations.userId }).all();
    if (used.length !== 1) throw new KilnError("ErrConfirmLinkInvalid");
    const before = (await tx.select({ email: schema.users.email, username: schema.users.username, confirmed: schema.users.emailConfirmed }).from(schema.users).where(eq(schema.users.id, userId)).get())!;
    const released = await releaseUnconfirmed(tx, email, userId);
    await assertUnique(tx, { email }, userId);
    await tx.update(schema.users).set({ email, emailConfirmed: true }).where(eq(schema.users.id, userId)).run();
    // Other accounts' links for the address (registrations waiting for it) could only be refused now.
    await tx.delete(schema.emailConfirmations).where(eq(schema.emailConfirmations.email, email)).run();
    await recordEvent(tx, "user.updated", { subject: userId, properties: { username: before.username, email, fields: ["emailConfirmed", ...(before.email !== email ? ["email"] : [])] } });
    return { before, released };
  });
  // The SFTP username is the email: sessions under the old one end, as for any email change.
  if (before.email !== email) await endSftpSessions(db, { userId });
  if (released !== null) await endSftpSessions(db, { userId: released });
  await tellPreviousAddress(notify, { username: before.username, previous: before.email, previousConfirmed: before.confirmed, next: email });
  return { userId, email };
}

/**
 * An administrator vouches for the account's current address (a panel without email has no other
 * way); a users.edit holder's word proves nothing (mayVouch).
 * Never their own: what they type as their own email is no more proven than anyone's.
 */
export async function markEmailConfirmed(db: Db, actor: Actor, userId: number): Promise<void> {
  if (actor.id === userId) throw new KilnError("ErrNoPermission", { reason: "self" });
  if (!mayVouch(actor)) throw new KilnError("ErrMissingScope", { scope: SCOPES.admin });
  const { account } = await assertMayManage(db, actor, userId);
  await db.update(schema.users).set({ emailConfirmed: true }).where(eq(schema.users.id, userId)).run();
  await recordEvent(db, "user.updated", { subject: userId, properties: { username: account.username, email: account.email, fields: ["emailConfirmed"] } });
}

/**
 * Forgets the account's link for a new address that waits (a pending change), keeping one that
 * confirms the address it already holds. Run it (in its transaction) wherever the account is
 * recovered from a thief: a new password, Secure this account. The change was asked for with the
 * session and the password, and its link went to the address the asker chose: kept, it was a way
 * into the account that outlived every session and token the recovery ends.
 */
export async function dropPendingChange(db: Db, userId: number): Promise<void> {
  const user = await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!user) return;
  await db.delete(schema.emailConfirmations).where(and(eq(schema.emailConfirmations.userId, userId), ne(schema.emailConfirmations.email, user.email))).run();
}

/** Forgets the account's link (its address was set another way). */
export async function dropConfirmation(db: Db, userId: number): Promise<void> {
  await db.delete(schema.emailConfirmations).where(eq(schema.emailConfirmations.userId, userId)).run();
}
