// Settings (spec section 2): General and Email tabs. Secrets are never shown back.
import { EMAIL_PROVIDERS } from "../../server/services/settings";
import { Shell, PageHeader } from "../layout/Shell";
import { usePage } from "../context";
import { Alert } from "../components/Alert";
import { PasswordInput } from "../components/PasswordInput";

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

export function SettingsPage({ tab, values, error }: { tab: "general" | "email"; values: SettingsValues; error?: string }) {
  const { t, themes } = usePage();
  const secretHint = (set: boolean) => (set ? <span className="field-hint">{t("settings.secretSet")}</span> : null);
  return (
    <Shell title={t("page.settings.title")}>
      <PageHeader title={t("page.settings.title")} />
      <nav className="tabs">
        <a href="/settings" aria-current={tab === "general" ? "page" : undefined}>{t("settings.general")}</a>
        <a href="/settings?tab=email" aria-current={tab === "email" ? "page" : undefined}>{t("settings.email")}</a>
      </nav>
      {error ? <Alert kind="error">{error}</Alert> : null}
      {tab === "general" ? (
        <form method="post" action="/settings/general" className="card stack form-narrow">
          <label className="field">
            <span className="field-label">{t("settings.masterUrl")}</span>
            <input type="url" name="panel.settings.masterUrl" defaultValue={values.masterUrl} placeholder="https://panel.example.com" />
            <span className="field-hint">{t("settings.masterUrlHint")}</span>
          </label>
          <label className="field">
            <span className="field-label">{t("settings.companyName")}</span>
            <input type="text" name="panel.settings.companyName" defaultValue={values.companyName} maxLength={100} />
          </label>
          <label className="field">
            <span className="field-label">{t("settings.defaultTheme")}</span>
            <select name="panel.settings.defaultTheme" defaultValue={values.defaultTheme}>
              {themes.map((theme) => <option key={theme.name} value={theme.name}>{theme.display}</option>)}
            </select>
          </label>
          <input type="hidden" name="panel.registrationEnabled" value="false" />
          <label className="check-row">
            <input type="checkbox" name="panel.registrationEnabled" value="true" defaultChecked={values.registrationEnabled} />
            <span>{t("settings.registrationEnabled")}</span>
          </label>
          <span className="field-hint">{t("settings.registrationHint")}</span>
          <label className="field">
            <span className="field-label">{t("settings.templateRepositories")}</span>
            <textarea name="panel.templates.repositories" rows={3} defaultValue={values.templateRepositories} placeholder="https://templates.example.com/kiln" spellCheck={false} />
            <span className="field-hint">{t("settings.templateRepositoriesHint")}</span>
          </label>
          <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
        </form>
      ) : (
        <>
          <form method="post" action="/settings/email" className="card stack form-narrow">
            <p className="muted">{t("settings.providerHint")}</p>
            <label className="field">
              <span className="field-label">{t("settings.provider")}</span>
              <select name="panel.email.provider" defaultValue={values.provider}>
                {EMAIL_PROVIDERS.map((p) => <option key={p} value={p}>{t(`settings.provider.${p}`)}</option>)}
              </select>
            </label>
            <label className="field">
              <span className="field-label">{t("settings.from")}</span>
              <input type="text" name="panel.email.from" defaultValue={values.from} placeholder="Kiln <panel@example.com>" />
            </label>
            <label className="field">
              <span className="field-label">{t("settings.host")}</span>
              <input type="text" name="panel.email.host" defaultValue={values.host} placeholder="smtp.example.com:587" />
            </label>
            <label className="field">
              <span className="field-label">{t("settings.username")}</span>
              <input type="text" name="panel.email.username" defaultValue={values.username} autoComplete="off" />
            </label>
            <label className="field">
              <span className="field-label">{t("settings.domain")}</span>
              <input type="text" name="panel.email.domain" defaultValue={values.domain} placeholder="mg.example.com" />
            </label>
            <div className="field">
              <PasswordInput name="panel.email.key" label={t("settings.key")} autoComplete="off" required={false} />
              {secretHint(values.keySet)}
            </div>
            <div className="field">
              <PasswordInput name="panel.email.password" label={t("settings.password")} autoComplete="off" required={false} />
              {secretHint(values.passwordSet)}
            </div>
            <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
          </form>
          <form method="post" action="/settings/email/test" className="toolbar spaced">
            <button type="submit" className="btn">{t("settings.testEmail")}</button>
          </form>
        </>
      )}
    </Shell>
  );
}
