// Edit user: details, panel-wide permissions, roles, rule grants, ways to sign in, OAuth2 clients, delete.
import { SCOPES } from "../../core/scopes";
import type { UserView } from "../../server/services/users";
import type { RoleView } from "../../server/services/roles";
import type { HeldGrant } from "../../server/services/sso/held-grants";
import type { AccountClientView } from "../../server/services/oauth2";
import { OAuth2ClientsCard } from "../components/OAuth2ClientsCard";
import { SignInWaysCard, type SignInWays } from "../components/SignInWaysCard";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";
import { ConfirmActions, ModalDetails } from "../components/Modal";
import { formErrors, type FormError } from "../components/form-errors";
import { ScopeGrid } from "../components/ScopeGrid";
import { shownLabel } from "../../core/text/shown-label";

export type EditSection = "details" | "perms" | "roles" | "grants" | "clients" | "signIn" | "delete";

export interface EditUserPageProps {
  target: UserView;
  scopes: string[];
  /** may the viewer change this account (users.edit, and the account holds no scope the viewer lacks) */
  canEdit: boolean;
  /** the viewer holds users.edit, but this account holds scopes the viewer lacks */
  holdsMore?: boolean;
  /** Every role, and the ids of those the account holds. */
  roles: { all: RoleView[]; held: number[] };
  /** Rights sign-in rules granted the account: shown as the rule's and locked until detached. */
  grants: HeldGrant[];
  /** The account's OAuth2 clients (account level and per server), which a manager may delete. */
  clients: AccountClientView[];
  /** The account's passkeys, linked providers and whether it has a password, which a manager may remove (but the password). */
  signIn: SignInWays;
  /** Whether the account's address is confirmed (an unconfirmed one receives nothing shared by address). */
  emailConfirmed: boolean;
  error?: FormError & { section: EditSection };
}

export function EditUserPage({ target, scopes, canEdit, holdsMore, roles, grants, clients, signIn, emailConfirmed, error }: EditUserPageProps) {
  const { t, user } = usePage();
  const actorScopes = user?.scopes ?? [];
  const actorIsAdmin = actorScopes.includes(SCOPES.admin);
  const errorFor = (section: string) => (error?.section === section ? <Alert kind="error">{error.message}</Alert> : null);
  const ruleOf = (kind: HeldGrant["kind"], value: string) => grants.find((g) => g.kind === kind && g.value === value && g.serverId === "");
  const outranks = (roleScopes: readonly string[]) => actorIsAdmin || roleScopes.every((scope) => actorScopes.includes(scope));
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
          {!emailConfirmed && target.status === "active" ? (
            <form method="post" action={`/user/${target.id}/email/confirm`} className="stack">
              <p className="muted small">{t("users.emailUnconfirmed")}</p>
              {/* Only an administrator's word proves an address (services/users/create-user: mayVouch). */}
              {canEdit && user?.id !== target.id && user?.scopes.includes(SCOPES.admin) ? <div><button type="submit" className="btn">{t("users.emailConfirm")}</button></div> : null}
            </form>
          ) : null}
        </section>
        <section className="card stack">
          <h2>{t("users.permissions")}</h2>
          <p className="muted">{t("users.permissionsHint")}</p>
          {errorFor("perms")}
          <form method="post" action={`/user/${target.id}/perms`} className="stack">
            <ScopeGrid checked={scopes} disabled={!canEdit} locked={(scope) => ruleOf("scope", scope) !== undefined} note={(scope) => {
              const rule = ruleOf("scope", scope);
              return rule ? <RuleBadge provider={rule.providerName} /> : null;
            }} />
            {canEdit ? <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div> : null}
          </form>
        </section>
        <section className="card stack" data-testid="user-roles">
          <div className="card-head">
            <h2>{t("roles.title")}</h2>
            <a className="btn" href="/roles">{t("roles.manage")}</a>
          </div>
          <p className="muted">{t("roles.userHint")}</p>
          {errorFor("roles")}
          {roles.all.length === 0 ? <p className="muted">{t("roles.none")}</p> : (
            <form method="post" action={`/user/${target.id}/roles`} className="stack">
              <div className="scope-grid">
                {roles.all.map((role) => {
                  const rule = ruleOf("role", String(role.id));
                  const held = roles.held.includes(role.id);
                  const locked = !canEdit || rule !== undefined || !outranks(role.scopes);
                  return (
                    <label key={role.id} className="check-row">
                      {locked && held ? <input type="hidden" name="roles" value={role.id} /> : null}
                      <input type="checkbox" name="roles" value={role.id} defaultChecked={held} disabled={locked} />
                      <span>{role.name}</span>
                      {rule ? <RuleBadge provider={rule.providerName} /> : null}
                    </label>
                  );
                })}
              </div>
              {canEdit ? <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div> : null}
            </form>
          )}
        </section>
        {grants.length > 0 ? (
          <section className="card stack" data-testid="user-grants">
            <h2>{t("users.ruleGrants")}</h2>
            <p className="muted">{t("users.ruleGrantsHint")}</p>
            {errorFor("grants")}
            <ul className="sso-identities">
              {grants.map((grant) => (
                <li key={`${grant.kind}:${grant.value}:${grant.serverId}`}>
                  <span>
                    {grant.kind === "scope" ? t(`scope.${grant.value}`) : grant.kind === "role" ? t("users.ruleGrantRole", { role: roles.all.find((r) => String(r.id) === grant.value)?.name ?? grant.value }) : t("users.ruleGrantFlag", { flag: t(`serverUsers.flag.${grant.value}`), server: grant.serverName ?? grant.serverId })}
                    {" "}<RuleBadge provider={grant.providerName} />
                  </span>
                  {canEdit ? (
                    <form method="post" action={`/user/${target.id}/grants/detach`}>
                      <input type="hidden" name="kind" value={grant.kind} />
                      <input type="hidden" name="value" value={grant.value} />
                      <input type="hidden" name="serverId" value={grant.serverId} />
                      <button type="submit" className="btn">{t("users.detachGrant")}</button>
                    </form>
                  ) : null}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        <SignInWaysCard userId={target.id} {...signIn} otpEnabled={target.otpEnabled} canEdit={canEdit && target.id !== user?.id} error={error?.section === "signIn" ? error : undefined} />
        <OAuth2ClientsCard clients={clients} base={`/user/${target.id}/oauth2`} back={`/user/${target.id}`} managed={{ canDelete: canEdit, error: errorFor("clients") }} />
      </div>
    </Shell>
  );
}

function RuleBadge({ provider }: { provider: string }) {
  const { t } = usePage();
  const shown = shownLabel(provider);
  return <span className="badge" title={t("users.fromRuleHint", { provider: shown })}>{t("users.fromRule", { provider: shown })}</span>;
}
