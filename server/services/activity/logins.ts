// Logins in the activity log: each success with how (password, a second factor, a passkey), and
// each refusal with the name tried and the catalogue's reason — never the password or code. A
// refusal for an existing account is recorded about it, so its owner sees it on the account page.
//
// Anyone can ask to log in, so the refusals one caller causes are bounded: per window, at most
// LOGGED_PER_WINDOW user.login.failed rows per address and per account named (as many as the
// login throttle lets guesses through, so every checked guess is its own row). Past that, and for
// every refusal of the throttle itself (it checked nothing), the refusal is counted on one
// user.login.throttled row for that address or account — written, and so sent to webhooks, once
// a window. The counts live beside the throttle's (one_time_values), so every panel process on the
// database keeps the same ones, and the decision and the row are one transaction.
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { keptProperties } from "../../../core/activity";
import type { LoginMethod } from "../../../core/activity/property-values";
import { normalizeEmail } from "../../../core/validation/email";
import { DEFAULT_THROTTLE } from "../auth/throttle";
import { signInWhere } from "../auth/credentials";
import { MAX_EMAIL_LENGTH } from "../../../core/validation/account";
import { announce, recordEvent, writeEvent, type RecordedEvent, type Tx } from "./record";
import { currentAddress, SYSTEM, userActor } from "./actor";
import { subscriberNetwork } from "../../../core/net/address-rules";

/** How a login came about: one of core/activity's LOGIN_METHODS, which the activity table says in words. */
export type { LoginMethod } from "../../../core/activity/property-values";

/** Refusals recorded one by one per address and per account in a window: the throttle's lock, so no guess it let through goes unrecorded. */
export const LOGGED_PER_WINDOW = DEFAULT_THROTTLE.lockAfter;
export const LOGGED_WINDOW_MS = DEFAULT_THROTTLE.windowMs;
/** one_time_values' kind for the counts. */
const KIND = "login-log";

interface Entry {
  /** When this window began. */
  since: number;
  /** user.login.failed rows written in it. */
  logged: number;
  /** The user.login.throttled row refusals past that are counted on. */
  row?: number;
}

export async function recordLogin(db: Db, user: { id: number; username: string }, method: LoginMethod): Promise<void> {
  await recordEvent(db, "user.login", { actor: userActor(user), subject: user.id, properties: { method } });
}

/** Runs a login step; a refusal is recorded (or counted, see above), then thrown on as it was. */
export async function loginAttempt<T>(db: Db, attempt: { username?: string; userId?: number }, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof KilnError) await recordLoginRefusal(db, attempt, error);
    throw error;
  }
}

export interface RefusedLogin {
  /** The name tried, as typed. */
  username?: string;
  /** The name it signs in by, when the door types more than that (SFTP's "<name>#<server>"); `username` by default. */
  signInName?: string;
  /** The account, when the step knew it (a second factor). */
  userId?: number;
  /** The caller's address; the request's by default. */
  address?: string | null;
}

/** Records one refused login: its own user.login.failed row while within the bounds, else a count. `reasonPrefix` names another door ("sftp:"). */
export async function recordLoginRefusal(db: Db, attempt: RefusedLogin, error: KilnError, reasonPrefix = ""): Promise<void> {
  const name = attempt.username?.slice(0, 200);
  // The account the name signs in to, found as checkCredentials finds it: by a username too (an
  // account holding a placeholder), so every guess at an account is its holder's to see. A name
  // longer than any address names none (and is not normalised: megabytes take seconds).
  const signInName = attempt.signInName ?? attempt.username;
  const named = signInName !== undefined && signInName.trim() !== "" && signInName.trim().length <= MAX_EMAIL_LENGTH;
  const subject = attempt.userId ?? (named ? (await db.select({ id: schema.users.id }).from(schema.users).where(signInWhere(signInName)).get())?.id : undefined);
  const ip = attempt.address === undefined ? currentAddress() : attempt.address;
  const reason = `${reasonPrefix}${error.code}`;
  const keys = [
    // An IPv6 address by its /64, as the throttle counts it.
    ...(ip ? [`addr:${subscriberNetwork(ip)}`] : []),
    // An account by its id when it exists (every spelling of its email is the one account), else by the name as the throttle counts it.
    ...(subject !== undefined ? [`user:${subject}`] : name ? [`name:${normalizeEmail(name)}`] : []),
  ];
  const details = { actor: SYSTEM, subject: subject ?? null, ip };
  const written = await db.transaction(async (tx) => {
    const now = Date.now();
    const entries = await readEntries(tx, keys, now);
    // The throttle's refusal checked nothing: never a row of its own.
    const counted = error.code === "ErrTooManyRequests" || [...entries.values()].some((entry) => entry.logged >= LOGGED_PER_WINDOW);
    let recorded: RecordedEvent | undefined;
    if (!counted) {
      recorded = await writeEvent(tx, "user.login.failed", { ...details, properties: { username: name, reason } });
      for (const entry of entries.values()) entry.logged++;
    } else if (!(await countOnRow(tx, entries, now))) {
      recorded = await writeEvent(tx, "user.login.throttled", { ...details, at: now, properties: { username: name, reason, count: 1, last: new Date(now).toISOString() } });
      for (const entry of entries.values()) entry.row = recorded.id;
    }
    await writeEntries(tx, entries);
    return recorded;
  });
  if (written) announce(written);
}

/** Adds one to the throttled row an entry of this attempt already has, and gives it to the entries without one; false when none has a row still there. */
async function countOnRow(tx: Tx, entries: Map<string, Entry>, now: number): Promise<boolean> {
  for (const id of new Set([...entries.values()].flatMap((entry) => (entry.row === undefined ? [] : [entry.row])))) {
    // Pruning may have taken it (past the row cap, such rows go first).
    const row = await tx.select({ properties: schema.activity.properties }).from(schema.activity).where(and(eq(schema.activity.id, id), eq(schema.activity.event, "user.login.throttled"))).get();
    if (!row) continue;
    const properties = JSON.parse(row.properties) as { count?: number };
    const next = keptProperties("user.login.throttled", { ...properties, count: (Number(properties.count) || 0) + 1, last: new Date(now).toISOString() });
    await tx.update(schema.activity).set({ properties: JSON.stringify(next) }).where(eq(schema.activity.id, id)).run();
    for (const entry of entries.values()) entry.row ??= id;
    return true;
  }
  return false;
}

async function readEntries(tx: Tx, keys: string[], now: number): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  for (const key of keys) {
    const row = await tx.select().from(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, KIND), eq(schema.oneTimeValues.key, key))).get();
    const entry = row && row.expiresAt > now ? (JSON.parse(row.value) as Entry) : undefined;
    entries.set(key, entry ?? { since: now, logged: 0 });
  }
  return entries;
}

async function writeEntries(tx: Tx, entries: Map<string, Entry>): Promise<void> {
  for (const [key, entry] of entries) {
    const value = JSON.stringify(entry);
    const expiresAt = entry.since + LOGGED_WINDOW_MS;
    await tx.insert(schema.oneTimeValues).values({ kind: KIND, key, value, expiresAt }).onConflictDoUpdate({ target: [schema.oneTimeValues.kind, schema.oneTimeValues.key], set: { value, expiresAt } }).run();
  }
}
