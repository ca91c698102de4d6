// Settings → Sign-in: the identity providers (each with its fields, claim rules as JSON and a
// preview of what a claims document would get), a form to add one, and SSO-only mode with its
// break-glass administrator. Forms post without script; the client secret is never shown back.
import type { ProviderView } from "../../server/services/sso/providers";
import type { RuleOutcome } from "../../server/services/sso/grants";
import { Shell, PageHeader } from "../layout/Shell";
import { Alert } from "../components/Alert";
import { usePage } from "../context";
import { SettingsTabs } from "./SettingsPage";

export interface SsoSettingsProps {
  providers: ProviderView[];
  /** The callback address to register at a provider, with {id} for the provider's id. */
  callbackPattern: string;
  mode: { ssoOnly: boolean; breakGlassUserId: number | null };
  admins: { id: number; username: string; email: string }[];
  error?: { message: string; provider?: string };
  preview?: { provider: string; claims: string; outcomes: RuleOutcome[] };
}

const TYPES = ["oidc", "discord", "github"] as const;

export function SsoSettingsPage({ providers, callbackPattern, mode, admins, error, preview }: SsoSettingsProps) {
  const { t } = usePage();
  const errorFor = (provider?: string) => (error && error.provider === provider ? <Alert kind="error">{error.message}</Alert> : null);
  return (
    <Shell title={t("page.settings.title")}>
      <PageHeader title={t("page.settings.title")} />
      <SettingsTabs tab="sso" />
      <section className="card stack form-narrow" id="sso-mode">
        <h2>{t("settings.ssoMode")}</h2>
        <p className="muted">{t("settings.ssoModeHint")}</p>
        {errorFor("mode")}
        <form method="post" action="/settings/sso/mode" className="stack" data-testid="sso-mode-form">
          <input type="hidden" name="ssoOnly" value="false" />
          <label className="check-row">
            <input type="checkbox" name="ssoOnly" value="true" defaultChecked={mode.ssoOnly} />
            <span>{t("settings.ssoOnly")}</span>
          </label>
          <label className="field">
            <span className="field-label">{t("settings.breakGlass")}</span>
            <select name="breakGlassUserId" defaultValue={mode.breakGlassUserId === null ? "" : String(mode.breakGlassUserId)}>
              <option value="">—</option>
              {admins.map((a) => <option key={a.id} value={String(a.id)}>{`${a.username} (${a.email})`}</option>)}
            </select>
          </label>
          <div><button type="submit" className="btn btn-primary">{t("common.save")}</button></div>
        </form>
      </section>
      {providers.map((p) => (
        <section key={p.id} className="card stack form-narrow sso-provider" data-provider={p.id}>
          <h2>{p.name} <span className="muted small">· {t(`settings.ssoType.${p.type}`)}</span></h2>
          <p className="muted small">{t("settings.ssoCallback")} <code>{callbackPattern.replace("{id}", p.id)}</code></p>
          {errorFor(p.id)}
          <ProviderFields provider={p} action={`/settings/sso/${p.id}`} submit={t("common.save")} />
          <form method="post" action={`/settings/sso/${p.id}/preview`} className="stack">
            <label className="field">
              <span className="field-label">{t("settings.ssoPreview")}</span>
              <textarea name="claims" rows={3} spellCheck={false} defaultValue={preview?.provider === p.id ? preview.claims : '{"groups": ["kiln-admins"], "email": "someone@example.com"}'} />
            </label>
            <div><button type="submit" className="btn">{t("settings.ssoPreviewRun")}</button></div>
          </form>
          {preview?.provider === p.id ? (
            <ul className="sso-preview" data-testid="sso-preview">
              {preview.outcomes.map((o) => (
                <li key={o.rule}>
                  <span className={o.matched ? "badge badge-on" : "badge badge-off"}>{t(o.matched ? "settings.ssoRuleMatches" : "settings.ssoRuleNoMatch", { rule: o.rule + 1 })}</span>{" "}
                  <code>{JSON.stringify(o.grant)}</code>
                </li>
              ))}
            </ul>
          ) : null}
          <form method="post" action={`/settings/sso/${p.id}/delete`}>
            <button type="submit" className="btn btn-danger">{t("common.delete")}</button>
          </form>
        </section>
      ))}
      <section className="card stack form-narrow" id="add-provider">
        <h2>{t("settings.ssoAdd")}</h2>
        {errorFor("new")}
        <ProviderFields action="/settings/sso" submit={t("settings.ssoAdd")} />
      </section>
    </Shell>
  );
}

/** A provider's fields, empty for a new one; the secret field is empty (a secret is never shown back: empty keeps it). */
function ProviderFields({ provider, action, submit }: { provider?: ProviderView; action: string; submit: string }) {
  const { t } = usePage();
  return (
    <form method="post" action={action} className="stack" data-testid={provider ? "sso-provider-form" : "sso-add-form"}>
      {provider ? null : (
        <label className="field">
          <span className="field-label">{t("settings.ssoId")}</span>
          <input type="text" name="id" required pattern="[a-z0-9][a-z0-9\-]{0,39}" placeholder="keycloak" />
        </label>
      )}
      <label className="field">
        <span className="field-label">{t("settings.ssoName")}</span>
        <input type="text" name="name" required maxLength={60} defaultValue={provider?.name} />
      </label>
      <label className="field">
        <span className="field-label">{t("settings.ssoTypeLabel")}</span>
        <select name="type" defaultValue={provider?.type ?? "oidc"}>
          {TYPES.map((type) => <option key={type} value={type}>{t(`settings.ssoType.${type}`)}</option>)}
        </select>
      </label>
      <label className="field">
        <span className="field-label">{t("settings.ssoIssuer")}</span>
        <input type="url" name="issuer" defaultValue={provider?.issuer ?? ""} placeholder="https://sso.example.com/realms/gaming" />
      </label>
      <label className="field">
        <span className="field-label">{t("settings.ssoClientId")}</span>
        <input type="text" name="clientId" required defaultValue={provider?.clientId} autoComplete="off" />
      </label>
      <label className="field">
        <span className="field-label">{t("settings.ssoClientSecret")}</span>
        <input type="password" name="clientSecret" required={!provider} autoComplete="off" />
        {provider ? <span className="field-hint">{t("settings.secretSet")}</span> : null}
      </label>
      <label className="field">
        <span className="field-label">{t("settings.ssoScopes")}</span>
        <input type="text" name="scopes" defaultValue={provider?.scopes ?? ""} placeholder="openid email profile groups" />
      </label>
      {(["enabled", "allowRegistration", "trustEmail", "satisfiesTwoFactor"] as const).map((flag) => (
        <label key={flag} className="check-row">
          <input type="hidden" name={flag} value="false" />
          <input type="checkbox" name={flag} value="true" defaultChecked={provider ? provider[flag] : flag === "enabled"} />
          <span>{t(`settings.sso.${flag}`)}</span>
        </label>
      ))}
      <label className="field">
        <span className="field-label">{t("settings.ssoRefreshMinutes")}</span>
        <input type="number" name="refreshMinutes" min={0} max={10080} step={1} defaultValue={provider?.refreshMinutes ?? 0} />
        <span className="field-hint">{t("settings.ssoRefreshMinutesHint")}</span>
      </label>
      <label className="field">
        <span className="field-label">{t("settings.ssoRules")}</span>
        <textarea name="rules" rows={6} spellCheck={false} defaultValue={JSON.stringify(provider?.rules ?? [], null, 2)} />
        <span className="field-hint">{t("settings.ssoRulesHint")}</span>
      </label>
      <div><button type="submit" className="btn btn-primary">{submit}</button></div>
    </form>
  );
}
