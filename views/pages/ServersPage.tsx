// Server list (spec section 2): id, name, node name and address, paged; Add for those who may create.
import type { ServerEntry } from "../../server/services/servers";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Icon } from "../../islands/lib/Icon";
import { servers as serversIcon } from "../../islands/lib/icons";
import { Pager } from "../components/Pager";

export function ServersPage({ servers, page, pages, canCreate }: { servers: ServerEntry[]; page: number; pages: number; canCreate: boolean }) {
  const { t } = usePage();
  return (
    <Shell title={t("page.servers.title")}>
      <PageHeader title={t("page.servers.title")}>
        {canCreate ? <a className="btn btn-primary" href="/addserver">{t("servers.add")}</a> : null}
      </PageHeader>
      {servers.length === 0 ? (
        <section className="card empty-state">
          <Icon path={serversIcon} size={40} />
          <p>{t("page.servers.empty")}</p>
        </section>
      ) : (
        <section className="card table-card">
          <table className="data-table">
            <thead>
              <tr>
                <th>{t("servers.name")}</th>
                <th>{t("servers.node")}</th>
                <th>{t("servers.address")}</th>
                <th>{t("servers.id")}</th>
              </tr>
            </thead>
            <tbody>
              {servers.map((s) => (
                <tr key={s.id}>
                  <td><a href={`/server/${s.id}`}>{s.name}</a></td>
                  <td>{s.nodeName}</td>
                  <td><code>{s.address}</code></td>
                  <td><code className="muted">{s.id}</code></td>
                </tr>
              ))}
            </tbody>
          </table>
          <Pager page={page} pages={pages} link={(p) => `/server?page=${p}`} />
        </section>
      )}
    </Shell>
  );
}
