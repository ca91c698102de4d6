// How many restic processes read a snapshot for users at once (a download's `restic find` and
// `restic dump`, a browse's `restic ls`): each costs restic's key derivation (about 60 MiB and half
// a second of a core) and reads the repository as long as it runs, and each was started per
// request, so a user with `backups` could start as many as they sent requests. At most
// `perServer` per server and `perNode` on the node; past either, ErrTooManyRequests, and nothing
// is started. A slot is given back when its restic has ended.
//
// Beside those, each server has one reader kept for its owner and administrators (the calls the
// panel marks so, OWNERS_CALL_HEADER; ../kept-places): a download holds its reader as long as its
// reader takes a byte a minute, so co-users with `backups` held a server's two and the owner was
// refused, and accounts with `backups` on enough servers held the node's eight. The kept readers
// of the node are bounded by `perNode` too, apart from the others.
import { KilnError } from "../../core/errors";
import { KeptPlaces } from "../kept-places";

export interface ReaderLimits {
  perServer: number;
  perNode: number;
}

export const DEFAULT_READER_LIMITS: ReaderLimits = { perServer: 2, perNode: 8 };

export class ReaderSlots {
  private readonly places = new KeptPlaces(() => ({ ...this.limits, keptPerServer: 1, keptPerNode: this.limits.perNode }));

  constructor(public limits: ReaderLimits = { ...DEFAULT_READER_LIMITS }) {}

  /**
   * A slot for one of `serverId`'s readers, and the call that gives it back (once, whatever calls
   * it); `owners`: the call is the owner's or an administrator's, which may take the server's kept reader.
   */
  take(serverId: string, owners = false): () => void {
    const taken = this.places.take(serverId, owners);
    if ("give" in taken) return taken.give;
    if (taken.full === "server") throw new KilnError("ErrTooManyRequests", { max: this.limits.perServer }, "too many backup downloads or listings of this server at once");
    throw new KilnError("ErrTooManyRequests", { max: this.limits.perNode }, "too many backup downloads or listings on this node at once");
  }

  /** `work` in a slot of `serverId`'s, given back when it ends. */
  async within<T>(serverId: string, work: () => Promise<T>, owners = false): Promise<T> {
    const give = this.take(serverId, owners);
    try {
      return await work();
    } finally {
      give();
    }
  }
}
