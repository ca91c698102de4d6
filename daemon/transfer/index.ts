// Moving a server between nodes, the node's side: the offers this node makes as a source, and the
// pulls it runs as a target. One of each per node; a server deleted here takes its offer and its
// pull with it.
import type { ServerManager } from "../servers/manager";
import { TransferOffers } from "./offers";
import { TransferPulls, type PullOptions } from "./pull";

export interface Transfers {
  offers: TransferOffers;
  pulls: TransferPulls;
}

export function createTransfers(manager: ServerManager, options: PullOptions = {}): Transfers {
  const transfers = { offers: new TransferOffers(), pulls: new TransferPulls(manager, options) };
  manager.onRemove((id) => {
    transfers.offers.revoke(id);
    transfers.pulls.forget(id);
  });
  return transfers;
}

export { TransferOffers, TransferPulls };
