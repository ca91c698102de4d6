// Node list (spec section 2, Nodes): name, public address, SFTP port, status; Add for those who
// may edit nodes.
import type { NodeView } from "../../server/services/nodes";
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

export function NodesPage({ nodes, browserHost, canEdit }: { nodes: NodeView[]; browserHost: string; canEdit: boolean }) {
  const { t } = usePage();
  return (
    <Shell title={t("page.nodes.title")}>
      <PageHeader title={t("page.nodes.title")}>
        {canEdit ? <a className="btn btn-primary" href="/addnode">{t("nodes.add")}</a> : null}
      </PageHeader>
      <section className="card table-card">
        {nodes.length === 0 ? (
          <p className="empty-state">{t("nodes.none")}</p>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th>{t("nodes.field.name")}</th>
                <th>{t("nodes.publicAddress")}</th>
                <th>{t("nodes.field.sftpPort")}</th>
                <th>{t("nodes.status")}</th>
              </tr>
            </thead>
            <tbody>
              {nodes.map((node) => (
                <tr key={node.id} data-node={node.name}>
                  <td>
                    <span className="node-name">
                      <a href={`/node/${node.id}`}>{node.name}</a>
                      {node.isLocal ? <LocalBadge /> : null}
                    </span>
                  </td>
                  <td><code>{nodeAddress(node.publicHost, node.publicPort, browserHost)}</code></td>
                  <td>{node.sftpPort}</td>
                  <td><NodeStatus status={node.status} /></td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </Shell>
  );
}
