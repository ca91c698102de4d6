// Places of one kind on the node (a backup's restic readers, logged-in SFTP connections, a modpack's read or upload) where each
// server's owner and administrators keep some of their own. Bounded per server and on the node
// only, the places went to whoever took them first: co-users of a server (or one person's many
// accounts, each given a server or sharing one) held them all and the owner was refused. So each
// server keeps `keptPerServer` places for the calls its panel marks as its owner's or an
// administrator's; such a call takes its server's kept places first (leaving the others to the
// co-users), then one of the others. The kept places of the node are bounded by `keptPerNode`,
// apart from the others, so only other servers' owners and administrators ever fill them.
import { once } from "../core/once";

export interface PlaceLimits {
  /** Places of one server, kept ones aside. */
  perServer: number;
  /** Places of the node, kept ones aside. */
  perNode: number;
  /** Places each server keeps for its owner and administrators. */
  keptPerServer: number;
  /** Kept places of the node in all. */
  keptPerNode: number;
}

/** A place and the call that gives it back (once, whatever calls it), or which bound refused it. */
export type Taken = { give: () => void } | { full: "server" | "node" };

export class KeptPlaces {
  private readonly held = new Map<string, number>();
  private total = 0;
  private readonly kept = new Map<string, number>();
  private keptTotal = 0;

  /** `limits` is read at each take: a caller may change its bounds while places are held. */
  constructor(private readonly limits: () => PlaceLimits) {}

  /** One of `serverId`'s places; `owners`: the call is its owner's or an administrator's, which may take a kept one. */
  take(serverId: string, owners = false): Taken {
    const limits = this.limits();
    const mineKept = this.kept.get(serverId) ?? 0;
    if (owners && mineKept < limits.keptPerServer && this.keptTotal < limits.keptPerNode) return { give: this.count(this.kept, serverId, 1) };
    const mine = this.held.get(serverId) ?? 0;
    if (mine >= limits.perServer) return { full: "server" };
    if (this.total >= limits.perNode) return { full: "node" };
    return { give: this.count(this.held, serverId, 0) };
  }

  private count(counts: Map<string, number>, serverId: string, kept: 0 | 1): () => void {
    counts.set(serverId, (counts.get(serverId) ?? 0) + 1);
    this.add(kept, 1);
    return once(() => {
      this.add(kept, -1);
      const left = (counts.get(serverId) ?? 1) - 1;
      if (left > 0) counts.set(serverId, left);
      else counts.delete(serverId);
    });
  }

  private add(kept: 0 | 1, by: number): void {
    if (kept) this.keptTotal += by;
    else this.total += by;
  }
}
