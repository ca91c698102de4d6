// OAuth2 clients card: at account level, or for one server. Lists clients, creates
// one in an overlay (with the account's current password: a session alone makes none), shows its
// credentials once, and deletes with a ticked acknowledgement. At account level (the holder's
// Account page, or a user's page: `managed`, which only deletes) it lists every client of the
// account, each bound one with its server. A client's name and description are its account's
// words, seen by a manager on the user's page: shown by the rule of untrusted labels.
import type { ReactNode } from "react";
import type { AccountClientView, ClientView } from "../../server/services/oauth2";
import { usePage } from "../context";
import { ConfirmActions, ModalDetails, OpenModal } from "./Modal";
import { CopyableSecret } from "./CopyableSecret";
import { PasswordInput } from "./PasswordInput";
import { formErrors, type FormError } from "./form-errors";
import { ShownLabel } from "../../islands/lib/ShownLabel";

export interface OAuth2ClientsCardProps {
  clients: (ClientView & Partial<Pick<AccountClientView, "serverName">>)[];
  /** where the forms post: `${base}` creates, `${base}/{id}/delete` deletes */
  base: string;
  /** the page the credentials overlay closes to */
  back: string;
  serverLevel?: boolean;
  created?: { id: string; secret: string };
  /** the create form's refusal: the overlay opens again with it, beside the field it names */
  createError?: FormError;
  /** another account's clients, seen by a manager: whether they may delete, and a refusal to show */
  managed?: { canDelete: boolean; error: ReactNode };
}

export function OAuth2ClientsCard({ clients, base, back, serverLevel, created, createError, managed }: OAuth2ClientsCardProps) {
  const { t } = usePage();
  const errors = formErrors(`oauth2-create${serverLevel ? "-server" : ""}`, createError, ["password"]);
  return (
    <section className="card stack" id="oauth2">
      <div className="card-head">
        <h2>{t(serverLevel ? "oauth.serverTitle" : "oauth.title")}</h2>
        <a className="link" href="/api/docs">{t("oauth.docs")}</a>
      </div>
      <p className="muted">{t(managed ? "oauth.managedIntro" : serverLevel ? "oauth.serverIntro" : "oauth.intro")}</p>
      {managed?.error}
      {clients.length === 0 ? (
        <p className="muted">{t("oauth.none")}</p>
      ) : (
        <ul className="list">
          {clients.map((client) => (
            <li key={client.client_id} className="list-row">
              <div>
                <strong>{client.name ? <ShownLabel text={client.name} hint={t("common.hiddenCharacters")} dir="auto" /> : t("oauth.unnamed")}</strong>
                {client.description ? <div className="muted small"><ShownLabel text={client.description} hint={t("common.hiddenCharacters")} dir="auto" /></div> : null}
                <code className="small">{client.client_id}</code>
                {!serverLevel && client.serverId ? <div className="small">{t("oauth.boundTo", { server: client.serverName ?? client.serverId })}</div> : null}
              </div>
              {managed && !managed.canDelete ? null : <ModalDetails summary={t("common.delete")} summaryClass="btn btn-danger-text" title={t("oauth.delete")}>
                <form method="post" action={`${base}/${encodeURIComponent(client.client_id)}/delete`} className="stack">
                  <p>{t("oauth.deleteConfirm")}</p>
                  <label className="check-row">
                    <input type="checkbox" name="ack" required />
                    <span>{t("oauth.deleteAck")}</span>
                  </label>
                  <ConfirmActions cancel={t("common.cancel")} confirm={t("common.delete")} />
                </form>
              </ModalDetails>}
            </li>
          ))}
        </ul>
      )}
      {managed ? null : <div>
        <ModalDetails summary={t("oauth.create")} summaryClass="btn btn-primary" title={t("oauth.create")} open={createError !== undefined}>
          <form method="post" action={base} className="stack">
            {errors.alert}
            <label className="field">
              <span className="field-label">{t("oauth.name")}</span>
              <input type="text" name="name" maxLength={200} />
            </label>
            <label className="field">
              <span className="field-label">{t("oauth.description")}</span>
              {/* Enter here submits the form, so a single-line input. */}
              <input type="text" name="description" maxLength={200} />
            </label>
            {/* A client is a way in that outlives a password change: the account's password is asked again. */}
            <PasswordInput name="password" label={t("account.currentPassword")} autoComplete="current-password" errors={errors} />
            <ConfirmActions cancel={t("common.cancel")} confirm={t("oauth.create")} kind="primary" />
          </form>
        </ModalDetails>
      </div>}
      {created ? (
        <OpenModal title={t("oauth.created")} id="oauth2-credentials">
          <p className="alert alert-warning">{t("oauth.secretOnce")}</p>
          <dl className="facts">
            <dt>{t("oauth.clientId")}</dt>
            <dd><CopyableSecret value={created.id} what={t("oauth.clientId")} /></dd>
            <dt>{t("oauth.clientSecret")}</dt>
            <dd><CopyableSecret value={created.secret} what={t("oauth.clientSecret")} testId="client-secret" /></dd>
          </dl>
          <div className="dialog-actions">
            <a className="btn btn-primary" href={`${back}#oauth2`}>{t("oauth.done")}</a>
          </div>
        </OpenModal>
      ) : null}
    </section>
  );
}
