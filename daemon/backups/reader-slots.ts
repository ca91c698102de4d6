// How many restic processes read a snapshot for users at once (a download's `restic find` and
// `restic dump`, a browse's `restic ls`): each costs restic's key derivation (about 60 MiB and half
// a second of a core) and reads the repository as long as it runs, and each was started per
// request, so a user with `backups` could start as many as they sent requests. At most
// `perServer` per server and `perNode` on the node; past either, ErrTooManyRequests, and nothing
// is started. A slot is given back when its restic has ended.
import { KilnError } from "../../core/errors";
import { once } from "../../core/once";

export interface ReaderLimits {
  perServer: number;
  perNode: number;
}

export const DEFAULT_READER_LIMITS: ReaderLimits = { perServer: 2, perNode: 8 };

export class ReaderSlots {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(public limits: ReaderLimits = { ...DEFAULT_READER_LIMITS }) {}

  /** A slot for one of `serverId`'s readers, and the call that gives it back (once, whatever calls it). */
  take(serverId: string): () => void {
    const mine = this.held.get(serverId) ?? 0;
    if (mine >= this.limits.perServer) throw new KilnError("ErrTooManyRequests", { max: this.limits.perServer }, "too many backup downloads or listings of this server at once");
    if (this.total >= this.limits.perNode) throw new KilnError("ErrTooManyRequests", { max: this.limits.perNode }, "too many backup downloads or listings on this node at once");
    this.held.set(serverId, mine + 1);
    this.total++;
    return once(() => {
      this.total--;
      const left = (this.held.get(serverId) ?? 1) - 1;
      if (left > 0) this.held.set(serverId, left);
      else this.held.delete(serverId);
    });
  }

  /** `work` in a slot of `serverId`'s, given back when it ends. */
  async within<T>(serverId: string, work: () => Promise<T>): Promise<T> {
    const give = this.take(serverId);
    try {
      return await work();
    } finally {
      give();
    }
  }
}
