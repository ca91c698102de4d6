// Webhooks: the endpoints the reader manages (an administrator's panel-wide ones and every
// server's; anyone else's for the servers where they hold manageWebhooks), each with its state, a
// test send, turning it off and on, removal and its delivery log; and a form to add one. Forms
// post without script; the secret is shown once, when the panel made it.
import type { WebhookView } from "../../server/services/webhooks/store";
import { WEBHOOK_FORMATS } from "../../core/activity";
import { Alert } from "../components/Alert";
import { CopyableSecret } from "../components/CopyableSecret";
import { EmptyState } from "../components/EmptyState";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { webhook as webhookIcon } from "../../islands/lib/icons";

export interface WebhookServerChoice {
  id: string;
  name: string;
}

export interface WebhooksPageProps {
  webhooks: WebhookView[];
  /** Servers the reader may add an endpoint for; null in the list means panel-wide (administrators). */
  servers: WebhookServerChoice[];
  panelWide: boolean;
  /** The server the page was opened for (?server=), preselected. */
  server: string | null;
  created?: { id: number; secret: string };
  error?: string;
  values?: { url: string; events: string; serverId: string; format: string };
}

export function WebhooksPage({ webhooks, servers, panelWide, server, created, error, values }: WebhooksPageProps) {
  const { t } = usePage();
  const names = new Map(servers.map((s) => [s.id, s.name]));
  return (
    <Shell title={t("page.webhooks.title")}>
      <PageHeader title={t("page.webhooks.title")} />
      <p className="muted">{t("webhooks.intro")}</p>
      {created ? (
        <Alert kind="info">
          <p>{t("webhooks.secretOnce")}</p>
          <CopyableSecret value={created.secret} what={t("webhooks.secret")} testId="webhook-secret" />
        </Alert>
      ) : null}
      {webhooks.length === 0 ? (
        <EmptyState icon={webhookIcon} message={t("webhooks.none")} testId="webhooks-empty" />
      ) : (
        <section className="card table-card">
          <table className="data-table webhooks-table" data-testid="webhooks-list">
            <thead>
              <tr>
                <th>{t("webhooks.url")}</th>
                <th>{t("webhooks.events")}</th>
                <th>{t("webhooks.server")}</th>
                <th>{t("webhooks.state")}</th>
                <th>{t("webhooks.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {webhooks.map((hook) => (
                <tr key={hook.id} data-webhook={hook.id}>
                  <td data-label={t("webhooks.url")} className="webhooks-url">
                    <a href={`/webhooks/${hook.id}`}><code>{hook.url}</code></a>
                    <span className="muted small"> · {t(`webhooks.format.${hook.format}`)}{hook.allowInternal ? ` · ${t("webhooks.internalAllowed")}` : ""}</span>
                  </td>
                  <td data-label={t("webhooks.events")}>{hook.events.map((e) => <code key={e} className="webhooks-event">{e}</code>)}</td>
                  <td data-label={t("webhooks.server")}>{hook.serverId ? <a href={`/server/${hook.serverId}`}>{names.get(hook.serverId) ?? hook.serverId}</a> : t("webhooks.allServers")}</td>
                  <td data-label={t("webhooks.state")}>
                    <span className={hook.enabled ? "badge badge-on" : "badge badge-off"}>{t(hook.enabled ? "webhooks.enabled" : "webhooks.disabled")}</span>
                    {hook.disabledReason ? <span className="muted small webhooks-reason" data-testid="webhook-disabled-reason">{t("webhooks.disabledBecause", { reason: hook.disabledReason })}</span> : null}
                  </td>
                  <td data-label={t("webhooks.actions")} className="webhooks-actions">
                    <form method="post" action={`/webhooks/${hook.id}/test`}>
                      <button type="submit" className="btn" disabled={!hook.enabled}>{t("webhooks.test")}</button>
                    </form>
                    <form method="post" action={`/webhooks/${hook.id}/enabled`}>
                      <input type="hidden" name="enabled" value={hook.enabled ? "false" : "true"} />
                      <button type="submit" className="btn">{t(hook.enabled ? "webhooks.disable" : "webhooks.enable")}</button>
                    </form>
                    <form method="post" action={`/webhooks/${hook.id}/delete`}>
                      <button type="submit" className="btn btn-danger">{t("common.delete")}</button>
                    </form>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {servers.length > 0 || panelWide ? (
        <section className="card stack" id="add-webhook">
          <h2>{t("webhooks.add")}</h2>
          {error ? <Alert kind="error">{error}</Alert> : null}
          <form method="post" action="/webhooks" className="stack" data-testid="webhook-form">
            <label className="field">
              <span className="field-label">{t("webhooks.url")}</span>
              <input type="url" name="url" required maxLength={2000} defaultValue={values?.url} placeholder="https://example.com/kiln-hook" />
              <span className="field-hint">{t("webhooks.urlHint")}</span>
            </label>
            <label className="field">
              <span className="field-label">{t("webhooks.events")}</span>
              <input type="text" name="events" required defaultValue={values?.events ?? "server.crashed, server.started, server.stopped"} />
              <span className="field-hint">{t("webhooks.eventsHint")}</span>
            </label>
            <label className="field">
              <span className="field-label">{t("webhooks.server")}</span>
              <select name="serverId" defaultValue={values?.serverId ?? server ?? ""}>
                {panelWide ? <option value="">{t("webhooks.allServers")}</option> : null}
                {servers.map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
              </select>
            </label>
            <label className="field">
              <span className="field-label">{t("webhooks.formatLabel")}</span>
              <select name="format" defaultValue={values?.format ?? ""}>
                <option value="">{t("webhooks.format.auto")}</option>
                {WEBHOOK_FORMATS.map((f) => <option key={f} value={f}>{t(`webhooks.format.${f}`)}</option>)}
              </select>
            </label>
            <label className="field">
              <span className="field-label">{t("webhooks.secret")}</span>
              <input type="text" name="secret" minLength={16} maxLength={200} autoComplete="off" />
              <span className="field-hint">{t("webhooks.secretHint")}</span>
            </label>
            {panelWide ? (
              <>
                <label className="check-row">
                  <input type="checkbox" name="allowInternal" value="true" />
                  <span>{t("webhooks.allowInternal")}</span>
                </label>
                <span className="field-hint">{t("webhooks.allowInternalHint")}</span>
              </>
            ) : null}
            <div><button type="submit" className="btn btn-primary">{t("webhooks.add")}</button></div>
          </form>
        </section>
      ) : null}
    </Shell>
  );
}
