// The node's servers on its page with Start / Stop / Restart / Kill for the ticked ones, or for
// every one when none is ticked (server/services/nodes/bulk-power.ts checks each server's rights).
// A plain form: the post answers with the page again, the toast saying how many were asked and
// this card listing the servers that refused or failed, with why.
import type { BulkOutcome } from "../../server/services/nodes/bulk-power";
import { usePage } from "../context";
import { Alert } from "./Alert";

export const POWER_ANCHOR = "power";
/** The bulk actions; install rebuilds servers, so it is not one. */
export const BULK_ACTIONS = ["start", "stop", "restart", "kill"] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

export interface NodePowerCardProps {
  nodeId: number;
  /** the node's servers the viewer may see, by name (at most a page of them) */
  servers: { id: string; name: string }[];
  /** how many there are in all */
  total: number;
  /** what the last post asked and how each server answered; its ticked servers stay ticked */
  outcome?: { action: BulkAction; selected: string[]; outcomes: BulkOutcome[] };
  /** the last post's refusal as a whole (an unknown action, a server no longer there) */
  error?: string;
}

export function NodePowerCard({ nodeId, servers, total, outcome, error }: NodePowerCardProps) {
  const { t } = usePage();
  const failed = outcome?.outcomes.filter((o) => !o.ok) ?? [];
  const selected = new Set(outcome?.selected ?? []);
  return (
    <section className="card stack node-power" id={POWER_ANCHOR} data-testid="node-power">
      <h2>{t("nodes.power.title")}</h2>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {failed.length > 0 ? (
        <div data-testid="power-failed">
          <Alert kind="error">
            <strong>{t("nodes.power.failed", { count: failed.length })}</strong>
            <ul className="node-power-failures">
              {failed.map((o) => (
                <li key={o.serverId} data-server={o.serverId}>
                  <strong>{o.name}</strong>
                  {`: ${t(`errors.${o.error ?? "ErrServiceNotAvailable"}`)}`}
                </li>
              ))}
            </ul>
          </Alert>
        </div>
      ) : null}
      {servers.length === 0 ? (
        <p className="muted" data-testid="power-none">{t("nodes.power.none")}</p>
      ) : (
        <form method="post" action={`/node/${nodeId}/power#${POWER_ANCHOR}`} className="stack">
          <p className="muted small">{t("nodes.power.intro")}</p>
          <ul className="node-power-list">
            {servers.map((server) => (
              <li key={server.id}>
                <label className="check-row">
                  <input type="checkbox" name="servers" value={server.id} defaultChecked={selected.has(server.id)} />
                  <span>{server.name}</span>
                </label>
              </li>
            ))}
          </ul>
          {total > servers.length ? <p className="muted small">{t("nodes.power.more", { shown: servers.length, count: total })}</p> : null}
          <div className="row-actions" role="group" aria-label={t("nodes.power.actions")}>
            {BULK_ACTIONS.map((action) => (
              <button key={action} type="submit" name="action" value={action} className={action === "kill" ? "btn btn-danger-text" : "btn"}>
                {t(`controls.${action}`)}
              </button>
            ))}
          </div>
        </form>
      )}
    </section>
  );
}
