// Settings: General and Email tabs. Secrets are never shown back. The email tab
// shows the chosen provider's fields only (static/css/settings.css, by CSS alone, so without
// script too), and "Send a test email" tests what the form holds without saving it.
import { EMAIL_PROVIDERS } from "../../core/email";
import { Shell, PageHeader } from "../layout/Shell";
import { Alert } from "../components/Alert";
import { usePage } from "../context";
import { SCOPES } from "../../core/scopes";
import { PasswordInput } from "../components/PasswordInput";
import { TextField } from "../components/TextField";
import { formErrors, type FormError } from "../components/form-errors";

export interface SettingsValues {
  masterUrl: string;
  companyName: string;
  defaultTheme: string;
  registrationEnabled: boolean;
  /** one URL per line */
  templateRepositories: string;
  provider: string;
  from: string;
  domain: string;
  host: string;
  username: string;
  keySet: boolean;
  passwordSet: boolean;
  /** CurseForge's API key for the mods browser is set */
  curseforgeKeySet: boolean;
  /** A metrics token is set: /metrics answers Prometheus (docs/metrics.md) */
  metricsTokenSet: boolean;
  /** How long and how much of the activity log is kept (docs/activity.md) */
  activityRetentionDays: string;
  activityMaxRows: string;
}

/** A test email from the form's values, as the page without script tells it (with script a toast does). */
export interface TestEmailResult {
  /** where it went; absent when it failed (the error says why) */
  sentTo?: string;
  /** a password or key was typed for the test: it is not shown back, so it must be typed again to be saved */
  typedSecret: boolean;
}

/** The Settings screens' tabs: General and Email here, Sign-in on its own page (./SsoSettingsPage). */
export function SettingsTabs({ tab }: { tab: "general" | "email" | "sso" }) {
  const { t } = usePage();
  return (
    <nav className="tabs">
      <a href="/settings" aria-current={tab === "general" ? "page" : undefined}>{t("settings.general")}</a>
      <a href="/settings?tab=email" aria-current={tab === "email" ? "page" : undefined}>{t("settings.email")}</a>
      <a href="/settings/sso" aria-current={tab === "sso" ? "page" : undefined}>{t("settings.sso")}</a>
    </nav>
  );
}

/** Which providers use a field of the email form (server/services/email: smtp.ts, mailgun.ts, mailjet.ts). */
const USED_BY = {
  from: "smtp mailgun mailjet",
  host: "smtp",
  username: "smtp",
  domain: "mailgun",
  key: "mailgun mailjet",
  password: "smtp mailjet",
} as const;

export function SettingsPage({ tab, values, error, tested }: { tab: "general" | "email"; values: SettingsValues; error?: FormError; tested?: TestEmailResult }) {
  const { t, themes, user } = usePage();
  // Where the panel sends people, code and credentials: shown to every settings editor, changed by administrators only (services/settings ADMIN_ONLY_SETTINGS).
  const adminOnly = !user?.scopes.includes(SCOPES.admin);
  // Every named input of this tab's form: an error about one of them is shown there, others above.
  const fields = tab === "general"
    ? ["panel.settings.masterUrl", "panel.settings.companyName", "panel.settings.defaultTheme", "panel.templates.repositories", "panel.metrics.token", "panel.activity.retentionDays", "panel.activity.maxRows"]
    : ["panel.email.provider", "panel.email.from", "panel.email.host", "panel.email.username", "panel.email.domain", "panel.email.key", "panel.email.password"];
  const errors = formErrors("settings", error, fields);
  const secretHint = (set: boolean) => (set ? <span className="field-hint">{t("settings.secretSet")}</span> : null);
  return (
    <Shell title={t("page.settings.title")}>
      <PageHeader title={t("page.settings.title")} />
      <SettingsTabs tab={tab} />
      {errors.alert}
      {tab === "general" ? (
        <form method="post" action="/settings/general" className="card stack form-narrow">
          <TextField type="url" name="panel.settings.masterUrl" label={t("settings.masterUrl")} errors={errors} defaultValue={values.masterUrl} placeholder="https://panel.example.com" hint={adminOnly ? `${t("settings.masterUrlHint")} ${t("settings.adminOnly")}` : t("settings.masterUrlHint")} readOnly={adminOnly} />
          <TextField name="panel.settings.companyName" label={t("settings.companyName")} errors={errors} defaultValue={values.companyName} maxLength={100} />
          <label className="field">
            <span className="field-label">{t("settings.defaultTheme")}</span>
            <select name="panel.settings.defaultTheme" {...errors.input("panel.settings.defaultTheme")} defaultValue={values.defaultTheme}>
              {themes.map((theme) => <option key={theme.name} value={theme.name}>{theme.display}</option>)}
            </select>
            {errors.message("panel.settings.defaultTheme")}
          </label>
          <input type="hidden" name="panel.registrationEnabled" value="false" />
          <label className="check-row">
            <input type="checkbox" name="panel.registrationEnabled" value="true" defaultChecked={values.registrationEnabled} />
            <span>{t("settings.registrationEnabled")}</span>
          </label>
          <span className="field-hint">{t("settings.registrationHint")}</span>
          <label className="field">
            <span className="field-label">{t("settings.templateRepositories")}</span>
            <textarea name="panel.templates.repositories" {...errors.input("panel.templates.repositories")} rows={3} defaultValue={values.templateRepositories} placeholder="https://templates.example.com/kiln" spellCheck={false} readOnly={adminOnly} />
            {errors.message("panel.templates.repositories")}
            <span className="field-hint">{t("settings.templateRepositoriesHint")}{adminOnly ? ` ${t("settings.adminOnly")}` : ""}</span>
          </label>
          <div className="field">
            <PasswordInput name="panel.mods.curseforgeKey" label={t("settings.curseforgeKey")} autoComplete="off" required={false} errors={errors} />
            <span className="field-hint">{t("settings.curseforgeKeyHint")}</span>
            {secretHint(values.curseforgeKeySet)}
          </div>
          <div className="field">
            <PasswordInput name="panel.metrics.token" label={t("settings.metricsToken")} autoComplete="off" required={false} errors={errors} />
            <span className="field-hint">{t("settings.metricsTokenHint")}</span>
            {secretHint(values.metricsTokenSet)}
            {values.metricsTokenSet ? (
              <label className="check-row">
                <input type="checkbox" name="panel.metrics.off" value="true" />
                <span>{t("settings.metricsOff")}</span>
              </label>
            ) : null}
          </div>
          <TextField type="number" name="panel.activity.retentionDays" label={t("settings.activityRetentionDays")} errors={errors} defaultValue={values.activityRetentionDays} min={1} max={3650} hint={t("settings.activityRetentionDaysHint")} />
          <TextField type="number" name="panel.activity.maxRows" label={t("settings.activityMaxRows")} errors={errors} defaultValue={values.activityMaxRows} min={1000} max={100000000} hint={t("settings.activityMaxRowsHint")} />
          <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
        </form>
      ) : (
        <>
          <form method="post" action="/settings/email" className="card stack form-narrow email-settings">
            {tested && (tested.sentTo !== undefined || tested.typedSecret) ? (
              <Alert kind="info">
                {tested.sentTo !== undefined ? t("settings.testSentUnsaved", { email: tested.sentTo }) : null}
                {tested.sentTo !== undefined && tested.typedSecret ? " " : null}
                {tested.typedSecret ? t("settings.testSecretNotKept") : null}
              </Alert>
            ) : null}
            <p className="muted">{t("settings.providerHint")}</p>
            {/* Where mail goes carries every invitation link: an administrator's to change (services/settings ADMIN_ONLY_SETTINGS); the sender's address is not. */}
            {adminOnly ? <p className="field-hint">{t("settings.adminOnly")}</p> : null}
            <label className="field">
              <span className="field-label">{t("settings.provider")}</span>
              <select name="panel.email.provider" {...errors.input("panel.email.provider")} defaultValue={values.provider} disabled={adminOnly}>
                {EMAIL_PROVIDERS.map((p) => <option key={p} value={p}>{t(`settings.provider.${p}`)}</option>)}
              </select>
              {errors.message("panel.email.provider")}
            </label>
            <TextField name="panel.email.from" label={t("settings.from")} errors={errors} fieldData={{ "data-providers": USED_BY.from }} defaultValue={values.from} placeholder="Kiln <panel@example.com>" />
            <TextField name="panel.email.host" label={t("settings.host")} errors={errors} fieldData={{ "data-providers": USED_BY.host }} defaultValue={values.host} placeholder="smtp.example.com:587" readOnly={adminOnly} />
            <TextField name="panel.email.username" label={t("settings.username")} errors={errors} fieldData={{ "data-providers": USED_BY.username }} defaultValue={values.username} autoComplete="off" readOnly={adminOnly} />
            <TextField name="panel.email.domain" label={t("settings.domain")} errors={errors} fieldData={{ "data-providers": USED_BY.domain }} defaultValue={values.domain} placeholder="mg.example.com" readOnly={adminOnly} />
            <div className="field" data-providers={USED_BY.key}>
              <PasswordInput name="panel.email.key" label={t("settings.key")} autoComplete="off" required={false} disabled={adminOnly} errors={errors} />
              {secretHint(values.keySet)}
            </div>
            <div className="field" data-providers={USED_BY.password}>
              <PasswordInput name="panel.email.password" label={t("settings.password")} autoComplete="off" required={false} disabled={adminOnly} errors={errors} />
              {secretHint(values.passwordSet)}
            </div>
            <div className="toolbar email-settings-actions">
              <button type="submit" className="btn btn-primary">{t("common.save")}</button>
              {/* The form's values, saved or not: with script in the background (islands/shell/fetch-submit), else a post that shows the form again as it was. */}
              <button type="submit" className="btn" formAction="/settings/email/test" data-fetch-submit="">{t("settings.testEmail")}</button>
            </div>
            <p className="field-hint">{t("settings.testEmailHint")}</p>
          </form>
        </>
      )}
    </Shell>
  );
}
