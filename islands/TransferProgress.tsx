// A move of the server to another node under way, on the Admin tab: rendered by the server with
// the figures it had (Refresh works without script); in the browser it asks every second and
// reloads the tab when the move has ended, so the page shows where the server is now.
import { useState } from "react";
import { useProgressPoll } from "./lib/use-progress-poll";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { formatBytes } from "../core/units";
import { TRANSFER_ACTIVE_STATES, type TransferView } from "../core/transfer/view";

export interface TransferProgressProps {
  serverId: string;
  transfer: Pick<TransferView, "state" | "from" | "to" | "bytes" | "totalBytes" | "rate" | "eta">;
}

const POLL_MS = 1000;
const ACTIVE = new Set<string>(TRANSFER_ACTIVE_STATES);

function TransferProgressView({ serverId, transfer: initial }: TransferProgressProps) {
  const t = useT();
  const [transfer, setTransfer] = useState(initial);
  useProgressPoll<TransferProgressProps["transfer"] | null>(`/api/servers/${serverId}/transfer`, POLL_MS, (now) => {
    const going = now !== null && ACTIVE.has(now.state);
    if (going) setTransfer(now);
    return going;
  });
  const bytes = (n: number) => formatBytes(n, "binary", 1, t.locale);
  return (
    <div className="stack transfer-progress" role="status" data-testid="transfer-progress">
      <p>
        <strong>{t(`transfer.state.${transfer.state}`, { from: transfer.from, to: transfer.to })}</strong>{" "}
        <a href={`/server/${serverId}?tab=admin`}>{t("backups.refresh")}</a>
      </p>
      {transfer.totalBytes > 0 ? <progress max={transfer.totalBytes} value={transfer.bytes} /> : null}
      <p className="muted small">
        {t("transfer.figures", { done: bytes(transfer.bytes), total: bytes(transfer.totalBytes), rate: bytes(transfer.rate) })}
        {transfer.eta !== null ? ` · ${t("transfer.eta", { seconds: transfer.eta })}` : null}
      </p>
    </div>
  );
}

export default defineIsland<TransferProgressProps>({
  name: "TransferProgress",
  component: TransferProgressView,
  messages: ["transfer.state.", "transfer.figures", "transfer.eta", "backups.refresh"],
  hydrate: "load",
});
