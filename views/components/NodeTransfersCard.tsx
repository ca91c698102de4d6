// Moves under way to or from this node, on its page, each with its live progress (the server's own
// Admin tab has the Cancel button). Shown only while there is one.
import type { TransferView } from "../../core/transfer/view";
import { usePage } from "../context";
import { Island } from "./Island";
import TransferProgress from "../../islands/TransferProgress";

export function NodeTransfersCard({ transfers }: { transfers: (TransferView & { serverId: string; serverName: string })[] }) {
  const { t } = usePage();
  if (transfers.length === 0) return null;
  return (
    <section className="card stack node-transfers" data-testid="node-transfers">
      <h2>{t("transfer.nodeTitle")}</h2>
      {transfers.map((transfer) => (
        <div key={transfer.id} className="stack">
          <a href={`/server/${transfer.serverId}?tab=admin`}>{transfer.serverName}</a>
          <Island island={TransferProgress} props={{ serverId: transfer.serverId, transfer }} />
        </div>
      ))}
    </section>
  );
}
