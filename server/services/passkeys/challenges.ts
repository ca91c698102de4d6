// WebAuthn challenges waiting for their answer: kept in memory for five minutes, used once.
const TTL_MS = 5 * 60 * 1000;

export class ChallengeStore {
  private readonly entries = new Map<string, { challenge: string; expires: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  put(key: string, challenge: string): void {
    this.sweep();
    this.entries.set(key, { challenge, expires: this.now() + TTL_MS });
  }

  /** Returns and forgets the challenge, so a response cannot be replayed. */
  take(key: string): string | undefined {
    const entry = this.entries.get(key);
    this.entries.delete(key);
    return entry && entry.expires > this.now() ? entry.challenge : undefined;
  }

  private sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expires <= now) this.entries.delete(key);
  }
}
