// Node (spec section 2, Nodes): edit the node, delete it, and the deployment instructions for its
// machine (NodeDeployment; shown only to nodes.deploy, since the config holds the secret).
import type { NodeDeployment, NodeView } from "../../server/services/nodes";
import { Shell } from "../layout/Shell";
import { PageContext, usePage } from "../context";
import { Alert } from "../components/Alert";
import { ConfirmActions, ModalDetails } from "../components/Modal";
import { NodeForm, NODE_FIELDS, type NodeFormValues } from "../components/NodeForm";
import type { FormError } from "../components/form-errors";
import { LocalBadge, NodeStatus } from "./NodesPage";
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

export function NodePage(props: NodePageProps) {
  const page = usePage();
  // A failed update is answered with this page, not a redirect, so the spec's error toast is
  // given to the toast region here instead of through a flash cookie.
  const value = props.error?.section === "details" ? { ...page, flash: { key: "nodes.updateFailed", error: true } } : page;
  return (
    <PageContext.Provider value={value}>
      <NodeScreen {...props} />
    </PageContext.Provider>
  );
}

function NodeScreen({ node, values, canEdit, canMove, deployment, onboarding, canEditSettings, error, isolation, backupTargets }: NodePageProps) {
  const { t } = usePage();
  return (
    <Shell title={`${node.name} · ${t("page.node.title")}`}>
      <div className="page-header">
        <h1 className="node-title">
          <span>{node.name}</span>
          <NodeStatus status={node.status} />
          {node.isLocal ? <LocalBadge /> : null}
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
              {(NODE_FIELDS as readonly string[]).includes(error.field ?? "") ? null : <p className="node-alert-text">{error.message}</p>}
            </Alert>
          ) : null}
          <NodeForm action={`/node/${node.id}`} values={values} submitLabel={t("common.save")} canEdit={canEdit} canMove={canMove} panelManaged={node.isLocal} error={error?.section === "details" ? error : undefined} />
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

/** How the node enforces servers' memory, CPU and process limits (the issue asks the page to say). */
function LimitsNote({ mechanism }: { mechanism: LimitMechanism }) {
  const { t } = usePage();
  const text = <p className="muted" data-testid="limits-mechanism">{t(`nodes.limits.${mechanism}`)}</p>;
  return mechanism === "none" ? <Alert kind="warning">{text}</Alert> : text;
}
