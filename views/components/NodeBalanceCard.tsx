// The node page's card for moving servers off it (administrators): while it drains, Evacuate and
// the evacuation's progress; whenever it stayed loaded, the moves Kiln proposes, each accepted with
// its own button (a transfer, kept running while its files copy). Nothing here moves on its own.
import type { EvacuationView } from "../../server/services/placement/evacuate";
import type { RebalanceView } from "../../server/services/placement/rebalance";
import { usePage } from "../context";
import { formatBytes } from "../../core/units";

export interface NodeBalanceCardProps {
  nodeId: number;
  draining: boolean;
  evacuation: EvacuationView | null;
  rebalance: RebalanceView;
}

export function NodeBalanceCard({ nodeId, draining, evacuation, rebalance }: NodeBalanceCardProps) {
  const { t } = usePage();
  const percent = (value: number | null) => (value === null ? "—" : `${Math.round(value)} %`);
  return (
    <section className="card stack node-balance" id="balance" data-testid="node-balance">
      <h2>{t("nodes.balance.title")}</h2>
      {draining ? (
        <div className="stack">
          <p className="muted">{t("nodes.balance.evacuateHint")}</p>
          {evacuation ? (
            <ul className="sso-identities" data-testid="evacuation">
              {evacuation.servers.map((entry) => (
                <li key={entry.serverId}>
                  <a href={`/server/${entry.serverId}?tab=admin`} dir="auto">{entry.name}</a>
                  <span className={entry.state === "failed" ? "badge badge-warn" : "badge"}>
                    {t(`nodes.balance.state.${entry.state}`, { to: entry.to ?? "" })}
                    {entry.error ? ` · ${t(`errors.${entry.error}`)}` : null}
                  </span>
                </li>
              ))}
            </ul>
          ) : null}
          {evacuation?.state === "running" ? <p><a href={`/node/${nodeId}#balance`}>{t("backups.refresh")}</a></p> : (
            <form method="post" action={`/node/${nodeId}/evacuate#balance`}>
              <button type="submit" className="btn btn-primary">{t("nodes.balance.evacuate")}</button>
            </form>
          )}
        </div>
      ) : null}
      <p className="muted">
        {t("nodes.balance.load", { memory: percent(rebalance.memoryPercent), cpu: percent(rebalance.cpuPercent) })}{" "}
        {t("nodes.balance.rule", { memory: rebalance.thresholds.memoryPercent, cpu: rebalance.thresholds.cpuPercent, minutes: rebalance.thresholds.minutes })}
      </p>
      {rebalance.proposals.length > 0 ? (
        <ul className="sso-identities" data-testid="rebalance-proposals">
          {rebalance.proposals.map((proposal) => (
            <li key={proposal.serverId}>
              <span>{t("nodes.balance.proposal", { server: proposal.name, to: proposal.to, memory: formatBytes(proposal.memoryBytes, "binary", 1, t.locale) })}</span>
              <form method="post" action={`/server/${proposal.serverId}/transfer`}>
                <input type="hidden" name="node" value={proposal.toNodeId} />
                <input type="hidden" name="allocationPolicy" value="keep" />
                <input type="hidden" name="keepRunning" value="true" />
                <button type="submit" className="btn">{t("nodes.balance.accept")}</button>
              </form>
            </li>
          ))}
        </ul>
      ) : <p className="muted">{rebalance.loaded ? t("nodes.balance.noTarget") : rebalance.seenMinutes < rebalance.thresholds.minutes ? t("nodes.balance.watching", { seen: rebalance.seenMinutes, minutes: rebalance.thresholds.minutes }) : t("nodes.balance.none")}</p>}
    </section>
  );
}
