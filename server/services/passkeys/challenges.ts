// WebAuthn challenges waiting for their answer: kept for five minutes, used once. In the database,
// so the answer may reach another panel process than the one that asked (a round-robin balancer).
import type { Db } from "../../../db";
import { countLive, putValue, takeValue } from "../cluster/one-time-values";

const TTL_MS = 5 * 60 * 1000;
const KIND = "passkey-challenge";
/** Challenges waiting at once, from everyone: past it a new sign-in is refused until some lapse or are used. */
export const MAX_WAITING_CHALLENGES = 10_000;

export class ChallengeStore {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  async put(key: string, challenge: string): Promise<void> {
    await putValue(this.db, KIND, key, challenge, this.now() + TTL_MS);
  }

  /** How many challenges wait for their answer now. */
  async waiting(): Promise<number> {
    return await countLive(this.db, KIND, this.now());
  }

  /** Returns and forgets the challenge, so a response cannot be replayed. */
  async take(key: string): Promise<string | undefined> {
    return await takeValue(this.db, KIND, key, this.now());
  }
}
