// User list: search, paged table, and Add for those who may edit users.
import type { UserView } from "../../server/services/users";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Pager } from "../components/Pager";
import { UnconfirmedMark } from "../components/UnconfirmedMark";

export function UsersPage({ users, page, pages, search, canEdit }: { users: UserView[]; page: number; pages: number; search: string; canEdit: boolean }) {
  const { t } = usePage();
  const link = (p: number) => `/user?page=${p}${search ? `&username=${encodeURIComponent(search)}` : ""}`;
  return (
    <Shell title={t("page.users.title")}>
      <PageHeader title={t("page.users.title")}>
        <a className="btn" href="/roles">{t("roles.title")}</a>
        {canEdit ? <a className="btn btn-primary" href="/adduser">{t("users.add")}</a> : null}
      </PageHeader>
      <form method="get" action="/user" className="toolbar" role="search">
        <input type="search" name="username" defaultValue={search} placeholder={t("users.search")} aria-label={t("users.search")} dir="auto" />
        <button type="submit" className="btn">{t("users.searchSubmit")}</button>
      </form>
      <section className="card table-card">
        {users.length === 0 ? (
          // The list always holds its viewer, so it is empty only when a search matched no one.
          <div className="empty-state" data-testid="users-empty">
            <p>{t("users.none")}</p>
            <div className="empty-state-actions">
              <a className="btn" href="/user">{t("users.clearSearch")}</a>
              {canEdit ? <a className="btn btn-primary" href="/adduser">{t("users.add")}</a> : null}
            </div>
          </div>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th>{t("users.username")}</th>
                <th>{t("users.email")}</th>
                <th>{t("users.status")}</th>
                <th>{t("users.twoFactor")}</th>
              </tr>
            </thead>
            <tbody>
              {users.map((u) => (
                <tr key={u.id}>
                  <td><a href={`/user/${u.id}`}>{u.username || u.email}</a></td>
                  <td>{u.email}{u.status === "active" && !u.emailConfirmed ? <UnconfirmedMark /> : null}</td>
                  <td><span className={u.status === "active" ? "badge badge-on" : "badge badge-warn"}>{t(`users.status.${u.status}`)}</span></td>
                  <td>{u.otpEnabled ? "✓" : "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager page={page} pages={pages} link={link} />
      </section>
    </Shell>
  );
}
