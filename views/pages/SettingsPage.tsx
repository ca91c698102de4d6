// Settings (spec section 2): General and Email tabs. Secrets are never shown back. The email tab
// shows the chosen provider's fields only (static/css/settings.css, by CSS alone, so without
// script too), and "Send a test email" tests what the form holds without saving it.
import { EMAIL_PROVIDERS } from "../../core/email";
import { Shell, PageHeader } from "../layout/Shell";
import { Alert } from "../components/Alert";
import { usePage } from "../context";
import { PasswordInput } from "../components/PasswordInput";
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
}

/** A test email from the form's values, as the page without script tells it (with script a toast does). */
export interface TestEmailResult {
  /** where it went; absent when it failed (the error says why) */
  sentTo?: string;
  /** a password or key was typed for the test: it is not shown back, so it must be typed again to be saved */
  typedSecret: boolean;
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
  const { t, themes } = usePage();
  // Every named input of this tab's form: an error about one of them is shown there, others above.
  const fields = tab === "general"
    ? ["panel.settings.masterUrl", "panel.settings.companyName", "panel.settings.defaultTheme", "panel.templates.repositories"]
    : ["panel.email.provider", "panel.email.from", "panel.email.host", "panel.email.username", "panel.email.domain", "panel.email.key", "panel.email.password"];
  const errors = formErrors("settings", error, fields);
  const secretHint = (set: boolean) => (set ? <span className="field-hint">{t("settings.secretSet")}</span> : null);
  return (
    <Shell title={t("page.settings.title")}>
      <PageHeader title={t("page.settings.title")} />
      <nav className="tabs">
        <a href="/settings" aria-current={tab === "general" ? "page" : undefined}>{t("settings.general")}</a>
        <a href="/settings?tab=email" aria-current={tab === "email" ? "page" : undefined}>{t("settings.email")}</a>
      </nav>
      {errors.alert}
      {tab === "general" ? (
        <form method="post" action="/settings/general" className="card stack form-narrow">
          <label className="field">
            <span className="field-label">{t("settings.masterUrl")}</span>
            <input type="url" name="panel.settings.masterUrl" {...errors.input("panel.settings.masterUrl")} defaultValue={values.masterUrl} placeholder="https://panel.example.com" />
            {errors.message("panel.settings.masterUrl")}
            <span className="field-hint">{t("settings.masterUrlHint")}</span>
          </label>
          <label className="field">
            <span className="field-label">{t("settings.companyName")}</span>
            <input type="text" name="panel.settings.companyName" {...errors.input("panel.settings.companyName")} defaultValue={values.companyName} maxLength={100} />
            {errors.message("panel.settings.companyName")}
          </label>
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
            <textarea name="panel.templates.repositories" {...errors.input("panel.templates.repositories")} rows={3} defaultValue={values.templateRepositories} placeholder="https://templates.example.com/kiln" spellCheck={false} />
            {errors.message("panel.templates.repositories")}
            <span className="field-hint">{t("settings.templateRepositoriesHint")}</span>
          </label>
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
            <label className="field">
              <span className="field-label">{t("settings.provider")}</span>
              <select name="panel.email.provider" {...errors.input("panel.email.provider")} defaultValue={values.provider}>
                {EMAIL_PROVIDERS.map((p) => <option key={p} value={p}>{t(`settings.provider.${p}`)}</option>)}
              </select>
              {errors.message("panel.email.provider")}
            </label>
            <label className="field" data-providers={USED_BY.from}>
              <span className="field-label">{t("settings.from")}</span>
              <input type="text" name="panel.email.from" {...errors.input("panel.email.from")} defaultValue={values.from} placeholder="Kiln <panel@example.com>" />
              {errors.message("panel.email.from")}
            </label>
            <label className="field" data-providers={USED_BY.host}>
              <span className="field-label">{t("settings.host")}</span>
              <input type="text" name="panel.email.host" {...errors.input("panel.email.host")} defaultValue={values.host} placeholder="smtp.example.com:587" />
              {errors.message("panel.email.host")}
            </label>
            <label className="field" data-providers={USED_BY.username}>
              <span className="field-label">{t("settings.username")}</span>
              <input type="text" name="panel.email.username" {...errors.input("panel.email.username")} defaultValue={values.username} autoComplete="off" />
              {errors.message("panel.email.username")}
            </label>
            <label className="field" data-providers={USED_BY.domain}>
              <span className="field-label">{t("settings.domain")}</span>
              <input type="text" name="panel.email.domain" {...errors.input("panel.email.domain")} defaultValue={values.domain} placeholder="mg.example.com" />
              {errors.message("panel.email.domain")}
            </label>
            <div className="field" data-providers={USED_BY.key}>
              <PasswordInput name="panel.email.key" label={t("settings.key")} autoComplete="off" required={false} errors={errors} />
              {secretHint(values.keySet)}
            </div>
            <div className="field" data-providers={USED_BY.password}>
              <PasswordInput name="panel.email.password" label={t("settings.password")} autoComplete="off" required={false} errors={errors} />
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
