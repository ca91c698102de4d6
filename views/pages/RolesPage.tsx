// Roles: the list of named sets of panel scopes, and a form to make one. An account's scopes are
// its own and its roles'; only scopes the viewer holds can be put in a role.
import type { RoleView } from "../../server/services/roles";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { ScopeGrid } from "../components/ScopeGrid";
import type { FormError } from "../components/form-errors";

export interface RolesPageProps {
  roles: (RoleView & { holders: number })[];
  canEdit: boolean;
  error?: FormError;
  values?: { name: string; scopes: string[] };
}

export function RolesPage({ roles, canEdit, error, values }: RolesPageProps) {
  const { t } = usePage();
  return (
    <Shell title={t("roles.title")}>
      <PageHeader title={t("roles.title")}>
        <a className="btn" href="/user">{t("page.users.title")}</a>
      </PageHeader>
      <p className="muted">{t("roles.hint")}</p>
      <section className="card table-card" data-testid="roles-list">
        {roles.length === 0 ? (
          <div className="empty-state"><p>{t("roles.none")}</p></div>
        ) : (
          <table className="data-table">
            <thead>
              <tr>
                <th>{t("roles.name")}</th>
                <th>{t("roles.scopes")}</th>
                <th>{t("roles.holders")}</th>
              </tr>
            </thead>
            <tbody>
              {roles.map((role) => (
                <tr key={role.id}>
                  <td><a href={`/roles/${role.id}`} dir="auto">{role.name}</a></td>
                  <td>{role.scopes.length === 0 ? "—" : role.scopes.map((scope) => t(`scope.${scope}`)).join(", ")}</td>
                  <td>{role.holders}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      {canEdit ? (
        <section className="card stack roles-add" data-testid="role-add">
          <h2>{t("roles.add")}</h2>
          {error ? <Alert kind="error">{error.message}</Alert> : null}
          <form method="post" action="/roles" className="stack">
            <RoleFields values={values} />
            <div><button type="submit" className="btn btn-primary">{t("roles.add")}</button></div>
          </form>
        </section>
      ) : null}
    </Shell>
  );
}

/** A role's name and scopes, as the add and edit forms share them. */
export function RoleFields({ values, disabled = false }: { values?: { name: string; scopes: readonly string[] }; disabled?: boolean }) {
  const { t } = usePage();
  return (
    <fieldset disabled={disabled} className="stack bare">
      <label className="field">
        <span className="field-label">{t("roles.name")}</span>
        <input type="text" name="name" required maxLength={60} defaultValue={values?.name} dir="auto" />
      </label>
      <span className="field-label">{t("roles.scopes")}</span>
      <ScopeGrid checked={values?.scopes ?? []} disabled={disabled} />
    </fieldset>
  );
}
