// The providers linked to an account, for its owner's account page, and unlinking one: an
// account keeps at least one way to log in (a password, a passkey, or another linked provider),
// and loses what the provider's revocable rules granted it and the logins it may have made.
import { and, count, eq } from "drizzle-orm";
import { hasPassword } from "../auth/credentials";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { recordEvent } from "../activity/record";
import { providerRow, rulesOf } from "./providers";
import { withdrawProvider } from "./grants";
import { endLoginsOf } from "./end-logins";

export interface LinkedIdentity {
  providerId: string;
  providerName: string;
  email: string | null;
  createdAt: number;
  lastLoginAt: number | null;
}

export async function linkedIdentities(db: Db, userId: number): Promise<LinkedIdentity[]> {
  return await db
    .select({ providerId: schema.userIdentities.providerId, providerName: schema.authProviders.name, email: schema.userIdentities.email, createdAt: schema.userIdentities.createdAt, lastLoginAt: schema.userIdentities.lastLoginAt })
    .from(schema.userIdentities)
    .innerJoin(schema.authProviders, eq(schema.authProviders.id, schema.userIdentities.providerId))
    .where(eq(schema.userIdentities.userId, userId))
    .all();
}

/** `keepToken` is the session that unlinks: the account's other logins end (./end-logins). */
export async function unlinkIdentity(db: Db, userId: number, providerId: string, keepToken?: string): Promise<void> {
  const linked = await linkedIdentities(db, userId);
  if (!linked.some((i) => i.providerId === providerId)) throw new KilnError("ErrNotFound", { id: providerId });
  const withPassword = await hasPassword(db, userId);
  const passkeys = (await db.select({ n: count() }).from(schema.passkeys).where(eq(schema.passkeys.userId, userId)).get())?.n ?? 0;
  if (!withPassword && passkeys === 0 && linked.length <= 1) throw new KilnError("ErrSsoLastLogin");
  // No login through it will check its claims again: what its revocable rules granted goes now.
  const provider = await providerRow(db, providerId);
  await withdrawProvider(db, providerId, rulesOf(provider), userId);
  await db.delete(schema.userIdentities).where(and(eq(schema.userIdentities.userId, userId), eq(schema.userIdentities.providerId, providerId))).run();
  await endLoginsOf(db, [userId], keepToken);
  await recordEvent(db, "user.identity.unlinked", { subject: userId, properties: { provider: providerId } });
}
