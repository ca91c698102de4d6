// Server list: a status dot, name and id, node, address,
// owner, players, CPU and memory per server; search, node and status filters and sorting in a GET form and
// the column headings, so all of it works without script; a table on wide screens and cards on
// phones (CSS alone). The live CPU and memory come from the ServerListLive island.
import type { ListedServer, ServerSort } from "../../server/services/servers/search";
import type { LiveStatus } from "../../server/services/servers/live-values";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { servers as serversIcon } from "../../islands/lib/icons";
import { EmptyState } from "../components/EmptyState";
import { NoAccessWhatNext } from "../components/NoAccessWhatNext";
import { Pager } from "../components/Pager";
import { Island } from "../components/Island";
import ServerListLive from "../../islands/ServerListLive";
import { playersText } from "../../core/players/players-text";
import type { PlayerCounts } from "../../core/players/players-state";

export interface ListQuery {
  q: string;
  nodeId: number | null;
  status: LiveStatus | null;
  sort: ServerSort;
  descending: boolean;
}

export interface ListRow extends ListedServer {
  /** as the node said when the page was made */
  status: LiveStatus;
  /** online/max when the reader may see players and the server runs; null: its query gave no answer */
  players?: PlayerCounts;
}

export interface ServersPageProps {
  servers: ListRow[];
  query: ListQuery;
  nodes: { id: number; name: string }[];
  page: number;
  pages: number;
  total: number;
  /** the status filter looked at only the first STATUS_SCAN_MAX matches */
  scanCapped: boolean;
  canCreate: boolean;
}

/** The list's address with `changes` applied (defaults left out, so addresses stay short). */
export function listHref(query: ListQuery, changes: Partial<ListQuery> & { page?: number } = {}): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.nodeId !== null) params.set("node", String(next.nodeId));
  if (next.status) params.set("status", next.status);
  if (next.sort !== "name") params.set("sort", next.sort);
  if (next.descending) params.set("dir", "desc");
  if (changes.page && changes.page > 1) params.set("page", String(changes.page));
  const text = params.toString();
  return text ? `/server?${text}` : "/server";
}

function SortHeading({ query, sort, label }: { query: ListQuery; sort: ServerSort; label: string }) {
  const active = query.sort === sort;
  const descending = active && !query.descending;
  return (
    <th aria-sort={active ? (query.descending ? "descending" : "ascending") : undefined}>
      <a href={listHref(query, { sort, descending })} className="sort-link">
        {label}
        {active ? <span aria-hidden="true">{query.descending ? " ↓" : " ↑"}</span> : null}
      </a>
    </th>
  );
}

/**
 * An empty list says why and what next: a filter that matched nothing
 * offers to clear it; someone who may create servers is offered the first one; anyone else (a
 * self-registered user, say) learns that an administrator must give them access.
 */
function NoServers({ filtered, query, canCreate }: { filtered: boolean; query: ListQuery; canCreate: boolean }) {
  const { t } = usePage();
  if (filtered) {
    return (
      <EmptyState icon={serversIcon} message={t("serverList.noMatch")} testId="servers-empty">
        <a className="btn" href={listHref({ ...query, q: "", nodeId: null, status: null })}>{t("serverList.clear")}</a>
      </EmptyState>
    );
  }
  if (canCreate) {
    return (
      <EmptyState icon={serversIcon} message={t("page.servers.emptyCreate")} testId="servers-empty">
        <a className="btn btn-primary" href="/addserver">{t("servers.addFirst")}</a>
      </EmptyState>
    );
  }
  return (
    <EmptyState icon={serversIcon} message={<strong>{t("serverList.noAccess")}</strong>} testId="servers-empty">
      <span className="empty-state-note"><NoAccessWhatNext /></span>
    </EmptyState>
  );
}

export function ServersPage({ servers, query, nodes, page, pages, total, scanCapped, canCreate }: ServersPageProps) {
  const { t } = usePage();
  const filtered = query.q !== "" || query.nodeId !== null || query.status !== null;
  const ids = servers.map((s) => s.id);
  /** no server to list at all: the empty state alone says what to do first */
  const none = !filtered && total === 0;
  return (
    <Shell title={t("page.servers.title")}>
      <PageHeader title={t("page.servers.title")}>
        {canCreate && !none ? <a className="btn btn-primary" href="/addserver">{t("servers.add")}</a> : null}
      </PageHeader>
      {!none ? (
        <form method="get" action="/server" className="card servers-filter" role="search" data-testid="servers-filter">
          <label className="field servers-filter-q">
            <span className="field-label">{t("serverList.search")}</span>
            <input type="search" name="q" defaultValue={query.q} maxLength={64} placeholder={t("serverList.searchPlaceholder")} dir="auto" />
          </label>
          <label className="field">
            <span className="field-label">{t("servers.node")}</span>
            <select name="node" defaultValue={query.nodeId === null ? "" : String(query.nodeId)}>
              <option value="">{t("serverList.allNodes")}</option>
              {nodes.map((n) => (
                <option key={n.id} value={String(n.id)}>{n.name}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">{t("serverList.status")}</span>
            <select name="status" defaultValue={query.status ?? ""}>
              <option value="">{t("serverList.anyStatus")}</option>
              <option value="online">{t("serverStatus.online")}</option>
              <option value="offline">{t("serverStatus.offline")}</option>
            </select>
          </label>
          <label className="field">
            <span className="field-label">{t("serverList.sort")}</span>
            <select name="sort" defaultValue={query.sort}>
              {(["name", "node", "owner"] as const).map((s) => (
                <option key={s} value={s}>{t(`serverList.sortBy.${s}`)}</option>
              ))}
            </select>
          </label>
          <label className="field">
            <span className="field-label">{t("serverList.order")}</span>
            <select name="dir" defaultValue={query.descending ? "desc" : "asc"}>
              <option value="asc">{t("serverList.ascending")}</option>
              <option value="desc">{t("serverList.descending")}</option>
            </select>
          </label>
          <div className="servers-filter-actions">
            <button type="submit" className="btn btn-primary">{t("serverList.apply")}</button>
            {filtered ? <a className="btn" href={listHref({ ...query, q: "", nodeId: null, status: null })}>{t("serverList.clear")}</a> : null}
          </div>
        </form>
      ) : null}
      {scanCapped ? <p className="muted small">{t("serverList.scanCapped")}</p> : null}
      {servers.length === 0 ? (
        <NoServers filtered={filtered} query={query} canCreate={canCreate} />
      ) : (
        <section className="card table-card">
          <table className="data-table servers-list" data-testid="servers-list">
            <caption className="sr-only">{t("serverList.count", { count: total })}</caption>
            <thead>
              <tr>
                <th><span className="sr-only">{t("serverList.status")}</span></th>
                <SortHeading query={query} sort="name" label={t("servers.name")} />
                <SortHeading query={query} sort="node" label={t("servers.node")} />
                <th>{t("servers.address")}</th>
                <SortHeading query={query} sort="owner" label={t("serverList.owner")} />
                <th>{t("vitals.players")}</th>
                <th>{t("vitals.cpu")}</th>
                <th>{t("vitals.memory")}</th>
              </tr>
            </thead>
            <tbody>
              {servers.map((s) => (
                <tr key={s.id} data-server-row={s.id}>
                  <td className="servers-list-status">
                    <span className={`server-status-dot is-${s.status}`} role="img" aria-label={t(`serverStatus.${s.status}`)} title={t(`serverStatus.${s.status}`)} data-live="status" data-status={s.status} />
                  </td>
                  <td className="servers-list-name">
                    <a href={`/server/${s.id}`}>{s.name}</a>
                    <code className="muted">{s.id}</code>
                  </td>
                  <td data-label={t("servers.node")}>{s.nodeName}</td>
                  <td data-label={t("servers.address")}><code>{s.address}</code></td>
                  <td data-label={t("serverList.owner")}>{s.owner ?? "—"}</td>
                  <td data-label={t("vitals.players")} data-live="players">{playersText(s.players, s.status === "online" || s.status === "starting", t)}</td>
                  <td data-label={t("vitals.cpu")} data-live="cpu">—</td>
                  <td data-label={t("vitals.memory")} data-live="memory">—</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} link={(p) => listHref(query, { page: p })} />
        </section>
      )}
      {ids.length > 0 ? <Island island={ServerListLive} props={{ ids }} /> : null}
    </Shell>
  );
}
