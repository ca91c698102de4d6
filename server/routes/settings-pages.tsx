// The Settings screen and its forms; they write through the same rules as /api/settings.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render, brandName } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { getSetting, readSetting, SETTING_KEYS, writeSettings } from "../services/settings";
import { sendEmail } from "../services/email";
import { SettingsPage, type SettingsValues } from "../../views/pages/SettingsPage";
import { errorField, type FormError } from "../../views/components/form-errors";

/** Each setting's label on the screen, so a refusal names the field as the form does. */
const SETTING_LABELS: Record<string, string> = {
  [SETTING_KEYS.masterUrl]: "settings.masterUrl",
  [SETTING_KEYS.companyName]: "settings.companyName",
  [SETTING_KEYS.defaultTheme]: "settings.defaultTheme",
  [SETTING_KEYS.registrationEnabled]: "settings.registrationEnabled",
  [SETTING_KEYS.templateRepositories]: "settings.templateRepositories",
  [SETTING_KEYS.emailProvider]: "settings.provider",
  [SETTING_KEYS.emailFrom]: "settings.from",
  [SETTING_KEYS.emailHost]: "settings.host",
  [SETTING_KEYS.emailUsername]: "settings.username",
  [SETTING_KEYS.emailDomain]: "settings.domain",
  [SETTING_KEYS.emailKey]: "settings.key",
  [SETTING_KEYS.emailPassword]: "settings.password",
};

/** A refusal as the form shows it: at its field, which the message names by its label. */
function formError(c: Context<KilnEnv>, error: KilnError): FormError {
  const t = c.get("t");
  const field = errorField(error.metadata);
  const label = field && Object.hasOwn(SETTING_LABELS, field) ? t(SETTING_LABELS[field]!) : undefined;
  return { message: t(`errors.${error.code}`, label ? { ...error.metadata, field: label } : error.metadata), field };
}

export function settingsPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/settings", requirePageLogin(), requireScope(SCOPES.settingsEdit));
  app.use("/settings/*", requirePageLogin(), requireScope(SCOPES.settingsEdit));

  const values = (): SettingsValues => ({
    masterUrl: getSetting(deps.db, SETTING_KEYS.masterUrl) ?? "",
    companyName: getSetting(deps.db, SETTING_KEYS.companyName) ?? "",
    defaultTheme: deps.themes.pick(getSetting(deps.db, SETTING_KEYS.defaultTheme)).name,
    registrationEnabled: getSetting(deps.db, SETTING_KEYS.registrationEnabled) === "true",
    templateRepositories: getSetting(deps.db, SETTING_KEYS.templateRepositories) ?? "",
    provider: getSetting(deps.db, SETTING_KEYS.emailProvider) ?? "none",
    from: getSetting(deps.db, SETTING_KEYS.emailFrom) ?? "",
    domain: getSetting(deps.db, SETTING_KEYS.emailDomain) ?? "",
    host: getSetting(deps.db, SETTING_KEYS.emailHost) ?? "",
    username: getSetting(deps.db, SETTING_KEYS.emailUsername) ?? "",
    keySet: readSetting(deps.db, SETTING_KEYS.emailKey).isSet === true,
    passwordSet: readSetting(deps.db, SETTING_KEYS.emailPassword).isSet === true,
  });
  /** The form as it was posted (text fields; secrets never shown back), so a refused value can be corrected where it stands. */
  const postedValues = (entries: Record<string, unknown>): SettingsValues => {
    const posted = (key: string, stored: string) => (typeof entries[key] === "string" ? (entries[key] as string) : stored);
    const stored = values();
    return {
      ...stored,
      masterUrl: posted(SETTING_KEYS.masterUrl, stored.masterUrl),
      companyName: posted(SETTING_KEYS.companyName, stored.companyName),
      templateRepositories: posted(SETTING_KEYS.templateRepositories, stored.templateRepositories),
      from: posted(SETTING_KEYS.emailFrom, stored.from),
      domain: posted(SETTING_KEYS.emailDomain, stored.domain),
      host: posted(SETTING_KEYS.emailHost, stored.host),
      username: posted(SETTING_KEYS.emailUsername, stored.username),
    };
  };
  const tabOf = (c: Context) => (c.req.query("tab") === "email" ? "email" : "general");

  app.get("/settings", (c) => render(c, deps, <SettingsPage tab={tabOf(c)} values={values()} />));

  async function save(c: Context<KilnEnv>, tab: "general" | "email", keys: readonly string[]) {
    // The registration checkbox follows a hidden "false": with both present, the last one wins.
    const form = await c.req.parseBody({ all: true });
    const entries: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(form)) if (keys.includes(key)) entries[key] = Array.isArray(value) ? value[value.length - 1] : value;
    try {
      writeSettings(deps.db, entries, { themes: deps.themes.names });
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <SettingsPage tab={tab} values={postedValues(entries)} error={formError(c, error)} />, error.status);
    }
    setFlash(c, "settings.saved", isHttps(c, deps.config.trustProxy));
    return c.redirect(tab === "email" ? "/settings?tab=email" : "/settings", 303);
  }

  const GENERAL = [SETTING_KEYS.masterUrl, SETTING_KEYS.companyName, SETTING_KEYS.defaultTheme, SETTING_KEYS.registrationEnabled, SETTING_KEYS.templateRepositories];
  const EMAIL = Object.values(SETTING_KEYS).filter((k) => k.startsWith("panel.email."));
  app.post("/settings/general", (c) => save(c, "general", GENERAL));
  app.post("/settings/email", (c) => save(c, "email", EMAIL));
  app.post("/settings/email/test", async (c) => {
    const user = c.get("user")!;
    const t = c.get("t");
    try {
      await sendEmail(
        { db: deps.db, mailgunBaseUrl: deps.config.mailgunBaseUrl, mailjetBaseUrl: deps.config.mailjetBaseUrl },
        { to: user.email, subject: t("email.test.subject", { brand: brandName(deps) }), text: t("email.test.text", { brand: brandName(deps) }) },
      );
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <SettingsPage tab="email" values={values()} error={formError(c, error)} />, error.status);
    }
    setFlash(c, "settings.testSent", isHttps(c, deps.config.trustProxy));
    return c.redirect("/settings?tab=email", 303);
  });
  return app;
}
