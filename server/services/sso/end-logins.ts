// Ending the logins of accounts a provider could sign in as, when that way in is cut (an identity
// unlinked, the provider disabled or deleted). A session does not record how it logged in, so
// every login of those accounts ends (sessions and pending two-factor steps; not OAuth2 tokens,
// which a client holds by its own secret), as after a password change: one the provider made, for
// whoever held the identity there, would otherwise outlive the cut for the session's whole life.
import { and, inArray, ne } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { hashToken } from "../sessions";

/** `keepToken` is the session making the change: it stays. */
export async function endLoginsOf(db: Db, userIds: readonly number[], keepToken?: string): Promise<void> {
  if (userIds.length === 0) return;
  // In batches: SQLite's bound on a statement's variables, for a provider with many accounts.
  for (let i = 0; i < userIds.length; i += 500) {
    const logins = and(inArray(schema.sessions.userId, userIds.slice(i, i + 500)), inArray(schema.sessions.kind, ["session", "pending"]));
    await db.delete(schema.sessions).where(keepToken ? and(logins, ne(schema.sessions.tokenHash, hashToken(keepToken))) : logins).run();
  }
}
