// An account made by a first login through a provider that allows registration: the provider's
// verified email, a username from what it suggests (made to fit the username rule, a number added
// when taken) and no password (it logs in through its provider until its owner sets one). It holds
// no scope, as a self-registered account does. Its address is confirmed: only an email the provider
// verified and is trusted for makes an account (flow.ts), and so it is taken from an account that
// holds it unconfirmed (users/unconfirmed-hold), as a confirmation link used would take it.
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { MIN_USERNAME_LENGTH } from "../../../core/validation/account";
import { recordEvent } from "../activity/record";
import { SYSTEM } from "../activity/actor";
import { sameUsername } from "../users/create-user";
import { releaseUnconfirmed } from "../users/unconfirmed-hold";
import { endSftpSessions } from "../sftp/disconnect";

const MAX_USERNAME = 32;

export async function createSsoAccount(db: Db, input: { email: string; username: string | null; provider: string }): Promise<number> {
  const made = await db.transaction(async (tx) => {
    const released = await releaseUnconfirmed(tx, input.email);
    const username = await freeUsername(tx, input.username ?? input.email.split("@")[0]!);
    const row = await tx.insert(schema.users).values({ username, email: input.email, passwordHash: "", createdAt: new Date(), emailConfirmed: true }).returning({ id: schema.users.id }).get();
    await recordEvent(tx, "user.created", { actor: SYSTEM, subject: row.id, properties: { username, email: input.email, scopes: [] } });
    return { id: row.id, released };
  });
  // Their SFTP username was the address.
  if (made.released !== null) await endSftpSessions(db, { userId: made.released });
  return made.id;
}

async function freeUsername(db: Db, suggested: string): Promise<string> {
  let base = suggested.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, MAX_USERNAME - 4);
  // Too short for the username rule ("gina"): a suffix that says where it came from.
  if (base.length < MIN_USERNAME_LENGTH) base = base === "" ? "kiln-user" : `${base}-user`;
  for (let n = 0; ; n++) {
    const candidate = n === 0 ? base : `${base}${n + 1}`;
    if (!await db.select({ id: schema.users.id }).from(schema.users).where(sameUsername(candidate)).get()) return candidate;
  }
}
