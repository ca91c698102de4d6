// Slows, then refuses, repeated failed logins (password, two-factor code, passkey, OAuth2 client,
// SFTP) per account and per address. Kept in the database, so every panel process on it counts
// the same attempts (a round-robin balancer spreads a guesser's tries over all of them).
//
// An attempt counts from the moment it is let in, not from when its answer is known: checking a
// password takes a while, and counting only finished failures let any number of parallel guesses
// through before the first was recorded. Attempts still being checked count towards the lock, so
// at most `lockAfter` guesses are ever checked per window, however many arrive at once.
import { createHash } from "node:crypto";
import { and, eq, inArray } from "drizzle-orm";
import { KilnError } from "../../../core/errors";
import { schema, type Db } from "../../../db";
import { normalizeEmail } from "../../../core/validation/email";
import { MAX_EMAIL_LENGTH } from "../../../core/validation/account";
import { clusterNow } from "../cluster/clock";
import { subscriberNetwork } from "../../../core/net/address-rules";

export interface ThrottlePolicy {
  windowMs: number;
  /** failures before each further attempt is slowed */
  slowAfter: number;
  /** failures (and attempts still being checked) before attempts are refused for lockMs */
  lockAfter: number;
  lockMs: number;
  /** added per failure past slowAfter, capped at maxDelayMs */
  delayStepMs: number;
  maxDelayMs: number;
}

export const DEFAULT_THROTTLE: ThrottlePolicy = { windowMs: 15 * 60_000, slowAfter: 3, lockAfter: 10, lockMs: 15 * 60_000, delayStepMs: 500, maxDelayMs: 4000 };

interface Entry {
  failures: number[];
  lockedUntil: number;
  /** start times of attempts let in whose outcome is not known yet */
  pending: number[];
}

/**
 * How each kind of key begins: each kind is its own namespace, so no name typed at one door counts
 * against something else at another (a client id "1" is not account 1). An address; an account
 * named by its email, as a login names it ("acct:", the prefix stored counts have always had); an
 * account by its id, at a step after its password (the two-factor step, the password asked again
 * of a session); an OAuth2 client that exists. The email and the id of one account are two
 * counters, as they always were: the password step counts the one, the steps after it the other.
 */
const KEY_KINDS = { address: "addr:", email: "acct:", user: "user:", client: "client:" } as const;

/** A key's name part longer than this is stored as its SHA-256: a key is a stored row, never large. */
const MAX_KEY_NAME = 256;

/** An attempt still being checked after this long was cut off (its process killed): no longer counted. */
const PENDING_MS = 60_000;

/**
 * Where the entries live, and the clock they are judged by. Each change is one atomic step over
 * the keys of an attempt: in a transaction when they are in the database, so every panel process
 * on it counts the same attempts, by the database's clock (a panel whose own clock ran ahead would
 * find every lock expired); in memory, by the throttle's own clock, when not storedIn a database.
 */
type EntryStore = <T>(keys: string[], step: (entries: Map<string, Entry>, now: number) => T) => Promise<T>;

const fresh = (): Entry => ({ failures: [], lockedUntil: 0, pending: [] });

function memoryStore(clock: () => number): EntryStore {
  const entries = new Map<string, Entry>();
  return async (keys, step) => {
    const mine = new Map(keys.map((key) => [key, entries.get(key) ?? fresh()]));
    try {
      return step(mine, clock());
    } finally {
      for (const [key, entry] of mine) keep(entry) ? entries.set(key, entry) : entries.delete(key);
    }
  };
}

const keep = (entry: Entry, now = 0) => entry.failures.length > 0 || entry.lockedUntil > now || entry.pending.length > 0;

function databaseStore(db: Db, windowMs: number): EntryStore {
  return <T,>(keys: string[], step: (entries: Map<string, Entry>, now: number) => T) =>
    db.transaction(async (tx) => {
      const now = await clusterNow(db);
      const where = and(eq(schema.oneTimeValues.kind, "throttle"), inArray(schema.oneTimeValues.key, keys));
      const rows = await tx.select().from(schema.oneTimeValues).where(where).all();
      const stored = (key: string) => rows.find((row) => row.key === key && row.expiresAt > now);
      const mine = new Map(keys.map((key) => [key, stored(key) ? (JSON.parse(stored(key)!.value) as Entry) : fresh()]));
      // A refusal throws here: the transaction rolls back and nothing changes.
      const result = step(mine, now);
      for (const [key, entry] of mine) {
        if (!keep(entry, now)) {
          await tx.delete(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, "throttle"), eq(schema.oneTimeValues.key, key))).run();
          continue;
        }
        const expiresAt = Math.max(entry.lockedUntil, ...entry.failures.map((t) => t + windowMs), ...entry.pending.map((t) => t + PENDING_MS));
        const value = JSON.stringify(entry);
        await tx.insert(schema.oneTimeValues).values({ kind: "throttle", key, value, expiresAt }).onConflictDoUpdate({ target: [schema.oneTimeValues.kind, schema.oneTimeValues.key], set: { value, expiresAt } }).run();
      }
      return result;
    });
}

export class LoginThrottle {
  private store: EntryStore;

  constructor(
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE,
    now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<unknown> = Bun.sleep,
  ) {
    this.store = memoryStore(now);
  }

  /** Keeps the counts in `db`, shared by every panel process on it (a panel's own throttle is), timed by its clock. */
  storedIn(db: Db): this {
    this.store = databaseStore(db, this.policy.windowMs);
    return this;
  }

  /**
   * Runs one credential check under the throttle. A locked key is refused (429) before `check`
   * runs; past slowAfter failures the check waits first. `check` resolving is a success and
   * forgives the keys; a rejection for which `isFailure` is true counts as a failure; any other
   * rejection (a missing field, a server error) is not counted either way.
   */
  async check<T>(keys: string[], check: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
    const { started, failures } = await this.admit(keys);
    let outcome: "success" | "failure" | "neither" = "neither";
    try {
      const over = failures - this.policy.slowAfter;
      if (over > 0) await this.sleep(Math.min(over * this.policy.delayStepMs, this.policy.maxDelayMs));
      const result = await check();
      outcome = "success";
      return result;
    } catch (error) {
      if (isFailure(error)) outcome = "failure";
      throw error;
    } finally {
      await this.settle(keys, started, outcome);
    }
  }

  /** Refuses when any key is locked or full, else counts the attempt as pending on every key, in the same step as the test. Returns when it started (its pending mark) and the most failures on any key. */
  private admit(keys: string[]): Promise<{ started: number; failures: number }> {
    return this.store(keys, (entries, now) => {
      let failures = 0;
      let refusal: KilnError | undefined;
      for (const entry of entries.values()) {
        this.prune(entry, now);
        if (entry.lockedUntil > now) refusal ??= tooMany(entry.lockedUntil - now);
        // The attempts still being checked will lock the key if they fail: say so now.
        else if (entry.failures.length + entry.pending.length >= this.policy.lockAfter) refusal ??= tooMany(this.policy.lockMs);
        failures = Math.max(failures, entry.failures.length);
      }
      if (refusal) throw refusal;
      for (const entry of entries.values()) entry.pending.push(now);
      return { started: now, failures };
    });
  }

  private settle(keys: string[], started: number, outcome: "success" | "failure" | "neither"): Promise<void> {
    return this.store(keys, (entries, now) => {
      for (const [key, entry] of entries) {
        const mine = entry.pending.indexOf(started);
        if (mine >= 0) entry.pending.splice(mine, 1);
        // A success forgives its account, never its address: anyone can succeed on an account of
        // their own, and one who guessed at others' between two logins of theirs would never be locked.
        if (outcome === "success" && !key.startsWith(KEY_KINDS.address)) {
          entry.failures = [];
          entry.lockedUntil = 0;
        } else if (outcome === "failure") {
          entry.failures.push(now);
          if (entry.failures.length >= this.policy.lockAfter) entry.lockedUntil = now + this.policy.lockMs;
        }
        this.prune(entry, now);
      }
    });
  }

  private prune(entry: Entry, now: number): void {
    entry.failures = entry.failures.filter((t) => now - t < this.policy.windowMs);
    entry.pending = entry.pending.filter((t) => now - t < PENDING_MS);
  }
}

function tooMany(ms: number): KilnError {
  return new KilnError("ErrTooManyRequests", { retryAfter: Math.ceil(ms / 1000) });
}

/** What an attempt names besides its address: an email (a login), an account's id (a step after its password), or an OAuth2 client that exists. */
export type ThrottledName = string | number | { clientId: string };

function keyOf(kind: keyof typeof KEY_KINDS, name: string): string {
  return `${KEY_KINDS[kind]}${name.length > MAX_KEY_NAME ? `sha256:${createHash("sha256").update(name).digest("hex")}` : name}`;
}

/**
 * An email as the throttle counts it: in the spelling the lookup uses. One longer than any
 * account's is refused before that spelling is made (normalising megabytes takes seconds), as a
 * wrong email would be: no account has it, so nothing is worth counting.
 */
function emailName(email: string): string {
  if (email.trim().length > MAX_EMAIL_LENGTH) throw new KilnError("ErrInvalidCredentials");
  return normalizeEmail(email);
}

/**
 * The throttle's keys for an attempt: the address (its network) always, and what it names when it names
 * something (ThrottledName). ErrInvalidCredentials, before anything is counted, for an email no
 * account can have.
 */
export function throttleKeys(named: ThrottledName | undefined, address: string): string[] {
  // An IPv6 caller by its /64, which is theirs whole: by the full address, one visitor trying a
  // password on account after account took a fresh address (and a fresh count) for every guess.
  const keys = [keyOf("address", subscriberNetwork(address))];
  if (typeof named === "string") keys.push(keyOf("email", emailName(named)));
  else if (typeof named === "number") keys.push(keyOf("user", String(named)));
  else if (named !== undefined) keys.push(keyOf("client", named.clientId));
  return keys;
}

/** For checks that answer ErrInvalidCredentials on a wrong secret. */
export const isCredentialFailure = (error: unknown): boolean => error instanceof KilnError && error.code === "ErrInvalidCredentials";
