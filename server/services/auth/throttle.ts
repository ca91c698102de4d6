// Slows, then refuses, repeated failed logins (password, two-factor code, passkey, OAuth2 client,
// SFTP) per account and per address. Held in memory: a restart forgives, which only helps the
// legitimate user.
//
// An attempt counts from the moment it is let in, not from when its answer is known: checking a
// password takes a while, and counting only finished failures let any number of parallel guesses
// through before the first was recorded. Attempts still being checked count towards the lock, so
// at most `lockAfter` guesses are ever checked per window, however many arrive at once.
import { KilnError } from "../../../core/errors";
import { normalizeEmail } from "../../../core/validation/email";

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
  /** attempts let in whose outcome is not known yet */
  pending: number;
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<unknown> = Bun.sleep,
  ) {}

  /**
   * Runs one credential check under the throttle. A locked key is refused (429) before `check`
   * runs; past slowAfter failures the check waits first. `check` resolving is a success and
   * forgives the keys; a rejection for which `isFailure` is true counts as a failure; any other
   * rejection (a missing field, a server error) is not counted either way.
   */
  async check<T>(keys: string[], check: () => Promise<T>, isFailure: (error: unknown) => boolean): Promise<T> {
    const failures = this.admit(keys);
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
      this.settle(keys, outcome);
    }
  }

  /** Refuses when any key is locked or full, else counts the attempt as pending on every key (synchronously: no await between the test and the count). Returns the most failures on any key. */
  private admit(keys: string[]): number {
    const now = this.now();
    const entries = keys.map((key) => this.entry(key, now));
    let failures = 0;
    let refusal: KilnError | undefined;
    for (const entry of entries) {
      if (entry.lockedUntil > now) refusal ??= tooMany(entry.lockedUntil - now);
      // The attempts still being checked will lock the key if they fail: say so now.
      else if (entry.failures.length + entry.pending >= this.policy.lockAfter) refusal ??= tooMany(this.policy.lockMs);
      failures = Math.max(failures, entry.failures.length);
    }
    if (refusal) {
      keys.forEach((key, i) => this.prune(key, entries[i]!, now));
      throw refusal;
    }
    for (const entry of entries) entry.pending++;
    return failures;
  }

  private settle(keys: string[], outcome: "success" | "failure" | "neither"): void {
    const now = this.now();
    for (const key of keys) {
      const entry = this.entry(key, now);
      entry.pending = Math.max(0, entry.pending - 1);
      if (outcome === "success") {
        entry.failures = [];
        entry.lockedUntil = 0;
      } else if (outcome === "failure") {
        entry.failures.push(now);
        if (entry.failures.length >= this.policy.lockAfter) entry.lockedUntil = now + this.policy.lockMs;
      }
      this.prune(key, entry, now);
    }
  }

  private entry(key: string, now: number): Entry {
    let entry = this.entries.get(key);
    if (!entry) {
      entry = { failures: [], lockedUntil: 0, pending: 0 };
      this.entries.set(key, entry);
    }
    entry.failures = entry.failures.filter((t) => now - t < this.policy.windowMs);
    return entry;
  }

  private prune(key: string, entry: Entry, now: number): void {
    if (entry.failures.length === 0 && entry.lockedUntil <= now && entry.pending === 0) this.entries.delete(key);
  }
}

function tooMany(ms: number): KilnError {
  return new KilnError("ErrTooManyRequests", { retryAfter: Math.ceil(ms / 1000) });
}

/** The throttle's keys for an attempt: the address always, the account when one is named (an email is counted in the spelling the lookup uses). */
export function throttleKeys(account: string | number | undefined, address: string): string[] {
  return [`addr:${address}`, ...(account === undefined ? [] : [`acct:${typeof account === "string" ? normalizeEmail(account) : account}`])];
}

/** For checks that answer ErrInvalidCredentials on a wrong secret. */
export const isCredentialFailure = (error: unknown): boolean => error instanceof KilnError && error.code === "ErrInvalidCredentials";
