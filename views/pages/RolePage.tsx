// One role: its name and scopes, and deleting it. Read-only for a viewer who does not hold every
// scope it carries (nobody changes a role that outranks them).
import type { RoleView } from "../../server/services/roles";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { ConfirmActions, ModalDetails } from "../components/Modal";
import type { FormError } from "../components/form-errors";
import { RoleFields } from "./RolesPage";

export interface RolePageProps {
  role: RoleView & { holders: number };
  canEdit: boolean;
  /** the viewer may edit roles but this one carries scopes they lack */
  outranked: boolean;
  error?: FormError;
}

export function RolePage({ role, canEdit, outranked, error }: RolePageProps) {
  const { t } = usePage();
  return (
    <Shell title={role.name}>
      <PageHeader title={role.name}>
        <a className="btn" href="/roles">{t("roles.title")}</a>
        {canEdit ? (
          <ModalDetails summary={t("roles.delete")} summaryClass="btn btn-danger-text" title={t("roles.delete")}>
            <form method="post" action={`/roles/${role.id}/delete`} className="stack">
              <p>{t("roles.deleteConfirm", { count: role.holders })}</p>
              <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
            </form>
          </ModalDetails>
        ) : null}
      </PageHeader>
      {outranked ? <Alert kind="info">{t("roles.outranked")}</Alert> : null}
      <section className="card stack" data-testid="role-form">
        {error ? <Alert kind="error">{error.message}</Alert> : null}
        <form method="post" action={`/roles/${role.id}`} className="stack">
          <RoleFields values={role} disabled={!canEdit} />
          {canEdit ? <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div> : null}
        </form>
      </section>
    </Shell>
  );
}
