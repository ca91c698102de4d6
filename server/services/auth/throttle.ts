// Slows, then refuses, repeated failed logins (password, two-factor code, passkey) per account
// and per address. Held in memory: a restart forgives, which only helps the legitimate user.
import { KilnError } from "../../../core/errors";

export interface ThrottlePolicy {
  windowMs: number;
  /** failures before each further attempt is slowed */
  slowAfter: number;
  /** failures before attempts are refused for lockMs */
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
}

export class LoginThrottle {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly policy: ThrottlePolicy = DEFAULT_THROTTLE,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<unknown> = Bun.sleep,
  ) {}

  /** Before checking credentials: refuses a locked key (429), waits when slowing applies. */
  async gate(keys: string[]): Promise<void> {
    const now = this.now();
    let failures = 0;
    for (const key of keys) {
      const entry = this.prune(key, now);
      if (!entry) continue;
      if (entry.lockedUntil > now) {
        throw new KilnError("ErrTooManyRequests", { retryAfter: Math.ceil((entry.lockedUntil - now) / 1000) });
      }
      failures = Math.max(failures, entry.failures.length);
    }
    const over = failures - this.policy.slowAfter;
    if (over > 0) await this.sleep(Math.min(over * this.policy.delayStepMs, this.policy.maxDelayMs));
  }

  fail(keys: string[]): void {
    const now = this.now();
    for (const key of keys) {
      const entry = this.prune(key, now) ?? { failures: [], lockedUntil: 0 };
      entry.failures.push(now);
      if (entry.failures.length >= this.policy.lockAfter) entry.lockedUntil = now + this.policy.lockMs;
      this.entries.set(key, entry);
    }
  }

  succeed(keys: string[]): void {
    for (const key of keys) this.entries.delete(key);
  }

  private prune(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.failures = entry.failures.filter((t) => now - t < this.policy.windowMs);
    if (entry.failures.length === 0 && entry.lockedUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }
}

export function throttleKeys(account: string | number | undefined, address: string): string[] {
  return [`addr:${address}`, ...(account === undefined ? [] : [`acct:${String(account).toLowerCase()}`])];
}
