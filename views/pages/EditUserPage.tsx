// Edit user (spec section 2): details, panel-wide permissions, delete.
import { ALL_SCOPES, SCOPES } from "../../core/scopes";
import type { UserView } from "../../server/services/users";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";
import { ConfirmActions, ModalDetails } from "../components/Modal";
import { formErrors, type FormError } from "../components/form-errors";

export interface EditUserPageProps {
  target: UserView;
  scopes: string[];
  /** may the viewer change this account (users.edit, and the account holds no scope the viewer lacks) */
  canEdit: boolean;
  /** the viewer holds users.edit, but this account holds scopes the viewer lacks */
  holdsMore?: boolean;
  error?: FormError & { section: "details" | "perms" | "delete" };
}

export function EditUserPage({ target, scopes, canEdit, holdsMore, error }: EditUserPageProps) {
  const { t, user } = usePage();
  const actorScopes = user?.scopes ?? [];
  const actorIsAdmin = actorScopes.includes(SCOPES.admin);
  const errorFor = (section: string) => (error?.section === section ? <Alert kind="error">{error.message}</Alert> : null);
  const details = formErrors("user-details", error?.section === "details" ? error : undefined, ["username", "email", "password"]);
  return (
    <Shell title={t("page.editUser.title")}>
      <PageHeader title={target.username || target.email}>
        {canEdit && target.id !== user?.id ? (
          <ModalDetails summary={t("users.delete")} summaryClass="btn btn-danger-text" title={t("users.delete")}>
            <form method="post" action={`/user/${target.id}/delete`} className="stack">
              <p>{t("users.deleteConfirm")}</p>
              <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
            </form>
          </ModalDetails>
        ) : null}
      </PageHeader>
      {holdsMore ? <Alert kind="info">{t("users.holdsMore")}</Alert> : null}
      {errorFor("delete")}
      <div className="grid-2">
        <section className="card stack">
          <h2>{t("account.profile")}</h2>
          {details.alert}
          <form method="post" action={`/user/${target.id}`} className="stack">
            <fieldset disabled={!canEdit} className="stack bare">
              <label className="field">
                <span className="field-label">{t("auth.username")}</span>
                <input type="text" name="username" defaultValue={target.username} disabled={target.status === "invited"} minLength={5} {...details.input("username")} />
                {details.message("username")}
              </label>
              <label className="field">
                <span className="field-label">{t("auth.email")}</span>
                <input type="email" name="email" defaultValue={target.email} required {...details.input("email")} />
                {details.message("email")}
              </label>
              <PasswordInput name="password" label={t("users.newPassword")} autoComplete="new-password" required={false} errors={details} />
              {canEdit ? <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div> : null}
            </fieldset>
          </form>
        </section>
        <section className="card stack">
          <h2>{t("users.permissions")}</h2>
          <p className="muted">{t("users.permissionsHint")}</p>
          {errorFor("perms")}
          <form method="post" action={`/user/${target.id}/perms`} className="stack">
            <div className="scope-grid">
              {ALL_SCOPES.map((scope) => (
                <label key={scope} className="check-row">
                  <input type="checkbox" name="scopes" value={scope} defaultChecked={scopes.includes(scope)} disabled={!canEdit || (!actorIsAdmin && !actorScopes.includes(scope))} />
                  <span>{t(`scope.${scope}`)}</span>
                </label>
              ))}
            </div>
            {canEdit ? <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div> : null}
          </form>
        </section>
      </div>
    </Shell>
  );
}
