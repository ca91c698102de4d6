// The Settings screen and its forms; they write through the same rules as /api/settings.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render, brandName } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { assertMayChangeSettings, checkSettings, getSetting, isSecretSetting, readSetting, SETTING_KEYS, writeSettings } from "../services/settings";
import { readEmailSettings, sendEmail } from "../services/email";
import { SettingsPage, type SettingsValues } from "../../views/pages/SettingsPage";
import { errorField, type FormError } from "../../views/components/form-errors";
import { errorMessageKey } from "../../core/errors/message-key";

/** Each setting's label on the screen, so a refusal names the field as the form does. */
const SETTING_LABELS: Record<string, string> = {
  [SETTING_KEYS.masterUrl]: "settings.masterUrl",
  [SETTING_KEYS.companyName]: "settings.companyName",
  [SETTING_KEYS.defaultTheme]: "settings.defaultTheme",
  [SETTING_KEYS.registrationEnabled]: "settings.registrationEnabled",
  [SETTING_KEYS.templateRepositories]: "settings.templateRepositories",
  [SETTING_KEYS.curseforgeKey]: "settings.curseforgeKey",
  [SETTING_KEYS.metricsToken]: "settings.metricsToken",
  [SETTING_KEYS.activityRetentionDays]: "settings.activityRetentionDays",
  [SETTING_KEYS.activityMaxRows]: "settings.activityMaxRows",
  [SETTING_KEYS.emailProvider]: "settings.provider",
  [SETTING_KEYS.emailFrom]: "settings.from",
  [SETTING_KEYS.emailHost]: "settings.host",
  [SETTING_KEYS.emailUsername]: "settings.username",
  [SETTING_KEYS.emailDomain]: "settings.domain",
  [SETTING_KEYS.emailKey]: "settings.key",
  [SETTING_KEYS.emailPassword]: "settings.password",
};

/** The General form's checkbox that turns metrics off (clears panel.metrics.token). */
const METRICS_OFF = "panel.metrics.off";

/** The email form's text fields: the setting each posts, and where SettingsValues keeps it. */
const EMAIL_FIELDS: [string, keyof SettingsValues][] = [
  [SETTING_KEYS.emailProvider, "provider"],
  [SETTING_KEYS.emailFrom, "from"],
  [SETTING_KEYS.emailDomain, "domain"],
  [SETTING_KEYS.emailHost, "host"],
  [SETTING_KEYS.emailUsername, "username"],
];

/**
 * A test email's refusal, at the field it is about: a setting the provider needs and the form left
 * empty (named by its label), or the provider itself when none is chosen.
 */
function testError(c: Context<KilnEnv>, error: KilnError): FormError {
  const name = error.metadata?.name;
  if (error.code === "ErrSettingNotConfigured" && typeof name === "string" && Object.hasOwn(SETTING_LABELS, name)) {
    return { message: c.get("t")("errors.ErrSettingNotConfigured", { name: c.get("t")(SETTING_LABELS[name]!) }), field: name };
  }
  if (error.code === "ErrEmailNotConfigured") return { message: c.get("t")("errors.ErrEmailNotConfigured"), field: SETTING_KEYS.emailProvider };
  return formError(c, error);
}

/** A refusal as the form shows it: at its field, which the message names by its label. */
function formError(c: Context<KilnEnv>, error: KilnError): FormError {
  const t = c.get("t");
  const field = errorField(error.metadata);
  const label = field && Object.hasOwn(SETTING_LABELS, field) ? t(SETTING_LABELS[field]!) : undefined;
  return { message: t(errorMessageKey(error.code, error.metadata), label ? { ...error.metadata, field: label } : error.metadata), field };
}

export function settingsPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/settings/*", requirePageLogin(), requireScope(SCOPES.settingsEdit));

  const values = async (): Promise<SettingsValues> => ({
    masterUrl: await getSetting(deps.db, SETTING_KEYS.masterUrl) ?? "",
    companyName: await getSetting(deps.db, SETTING_KEYS.companyName) ?? "",
    defaultTheme: deps.themes.pick(await getSetting(deps.db, SETTING_KEYS.defaultTheme)).name,
    registrationEnabled: await getSetting(deps.db, SETTING_KEYS.registrationEnabled) === "true",
    templateRepositories: await getSetting(deps.db, SETTING_KEYS.templateRepositories) ?? "",
    provider: await getSetting(deps.db, SETTING_KEYS.emailProvider) ?? "none",
    from: await getSetting(deps.db, SETTING_KEYS.emailFrom) ?? "",
    domain: await getSetting(deps.db, SETTING_KEYS.emailDomain) ?? "",
    host: await getSetting(deps.db, SETTING_KEYS.emailHost) ?? "",
    username: await getSetting(deps.db, SETTING_KEYS.emailUsername) ?? "",
    keySet: (await readSetting(deps.db, SETTING_KEYS.emailKey)).isSet === true,
    passwordSet: (await readSetting(deps.db, SETTING_KEYS.emailPassword)).isSet === true,
    curseforgeKeySet: (await readSetting(deps.db, SETTING_KEYS.curseforgeKey)).isSet === true,
    metricsTokenSet: (await readSetting(deps.db, SETTING_KEYS.metricsToken)).isSet === true,
    activityRetentionDays: (await readSetting(deps.db, SETTING_KEYS.activityRetentionDays)).value ?? "",
    activityMaxRows: (await readSetting(deps.db, SETTING_KEYS.activityMaxRows)).value ?? "",
  });
  /** The form as it was posted (text fields; secrets never shown back), so a refused value can be corrected where it stands. */
  const postedValues = async (entries: Record<string, unknown>): Promise<SettingsValues> => {
    const posted = (key: string, stored: string) => (typeof entries[key] === "string" ? (entries[key] as string) : stored);
    const stored = await values();
    return {
      ...stored,
      masterUrl: posted(SETTING_KEYS.masterUrl, stored.masterUrl),
      companyName: posted(SETTING_KEYS.companyName, stored.companyName),
      templateRepositories: posted(SETTING_KEYS.templateRepositories, stored.templateRepositories),
      activityRetentionDays: posted(SETTING_KEYS.activityRetentionDays, stored.activityRetentionDays),
      activityMaxRows: posted(SETTING_KEYS.activityMaxRows, stored.activityMaxRows),
      from: posted(SETTING_KEYS.emailFrom, stored.from),
      domain: posted(SETTING_KEYS.emailDomain, stored.domain),
      host: posted(SETTING_KEYS.emailHost, stored.host),
      username: posted(SETTING_KEYS.emailUsername, stored.username),
    };
  };
  const tabOf = (c: Context) => (c.req.query("tab") === "email" ? "email" : "general");

  app.get("/settings", async (c) => render(c, deps, <SettingsPage tab={tabOf(c)} values={await values()} />));

  async function save(c: Context<KilnEnv>, tab: "general" | "email", keys: readonly string[]) {
    // The registration checkbox follows a hidden "false": with both present, the last one wins.
    const form = await c.req.parseBody({ all: true });
    const entries: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(form)) if (keys.includes(key)) entries[key] = Array.isArray(value) ? value[value.length - 1] : value;
    // "Turn metrics off" clears the token, which an empty field (a secret is never shown back) would keep.
    const metricsOff = tab === "general" && form[METRICS_OFF] === "true";
    if (metricsOff) entries[SETTING_KEYS.metricsToken] = "";
    try {
      await writeSettings(deps.db, c.get("user")!, entries, { themes: deps.themes.names, clearEmpty: metricsOff ? [SETTING_KEYS.metricsToken] : [] });
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <SettingsPage tab={tab} values={await postedValues(entries)} error={formError(c, error)} />, error.status);
    }
    setFlash(c, "settings.saved", isHttps(c, deps.config.trustProxy));
    return c.redirect(tab === "email" ? "/settings?tab=email" : "/settings", 303);
  }

  const GENERAL = [SETTING_KEYS.masterUrl, SETTING_KEYS.companyName, SETTING_KEYS.defaultTheme, SETTING_KEYS.registrationEnabled, SETTING_KEYS.templateRepositories, SETTING_KEYS.curseforgeKey, SETTING_KEYS.metricsToken, SETTING_KEYS.activityRetentionDays, SETTING_KEYS.activityMaxRows];
  const EMAIL = Object.values(SETTING_KEYS).filter((k) => k.startsWith("panel.email."));
  app.post("/settings/general", (c) => save(c, "general", GENERAL));
  app.post("/settings/email", (c) => save(c, "email", EMAIL));
  // The test email goes out with what the form holds, saved or not, and saves nothing: a test is
  // how one finds out whether to save. An empty secret means the stored one, as when saving. The
  // shell's fetch-submit asks for JSON and shows the answer in a toast; without script the page
  // comes back with the form as it was posted.
  app.post("/settings/email/test", async (c) => {
    const user = c.get("user")!;
    const t = c.get("t");
    const form = await c.req.parseBody();
    const entries: Record<string, unknown> = {};
    for (const key of EMAIL) if (typeof form[key] === "string") entries[key] = form[key];
    const asJson = (c.req.header("accept") ?? "").includes("application/json");
    const stored = await values();
    const typedSecret = Object.keys(entries).some((key) => isSecretSetting(key) && entries[key] !== "");
    const shown: SettingsValues = {
      ...stored,
      ...Object.fromEntries(EMAIL_FIELDS.filter(([key]) => typeof entries[key] === "string").map(([key, field]) => [field, entries[key]])),
    };
    try {
      const unsaved = checkSettings(entries, { themes: deps.themes.names });
      // The test sends what the form holds, so it follows the same rules as saving it would.
      await assertMayChangeSettings(deps.db, user, unsaved);
      await sendEmail(
        { db: deps.db, mailgunBaseUrl: deps.config.mailgunBaseUrl, mailjetBaseUrl: deps.config.mailjetBaseUrl },
        { to: user.email, subject: t("email.test.subject", { brand: await brandName(deps) }), text: t("email.test.text", { brand: await brandName(deps) }) },
        await readEmailSettings(deps.db, unsaved),
      );
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      const shownError = testError(c, error);
      if (asJson) return c.json({ error: { ...error.toBody().error, msg: shownError.message } }, error.status as 400);
      return render(c, deps, <SettingsPage tab="email" values={shown} error={shownError} tested={{ typedSecret }} />, error.status);
    }
    if (asJson) return c.json({ msg: t("settings.testSent") });
    return render(c, deps, <SettingsPage tab="email" values={shown} tested={{ sentTo: user.email, typedSecret }} />);
  });
  return app;
}
