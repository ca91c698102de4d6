// The Admin tab's "Move to another node" card (administrators): the move under way with its live
// progress and a Cancel button, how the last one ended when it did not succeed, or the form that
// starts one (the node, the ports policy, whether it keeps running while its files copy). A move
// that left entries out (hard links, FIFOs, sockets, devices: the source cannot carry them) says so.
import { TRANSFER_ACTIVE_STATES, type TransferView } from "../../../core/transfer/view";
import { usePage } from "../../context";
import { Alert } from "../../components/Alert";
import { Island } from "../../components/Island";
import TransferProgress from "../../../islands/TransferProgress";
import { shownName } from "../../../core/files/shown-name";
import type { TransferSkipped } from "../../../core/transfer/wire";

export interface TransferCardProps {
  serverId: string;
  latest: TransferView | null;
  /** the nodes the server could move to (not its own) */
  nodes: { id: number; name: string; draining: boolean }[];
}

export function TransferCard({ serverId, latest, nodes }: TransferCardProps) {
  const { t } = usePage();
  const base = `/server/${serverId}/transfer`;
  const active = latest !== null && (TRANSFER_ACTIVE_STATES as readonly string[]).includes(latest.state);
  return (
    <section className="card stack" data-testid="server-transfer">
      <h2>{t("transfer.title")}</h2>
      {active ? (
        <>
          <Island island={TransferProgress} props={{ serverId, transfer: latest }} />
          {latest.state !== "starting" ? (
            <form method="post" action={`${base}/cancel`}>
              <button type="submit" className="btn btn-danger-text">{t("transfer.cancel")}</button>
            </form>
          ) : null}
        </>
      ) : (
        <>
          {latest && latest.state !== "done" && latest.error ? <Alert kind="error">{t("transfer.lastFailed", { to: latest.to, reason: t(`errors.${latest.error}`) })}</Alert> : null}
          {latest && latest.state === "done" && latest.skipped ? <Alert kind="warning">{t("transfer.leftOut", { to: latest.to, from: latest.from, count: latest.skipped.count, names: leftOutNames(latest.skipped) })}</Alert> : null}
          <p className="muted">{t("transfer.hint")}</p>
          {nodes.length === 0 ? <p className="muted">{t("transfer.noNodes")}</p> : (
            <form method="post" action={base} className="stack">
              <label className="field">
                <span className="field-label">{t("transfer.node")}</span>
                <select name="node" required>
                  {nodes.map((node) => (
                    <option key={node.id} value={node.id} disabled={node.draining}>{node.draining ? t("transfer.draining", { node: node.name }) : node.name}</option>
                  ))}
                </select>
              </label>
              <fieldset className="stack bare">
                <legend className="field-label">{t("transfer.ports")}</legend>
                <label className="check-row"><input type="radio" name="allocationPolicy" value="keep" defaultChecked /><span>{t("transfer.policy.keep")}</span></label>
                <label className="check-row"><input type="radio" name="allocationPolicy" value="new" /><span>{t("transfer.policy.new")}</span></label>
              </fieldset>
              <label className="check-row">
                <input type="checkbox" name="keepRunning" value="true" />
                <span>{t("transfer.keepRunning")}</span>
              </label>
              <div><button type="submit" className="btn btn-primary">{t("transfer.start")}</button></div>
            </form>
          )}
        </>
      )}
    </section>
  );
}

/** The entries a move left out, by their shown names (a server's process names them: core/files/shown-name), "…" when there were more. */
function leftOutNames(skipped: TransferSkipped): string {
  const names = skipped.paths.map(({ path }) => shownName(path)).join(", ");
  return skipped.count > skipped.paths.length ? `${names}, …` : names;
}
