// A node's deployment section: one command that installs and starts the
// node on its machine, or the same by hand (download kiln from this panel, write the config, run
// it), each with a copy button; a warning when the panel's master URL is unset, since the node
// would then be told to reach the panel at whatever address this browser used.
import type { NodeDeployment, NodeView } from "../../server/services/nodes";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { Icon } from "../../islands/lib/Icon";
import { download as downloadIcon } from "../../islands/lib/icons";
import { CopyButton } from "../components/CopyButton";
import { nodeAddress } from "./NodesPage";
import { nodeExecutablePath } from "../../core/nodes";
import type { ExecutableState } from "../../server/services/nodes/executable";
import { formatBytes } from "../../core/units";

export const DEPLOYMENT_ANCHOR = "deployment";

/** What the panel knows of its own side of onboarding. */
export interface Onboarding {
  /** The master URL setting is set (else the commands use the address the browser used). */
  masterUrlSet: boolean;
  /** The kiln executable the panel hands out: ready (with its size), being built from this checkout, or none. */
  executable: ExecutableState;
  /** The OS and architecture that executable runs on (the panel's own); null when an operator chose the file. */
  platform: string | null;
}

/** The node would fetch its secret, and later talk to the panel, unencrypted over a network. */
function crossesInTheClear(panelUrl: string): boolean {
  const { protocol, hostname } = new URL(panelUrl);
  return protocol === "http:" && !["localhost", "127.0.0.1", "[::1]"].includes(hostname);
}

function CopyBlock({ value, what, testId }: { value: string; what: string; testId: string }) {
  return (
    <div className="copy-block">
      {/* Commands and JSON read left to right in every language. */}
      <pre data-testid={testId} dir="ltr">
        {value}
      </pre>
      <CopyButton value={value} what={what} />
    </div>
  );
}

export function Deployment({ node, deployment, onboarding, canEditSettings }: { node: NodeView; deployment: NodeDeployment; onboarding: Onboarding; canEditSettings: boolean }) {
  const { t, locale } = usePage();
  const state = onboarding.executable;
  // Being built counts as offered: the download (and so the install line) waits for the build.
  const offered = state.kind === "ready" || state.kind === "building" || state.kind === "buildable";
  const size = state.kind === "ready" ? formatBytes(state.size, "binary", 1, locale.replace("_", "-")) : null;
  const until = new Date(deployment.tokenExpiresAt).toLocaleTimeString(locale.replace("_", "-"), { hour: "2-digit", minute: "2-digit" });
  const config = JSON.stringify(deployment.config, null, 2);
  return (
    <section className="card stack node-deploy" id={DEPLOYMENT_ANCHOR} data-testid="deployment">
      <h2>{t("nodes.deployment")}</h2>
      {onboarding.masterUrlSet ? null : (
        <div data-testid="master-url-warning">
          <Alert kind="warning">
            <strong>{t("nodes.masterUrlUnset")}</strong>
            <p className="node-alert-text">
              {t("nodes.masterUrlUnsetMore", { url: deployment.config.panelUrl })}{" "}
              {canEditSettings ? <a href="/settings">{t("nodes.masterUrlSet")}</a> : t("nodes.masterUrlAskAdmin")}
            </p>
          </Alert>
        </div>
      )}
      {crossesInTheClear(deployment.config.panelUrl) ? (
        <div data-testid="plain-http-warning">
          <Alert kind="warning">{t("nodes.plainHttp")}</Alert>
        </div>
      ) : null}
      {offered ? (
        <div className="stack node-install">
          <h3>{t("nodes.install.title")}</h3>
          <p className="muted">{t("nodes.install.service", { path: deployment.configPath, unit: deployment.service.path })}</p>
          {size ? (
            <p className="muted" data-testid="download-size">
              {t("nodes.install.size", { size })}
            </p>
          ) : state.kind === "building" ? (
            <div data-testid="executable-building">
              <Alert kind="info">{t("nodes.install.building")}</Alert>
            </div>
          ) : (
            <div data-testid="executable-buildable" className="stack">
              <Alert kind="info">{t("nodes.install.buildable")}</Alert>
              <form method="post" action={`/node/${node.id}/build-executable`}>
                <button type="submit" className="btn">{t("nodes.install.buildNow")}</button>
              </form>
            </div>
          )}
          <CopyBlock value={deployment.install} what={t("nodes.install.what")} testId="deployment-install" />
          <p className="field-hint">{t("nodes.install.token", { time: until })}</p>
        </div>
      ) : (
        <div data-testid="no-executable">
          <Alert kind="info">{state.kind === "failed" ? t("nodes.install.buildFailed", { reason: state.reason }) : t("nodes.noExecutable")}</Alert>
        </div>
      )}
      <h3>{t(offered ? "nodes.manual.title" : "nodes.manual.only")}</h3>
      <ol className="node-steps">
        <li>
          {offered ? (
            <>
              <span>{t("nodes.step.download")}</span>
              {onboarding.platform ? <span className="field-hint node-platform">{t("nodes.step.platform", { platform: onboarding.platform })}</span> : null}
              <div className="node-download">
                <a className="btn" href={nodeExecutablePath(node.id)} download="kiln" data-testid="download-kiln">
                  <Icon path={downloadIcon} size={18} />
                  <span>{size ? t("nodes.downloadKilnSize", { size }) : t("nodes.downloadKiln")}</span>
                </a>
              </div>
            </>
          ) : (
            t("nodes.step.binary")
          )}
        </li>
        <li>
          <span>{t("nodes.step.config", { path: deployment.configPath })}</span>
          <CopyBlock value={config} what={t("nodes.manual.configWhat")} testId="deployment-config" />
        </li>
        <li>
          <span>{t("nodes.step.run")}</span>
          <CopyBlock value={deployment.command} what={t("nodes.manual.commandWhat")} testId="deployment-command" />
        </li>
        <li>
          <span>{t("nodes.step.service", { path: deployment.service.path })}</span>
          <CopyBlock value={deployment.service.unit} what={t("nodes.manual.unitWhat")} testId="deployment-unit" />
          <CopyBlock value={deployment.service.enable} what={t("nodes.manual.enableWhat")} testId="deployment-enable" />
        </li>
      </ol>
      <p className="field-hint">{t("nodes.reachHint", { address: nodeAddress(node.privateHost, node.privatePort, node.privateHost), sftpPort: node.sftpPort })}</p>
      <Alert kind="warning">{t("nodes.secretWarning")}</Alert>
    </section>
  );
}
