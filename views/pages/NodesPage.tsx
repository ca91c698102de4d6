// Node list: name, public address and SFTP port,
// the kiln version and OS each node last reported, when it last answered, how many servers it
// holds, status; Add for those who may edit nodes, and an empty state that says what to do first.
import type { NodeView } from "../../server/services/nodes";
import type { NodeReport } from "../../server/node-report";
import { EmptyState } from "../components/EmptyState";
import { RelativeTime } from "../components/RelativeTime";
import { nodes as nodesIcon } from "../../islands/lib/icons";
import { DEFAULT_BIND_HOST } from "../../core/definition";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";

/**
 * host:port as a user would type it. `{ip}` (the local node's public host) stands for the address
 * the browser used to reach the panel; an IPv6 literal gets its brackets.
 */
export function nodeAddress(host: string, port: number, browserHost: string): string {
  const shown = host === DEFAULT_BIND_HOST ? browserHost : host;
  return `${shown.includes(":") && !shown.startsWith("[") ? `[${shown}]` : shown}:${port}`;
}

export function NodeStatus({ status }: { status: NodeView["status"] }) {
  const { t } = usePage();
  return <span className={status === "online" ? "badge badge-on" : "badge badge-off"} data-status={status}>{t(`nodes.status.${status}`)}</span>;
}

export function LocalBadge() {
  const { t } = usePage();
  return <span className="badge" title={t("nodes.localHint")}>{t("nodes.local")}</span>;
}

/** What placement reads of a node: "Draining" when it takes no new servers, then each of its tags. */
export function PlacementBadges({ node }: { node: Pick<NodeView, "tags" | "draining"> }) {
  const { t } = usePage();
  if (!node.draining && node.tags.length === 0) return null;
  return (
    <span className="node-badges" data-testid="node-placement">
      {node.draining ? <span className="badge badge-warn" data-draining="" title={t("nodes.drainingBadgeHint")}>{t("nodes.draining")}</span> : null}
      {node.tags.map((tag) => (
        // A tag reads left to right (location=eu) in every language.
        <bdi key={tag} className="badge node-tag" data-tag={tag} dir="ltr">{tag}</bdi>
      ))}
    </span>
  );
}

export interface NodeListEntry {
  node: NodeView;
  /** What the node last said of itself; null until it has answered a heartbeat. */
  report: NodeReport | null;
  servers: number;
}

export function NodesPage({ nodes, browserHost, canEdit, panelVersion }: { nodes: NodeListEntry[]; browserHost: string; canEdit: boolean; panelVersion: string }) {
  const { t } = usePage();
  const now = Date.now();
  return (
    <Shell title={t("page.nodes.title")}>
      <PageHeader title={t("page.nodes.title")}>
        {canEdit && nodes.length > 0 ? <a className="btn btn-primary" href="/addnode">{t("nodes.add")}</a> : null}
      </PageHeader>
      {nodes.length === 0 ? (
        <EmptyState icon={nodesIcon} message={t("nodes.none")} testId="nodes-empty">
          {canEdit ? <a className="btn btn-primary" href="/addnode">{t("nodes.addFirst")}</a> : <span>{t("nodes.noneAskAdmin")}</span>}
        </EmptyState>
      ) : (
        <section className="card table-card">
          <table className="data-table nodes-list" data-testid="nodes-list">
            <thead>
              <tr>
                <th>{t("nodes.field.name")}</th>
                <th>{t("nodes.publicAddress")}</th>
                <th>{t("nodes.version")}</th>
                <th>{t("nodes.os")}</th>
                <th>{t("nodes.lastContact")}</th>
                <th>{t("nodes.servers")}</th>
                <th>{t("nodes.status")}</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map(({ node, report, servers }) => (
                <tr key={node.id} data-node={node.name}>
                  <td className="nodes-list-name">
                    <span className="node-name">
                      <a href={`/node/${node.id}`}>{node.name}</a>
                      {node.isLocal ? <LocalBadge /> : null}
                    </span>
                    <PlacementBadges node={node} />
                  </td>
                  <td data-label={t("nodes.publicAddress")} data-cell="address">
                    {/* The local node's API listens on a loopback port users never reach: its servers are at the panel's address. */}
                    {node.isLocal ? <span>{t("nodes.inPanel")}</span> : <code>{nodeAddress(node.publicHost, node.publicPort, browserHost)}</code>}
                    <span className="muted small nodes-list-sftp">{t("nodes.sftpOn", { port: node.sftpPort })}</span>
                  </td>
                  <td data-label={t("nodes.version")} data-cell="version">
                    {report ? (
                      <>
                        <code>{report.version}</code>
                        {report.version !== panelVersion ? <span className="badge badge-warn" title={t("nodes.versionDiffersHint", { version: panelVersion })}>{t("nodes.versionDiffers")}</span> : null}
                      </>
                    ) : "—"}
                  </td>
                  <td data-label={t("nodes.os")} data-cell="os">{report?.os ? `${report.os} ${report.arch}`.trim() : "—"}</td>
                  <td data-label={t("nodes.lastContact")} data-cell="last-contact">{node.lastSeenAt === null ? t("nodes.neverSeen") : <RelativeTime at={node.lastSeenAt} now={now} />}</td>
                  <td data-label={t("nodes.servers")} data-cell="servers">
                    <a href={`/server?node=${node.id}`} className="nodes-list-count" aria-label={t("nodes.serversOn", { count: servers, name: node.name })} title={t("nodes.serversOn", { count: servers, name: node.name })}>{servers}</a>
                  </td>
                  <td data-label={t("nodes.status")} data-cell="status"><NodeStatus status={node.status} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </Shell>
  );
}
