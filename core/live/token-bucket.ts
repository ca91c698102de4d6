// A token bucket: `rate` tokens per second on average, up to `burst` at once. An action costs one
// token unless it says otherwise (a console replay costs the characters it encodes).

export class TokenBucket {
  private tokens: number;
  private last = performance.now();

  constructor(
    private readonly rate: number,
    private readonly burst: number,
  ) {
    this.tokens = burst;
  }

  /** Whether `cost` tokens are there now, taking none. A cost above the burst needs a full bucket. */
  has(cost = 1): boolean {
    this.refill();
    return this.tokens >= Math.min(cost, this.burst);
  }

  /** Takes `cost` tokens if they are there; false, and nothing taken, if not. */
  take(cost = 1): boolean {
    if (!this.has(cost)) return false;
    this.tokens -= Math.min(cost, this.burst);
    return true;
  }

  private refill(): void {
    const now = performance.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.rate);
    this.last = now;
  }
}
