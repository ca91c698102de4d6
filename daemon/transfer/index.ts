// Moving a server between nodes, the node's side: the offers this node makes as a source, and the
// pulls it runs as a target. One of each per node; a server deleted here takes its offer and its
// pull with it. A server whose folder is offered is held (servers/folder-changes): it does not
// start, restart or install, and no change to its folder or definition begins, whoever asks (a user
// at any door, the socket, a task): the move stopped it so its folder holds still, and a change made
// after the target copied that part would be lost at the switch. The panel revokes the offer of a
// move that failed before it starts the server again.
import { KilnError } from "../../core/errors";
import type { ServerManager } from "../servers/manager";
import { TransferOffers } from "./offers";
import { TransferPulls, type PullOptions } from "./pull";

export interface Transfers {
  offers: TransferOffers;
  pulls: TransferPulls;
}

export function createTransfers(manager: ServerManager, options: PullOptions = {}): Transfers {
  const transfers = { offers: new TransferOffers(), pulls: new TransferPulls(manager, options) };
  manager.onEachServer((server) => server.changes.holdWhile(() => (transfers.offers.isOffered(server.id) ? new KilnError("ErrTransferInProgress", { id: server.id }, "the server is being moved to another node") : null)));
  manager.onRemove((id) => {
    transfers.offers.revoke(id);
    transfers.pulls.forget(id);
  });
  return transfers;
}

export { TransferOffers, TransferPulls };
