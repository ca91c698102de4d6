// Linking a provider to an account that already has the provider's email: the account's owner
// gives its password (the proof an email claim is not), within the flow's lifetime, once; wrong
// passwords count in the login throttle as any other. The step is the browser's that called back
// (it holds the token as its key, ./flow): a link to it sent to the account's owner, who would
// give their password on the panel's own page, links nothing. An account with two-factor gives its
// code (or a recovery code) in the same step: a link is a way in for good, and with a provider
// trusted for two-factor it later stands in for that code, so a password alone never makes one.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { requirePassword } from "../auth/credentials";
import { otpEnabled } from "../auth/totp";
import { verifySecondFactor } from "../auth/second-factor";
import { FLOW_TTL_MS, linkIdentity } from "./flow";

export interface PendingLink {
  email: string;
  providerName: string;
  /** The account has two-factor: the step asks its code too. */
  secondFactor: boolean;
}

/** What a link token waits for, or ErrSsoFailed when it is unknown, too old, or not this browser's (`browserKey`). */
export async function pendingLink(db: Db, token: unknown, browserKey: string | undefined): Promise<PendingLink & { providerId: string; subject: string; userId: number; next: string }> {
  if (typeof token !== "string" || token.length > 100 || token !== browserKey) throw new KilnError("ErrSsoFailed", { reason: "link" });
  const flow = await db.select().from(schema.ssoFlows).where(eq(schema.ssoFlows.state, token)).get();
  if (!flow || flow.pendingSubject === null || flow.pendingUserId === null || flow.createdAt < Date.now() - FLOW_TTL_MS) throw new KilnError("ErrSsoFailed", { reason: "link" });
  const user = await db.select({ email: schema.users.email, status: schema.users.status }).from(schema.users).where(eq(schema.users.id, flow.pendingUserId)).get();
  const provider = await db.select({ name: schema.authProviders.name, enabled: schema.authProviders.enabled }).from(schema.authProviders).where(eq(schema.authProviders.id, flow.providerId)).get();
  // The step outlives what it was begun for by up to ten minutes: a provider disabled since (no
  // longer trusted to say who this is) or an account gone links nothing.
  if (user?.status !== "active" || !provider?.enabled) throw new KilnError("ErrSsoFailed", { reason: "link" });
  return { email: user.email, providerName: provider.name, secondFactor: await otpEnabled(db, flow.pendingUserId), providerId: flow.providerId, subject: flow.pendingSubject, userId: flow.pendingUserId, next: flow.next };
}

/**
 * Links when the password is the account's, and `code` its second factor when it has one; answers
 * the account, where to go, and whether its second factor was given (the login needs no other).
 */
export async function confirmLink(db: Db, token: unknown, password: unknown, browserKey: string | undefined, code?: unknown): Promise<{ userId: number; next: string; secondFactorDone: boolean }> {
  const pending = await pendingLink(db, token, browserKey);
  await requirePassword(db, pending.userId, password);
  if (pending.secondFactor) await verifySecondFactor(db, pending.userId, code);
  // Used once: a second submit of the same form finds nothing.
  const taken = await db.delete(schema.ssoFlows).where(and(eq(schema.ssoFlows.state, token as string), eq(schema.ssoFlows.pendingUserId, pending.userId))).returning().get();
  if (!taken) throw new KilnError("ErrSsoFailed", { reason: "link" });
  const already = await db.select().from(schema.userIdentities).where(and(eq(schema.userIdentities.providerId, pending.providerId), eq(schema.userIdentities.subject, pending.subject))).get();
  if (already && already.userId !== pending.userId) throw new KilnError("ErrSsoIdentityTaken", { provider: pending.providerName });
  if (!already) await linkIdentity(db, pending.providerId, { subject: pending.subject, email: pending.email }, pending.userId);
  return { userId: pending.userId, next: pending.next, secondFactorDone: pending.secondFactor };
}
