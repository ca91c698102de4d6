// Node: edit the node (with its tags and draining), delete it, the
// deployment instructions for its machine (NodeDeployment; shown only to nodes.deploy, since the
// config holds the secret), its pool of ports, and power actions on many of its servers at once.
import type { NodeDeployment, NodeView } from "../../server/services/nodes";
import { Shell } from "../layout/Shell";
import { PageContext, usePage, type PageContextValue } from "../context";
import { Alert } from "../components/Alert";
import { RelativeTime } from "../components/RelativeTime";
import { ConfirmActions, ModalDetails } from "../components/Modal";
import { NodeForm, NODE_FIELDS, type NodeFormValues } from "../components/NodeForm";
import type { FormError } from "../components/form-errors";
import { LocalBadge, NodeStatus, PlacementBadges } from "./NodesPage";
import { PLACEMENT_FIELDS, type NodePlacementValues } from "../components/NodePlacementFields";
import { NodePortsCard, type NodePortsCardProps } from "../components/NodePortsCard";
import { NodePowerCard, type NodePowerCardProps } from "../components/NodePowerCard";
import { NodeTransfersCard } from "../components/NodeTransfersCard";
import { NodeBalanceCard, type NodeBalanceCardProps } from "../components/NodeBalanceCard";
import type { Params } from "../../core/i18n/translate";
import { DEPLOYMENT_ANCHOR, Deployment, type Onboarding } from "./NodeDeployment";
import type { LimitMechanism, NodeIsolation } from "../../server/node-isolation";
import type { TargetView } from "../../core/backups";
import { BackupTargetsCard } from "../components/BackupTargetsCard";

export { DEPLOYMENT_ANCHOR };

export interface NodePageProps {
  node: NodeView;
  /** What the form shows: the node, or what was posted when the update failed. */
  values: NodeFormValues;
  canEdit: boolean;
  /** may change where the node is reached (administrators only) */
  canMove: boolean;
  /** Present only for a holder of nodes.deploy. */
  deployment?: NodeDeployment;
  onboarding: Onboarding;
  /** may change panel settings (the master URL the deployment warns about) */
  canEditSettings: boolean;
  error?: FormError & { section: "details" | "delete" };
  /** What the node last said of its isolation; null before it has answered. */
  isolation: NodeIsolation | null;
  /** The node's backup targets, for administrators (targets null: the node did not answer, error says why). */
  backupTargets?: { targets: TargetView[] | null; error?: string };
  /** What the form's tags and draining show: the node's, or what was posted when the update failed. */
  placement: NodePlacementValues;
  /** The Ports card (its forms for nodes.edit only: canEdit). */
  pool: Omit<NodePortsCardProps, "nodeId" | "canEdit">;
  /** The bulk power card, with the last post's outcome. */
  power: Omit<NodePowerCardProps, "nodeId">;
  /** Evacuating and rebalancing, for administrators. */
  balance?: Omit<NodeBalanceCardProps, "nodeId" | "draining">;
  /** Moves of servers to or from this node under way, for administrators. */
  transfers?: Parameters<typeof NodeTransfersCard>[0]["transfers"];
}

export function nodeFormValues(node: NodeView): NodeFormValues {
  return {
    name: node.name,
    publicHost: node.publicHost,
    publicPort: String(node.publicPort),
    privateHost: node.privateHost,
    privatePort: String(node.privatePort),
    sftpPort: String(node.sftpPort),
    internalHost: node.internalHost ?? "",
  };
}

export function nodePlacementValues(node: NodeView): NodePlacementValues {
  return { tags: node.tags.join(", "), draining: node.draining };
}

/** The toast of a post answered with this page (a refusal, or bulk power's outcome), if any. */
function toastOf({ error, pool, power }: NodePageProps): { key: string; error?: boolean; params?: Params } | undefined {
  if (error?.section === "details") return { key: "nodes.updateFailed", error: true };
  if (pool.error) return { key: pool.error.form === "add" ? "nodes.pool.addFailed" : "nodes.pool.removeFailed", error: true };
  if (power.error) return { key: "nodes.power.noneAsked", error: true };
  if (!power.outcome) return undefined;
  const asked = power.outcome.outcomes.filter((o) => o.ok).length;
  if (power.outcome.outcomes.length === 0) return { key: "nodes.power.nothing", error: true };
  if (asked === 0) return { key: "nodes.power.noneAsked", error: true };
  return { key: `nodes.power.asked.${power.outcome.action}`, params: { count: asked } };
}

/** The page's translator with `params` filled in for `key`: a toast names only its key. */
function bind(page: PageContextValue, key: string, params: Params): PageContextValue["t"] {
  return Object.assign((k: string, p?: Params) => page.t(k, k === key ? { ...params, ...p } : p), { locale: page.t.locale });
}

export function NodePage(props: NodePageProps) {
  const page = usePage();
  // A failed update, a refused pool form and bulk power are answered with this page, not a
  // redirect, so their toast is given to the toast region here instead of through a flash cookie.
  const toast = toastOf(props);
  const value = toast ? { ...page, flash: { key: toast.key, error: toast.error }, t: toast.params ? bind(page, toast.key, toast.params) : page.t } : page;
  return (
    <PageContext.Provider value={value}>
      <NodeScreen {...props} />
    </PageContext.Provider>
  );
}

/** When the node last answered, and which panel process asked (several panels may share a database). */
function LastContact({ node }: { node: NodeView }) {
  const { t } = usePage();
  return (
    <p className="muted node-contact" data-testid="node-contact">
      {t("nodes.lastContact")}: {node.lastSeenAt === null ? t("nodes.neverSeen") : <RelativeTime at={node.lastSeenAt} now={Date.now()} />}
      {node.lastPanel ? <> · {t("nodes.byPanel", { panel: node.lastPanel })}</> : null}
    </p>
  );
}

function NodeScreen({ node, values, canEdit, canMove, deployment, onboarding, canEditSettings, error, isolation, backupTargets, placement, pool, power, transfers, balance }: NodePageProps) {
  const { t } = usePage();
  return (
    <Shell title={`${node.name} · ${t("page.node.title")}`}>
      <div className="page-header">
        <h1 className="node-title">
          <span>{node.name}</span>
          <NodeStatus status={node.status} />
          {node.isLocal ? <LocalBadge /> : null}
          <PlacementBadges node={node} />
        </h1>
        {/* The local node is made again at every start, so deleting it would not last. */}
        {canEdit && !node.isLocal ? (
          <div className="page-actions">
            <ModalDetails summary={t("nodes.delete")} summaryClass="btn btn-danger-text" title={t("nodes.delete")} testId="delete-node">
              <form method="post" action={`/node/${node.id}/delete`} className="stack">
                <p>{t("nodes.deleteConfirm", { name: node.name })}</p>
                <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
              </form>
            </ModalDetails>
          </div>
        ) : null}
      </div>
      <LastContact node={node} />
      {isolation && !isolation.sandboxed ? <IsolationWarning isolation={isolation} /> : null}
      {isolation?.network === false ? <NetworkWarning isolation={isolation} /> : null}
      {isolation?.limits ? <LimitsNote mechanism={isolation.limits} /> : null}
      {error?.section === "delete" ? (
        <Alert kind="error">
          <strong>{t("nodes.deleteFailed")}</strong>
          <p className="node-alert-text">{error.message}</p>
        </Alert>
      ) : null}
      <div className="grid-2 node-grid">
        <section className="card stack">
          <h2>{t("nodes.details")}</h2>
          {error?.section === "details" ? (
            <Alert kind="error">
              <strong>{t("nodes.updateFailed")}</strong>
              {/* A refusal about one field is said at that field instead. */}
              {([...NODE_FIELDS, ...PLACEMENT_FIELDS] as readonly string[]).includes(error.field ?? "") ? null : <p className="node-alert-text">{error.message}</p>}
            </Alert>
          ) : null}
          <NodeForm action={`/node/${node.id}`} values={values} submitLabel={t("common.save")} canEdit={canEdit} canMove={canMove} panelManaged={node.isLocal} error={error?.section === "details" ? error : undefined} placement={placement} />
        </section>
        {node.isLocal ? (
          <section className="card stack" id={DEPLOYMENT_ANCHOR}>
            <h2>{t("nodes.deployment")}</h2>
            <p>{t("nodes.localDeployment")}</p>
            <p className="muted">{t("nodes.localDeploymentMore")}</p>
          </section>
        ) : deployment ? (
          <Deployment node={node} deployment={deployment} onboarding={onboarding} canEditSettings={canEditSettings} />
        ) : null}
      </div>
      <NodePortsCard nodeId={node.id} canEdit={canEdit} {...pool} />
      <NodePowerCard nodeId={node.id} {...power} />
      {transfers ? <NodeTransfersCard transfers={transfers} /> : null}
      {balance ? <NodeBalanceCard nodeId={node.id} draining={node.draining} {...balance} /> : null}
      {backupTargets ? <BackupTargetsCard nodeId={node.id} targets={backupTargets.targets} error={backupTargets.error} /> : null}
    </Shell>
  );
}

/** A node that cannot sandbox its servers: they can reach the node (auto), or do not start (required). */
function IsolationWarning({ isolation }: { isolation: NodeIsolation }) {
  const { t } = usePage();
  const why = t(isolation.problem === "unusable" ? "nodes.isolation.unusable" : "nodes.isolation.missing");
  return (
    <div data-testid="isolation-warning">
      <Alert kind={isolation.mode === "required" ? "error" : "warning"}>
        <strong>{t(isolation.mode === "required" ? "nodes.isolation.refusing" : "nodes.isolation.unsandboxed")}</strong>
        <p className="node-alert-text">{why} {t("nodes.isolation.fix")}</p>
      </Alert>
    </div>
  );
}

/** A node that cannot give its servers networks of their own: they reach its services and each other (auto), or do not start (required). */
function NetworkWarning({ isolation }: { isolation: NodeIsolation }) {
  const { t } = usePage();
  return (
    <div data-testid="network-warning">
      <Alert kind={isolation.mode === "required" ? "error" : "warning"}>
        <strong>{t(isolation.mode === "required" ? "nodes.network.refusing" : "nodes.network.shared")}</strong>
        <p className="node-alert-text">{t("nodes.network.fix")}</p>
      </Alert>
    </div>
  );
}

/**
 * How the node enforces servers' memory, CPU and process limits, shown so an administrator knows
 * how far they hold on this node.
 */
function LimitsNote({ mechanism }: { mechanism: LimitMechanism }) {
  const { t } = usePage();
  const text = <p className="muted" data-testid="limits-mechanism">{t(`nodes.limits.${mechanism}`)}</p>;
  return mechanism === "none" ? <Alert kind="warning">{text}</Alert> : text;
}
