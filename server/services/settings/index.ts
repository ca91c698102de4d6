// Panel-wide settings: a fixed set of keys, each with its rule.
// Secrets are write-only: reading one tells only whether it is set.
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { settingsWritten, storedSettings } from "./stored";

export { storedSettings };
import { KilnError } from "../../../core/errors";
import { EMAIL_PROVIDERS } from "../../../core/email";
import { modSourcesRule } from "../mods/sources";
import { recordEvent } from "../activity/record";
import { SCOPES } from "../../../core/scopes";

/** How long the activity log keeps rows, and how many at most, when the settings say nothing. */
export const ACTIVITY_DEFAULTS = { retentionDays: 90, maxRows: 1_000_000 };

export const SETTING_KEYS = {
  masterUrl: "panel.settings.masterUrl",
  companyName: "panel.settings.companyName",
  defaultTheme: "panel.settings.defaultTheme",
  registrationEnabled: "panel.registrationEnabled",
  emailProvider: "panel.email.provider",
  emailFrom: "panel.email.from",
  emailDomain: "panel.email.domain",
  emailKey: "panel.email.key",
  emailHost: "panel.email.host",
  emailUsername: "panel.email.username",
  emailPassword: "panel.email.password",
  templateRepositories: "panel.templates.repositories",
  modSources: "panel.mods.sources",
  curseforgeKey: "panel.mods.curseforgeKey",
  metricsToken: "panel.metrics.token",
  activityRetentionDays: "panel.activity.retentionDays",
  activityMaxRows: "panel.activity.maxRows",
} as const;

export type SettingKey = (typeof SETTING_KEYS)[keyof typeof SETTING_KEYS];

/**
 * Settings that decide where the panel sends people, code and credentials: the address invitation
 * links, passkeys, sign-in callbacks and every new node's install command name (a node's install
 * runs what that address serves, as root), the template repositories and mod sources that
 * servers' install steps and files come from, and where its mail goes (the provider, the SMTP
 * host and credentials, the Mailgun domain, the providers' keys), which carries every invitation
 * link. Only an administrator changes them: a holder of settings.edit pointing them at a host or
 * account of their own would take invited accounts, new nodes and every server that installs from
 * them. The sender's address (panel.email.from) is not among them: it sends nothing anywhere.
 */
export const ADMIN_ONLY_SETTINGS: readonly SettingKey[] = [
  SETTING_KEYS.masterUrl,
  SETTING_KEYS.templateRepositories,
  SETTING_KEYS.modSources,
  SETTING_KEYS.emailProvider,
  SETTING_KEYS.emailHost,
  SETTING_KEYS.emailUsername,
  SETTING_KEYS.emailPassword,
  SETTING_KEYS.emailDomain,
  SETTING_KEYS.emailKey,
];

const SECRET_KEYS = new Set<string>([SETTING_KEYS.emailKey, SETTING_KEYS.emailPassword, SETTING_KEYS.curseforgeKey, SETTING_KEYS.metricsToken]);
const PRINTABLE = /^[\x20-\x7e]*$/;
/**
 * The longest text setting (an email address, host, username, domain, key or password; the
 * CurseForge key): far more than any real one, and every panel process keeps every setting in
 * memory, so a form posting megabytes must not become one.
 */
export const MAX_SETTING_TEXT = 1024;

export interface SettingsContext {
  themes: readonly string[];
  /** Secrets an empty value clears rather than keeps: a JSON body says what it means, a form cannot show a secret back. */
  clearEmpty?: readonly string[];
}

/** Each key's rule: the stored text for a good value, or a catalogue error. */
const RULES: Record<SettingKey, (value: string, ctx: SettingsContext) => string> = {
  "panel.settings.masterUrl": (v) => {
    if (v === "") return v;
    try {
      const url = new URL(v);
      if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error();
      return v.replace(/\/+$/, "");
    } catch {
      throw new KilnError("ErrFieldIsInvalidHost", { field: SETTING_KEYS.masterUrl });
    }
  },
  "panel.settings.companyName": (v) => {
    if (v.length > 100) throw new KilnError("ErrFieldTooLarge", { field: SETTING_KEYS.companyName, max: 100 });
    // A name on one line: the brand heads every invitation email above its link, and a settings
    // editor (no administrator) once wrote a paragraph and a link of their own into all of them.
    const name = v.trim();
    if (/[\p{Cc}\u2028\u2029]/u.test(name)) throw new KilnError("ErrFieldHasControlCharacters", { field: SETTING_KEYS.companyName });
    return name;
  },
  "panel.settings.defaultTheme": (v, { themes }) => {
    if (!themes.includes(v)) throw new KilnError("ErrFieldNotBetween", { field: SETTING_KEYS.defaultTheme });
    return v;
  },
  "panel.registrationEnabled": (v) => {
    if (v !== "true" && v !== "false") throw new KilnError("ErrFieldNotBetween", { field: SETTING_KEYS.registrationEnabled });
    return v;
  },
  "panel.email.provider": (v) => {
    if (!(EMAIL_PROVIDERS as readonly string[]).includes(v)) throw new KilnError("ErrServiceInvalidProvider", { service: "email", provider: v, field: SETTING_KEYS.emailProvider });
    return v;
  },
  "panel.email.from": printable("panel.email.from"),
  "panel.email.domain": printable("panel.email.domain"),
  "panel.email.key": printable("panel.email.key"),
  "panel.email.host": printable("panel.email.host"),
  "panel.email.username": printable("panel.email.username"),
  "panel.email.password": (v) => withinTextBound("panel.email.password", v),
  "panel.templates.repositories": repositoryList,
  "panel.mods.sources": modSourcesRule,
  "panel.mods.curseforgeKey": printable("panel.mods.curseforgeKey"),
  "panel.metrics.token": metricsToken,
  "panel.activity.retentionDays": wholeBetween("panel.activity.retentionDays", 1, 3650),
  "panel.activity.maxRows": wholeBetween("panel.activity.maxRows", 1000, 100_000_000),
};

/** Template repositories: http(s) base URLs, one per line (blank lines dropped, at most 20). */
function repositoryList(v: string): string {
  const urls = v.split(/\r?\n/).map((line) => line.trim()).filter(Boolean);
  if (urls.length > 20) throw new KilnError("ErrFieldTooLarge", { field: SETTING_KEYS.templateRepositories, max: 20 });
  for (const line of urls) {
    let url: URL;
    try {
      url = new URL(line);
    } catch {
      throw new KilnError("ErrFieldIsInvalidHost", { field: SETTING_KEYS.templateRepositories });
    }
    if ((url.protocol !== "http:" && url.protocol !== "https:") || url.username || url.password) {
      throw new KilnError("ErrFieldIsInvalidHost", { field: SETTING_KEYS.templateRepositories });
    }
  }
  return [...new Set(urls.map((u) => u.replace(/\/+$/, "")))].join("\n");
}

function wholeBetween(field: string, min: number, max: number) {
  return (v: string) => {
    const n = /^\d{1,10}$/.test(v.trim()) ? Number(v.trim()) : NaN;
    if (!(n >= min && n <= max)) throw new KilnError("ErrFieldNotBetween", { field, min, max });
    return String(n);
  };
}

export const METRICS_TOKEN_MIN = 16;
/** Prometheus sends the token in a header on every scrape: no longer than this. */
export const METRICS_TOKEN_MAX = 256;

/** The bearer token /metrics asks for (server/metrics/token): printable, METRICS_TOKEN_MIN or more characters; empty turns metrics off. */
function metricsToken(v: string): string {
  const token = v.trim();
  if (token === "") return token;
  if (!PRINTABLE.test(token)) throw new KilnError("ErrFieldMustBePrintable", { field: SETTING_KEYS.metricsToken });
  if (token.length < METRICS_TOKEN_MIN) throw new KilnError("ErrFieldLength", { field: SETTING_KEYS.metricsToken, length: METRICS_TOKEN_MIN });
  if (token.length > METRICS_TOKEN_MAX) throw new KilnError("ErrFieldTooLarge", { field: SETTING_KEYS.metricsToken, max: METRICS_TOKEN_MAX });
  return token;
}

function printable(field: string) {
  return (v: string) => {
    withinTextBound(field, v);
    if (!PRINTABLE.test(v)) throw new KilnError("ErrFieldMustBePrintable", { field });
    return v.trim();
  };
}

function withinTextBound(field: string, v: string): string {
  if (v.length > MAX_SETTING_TEXT) throw new KilnError("ErrFieldTooLarge", { field, max: MAX_SETTING_TEXT });
  return v;
}

/** Only the rules' own keys: `in` would also find what every object inherits ("constructor", "__proto__"). */
export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(RULES, key);
}

export function isSecretSetting(key: string): boolean {
  return SECRET_KEYS.has(key);
}

export async function getSetting(db: Db, key: string): Promise<string | undefined> {
  return (await storedSettings(db)).get(key);
}

export async function setSetting(db: Db, key: string, value: string): Promise<void> {
  try {
    await db.insert(schema.settings).values({ key, value }).onConflictDoUpdate({ target: schema.settings.key, set: { value } }).run();
  } finally {
    await settingsWritten(db);
  }
}

/** What GET /api/settings/{key} answers: the value, or for a secret only whether it is set. */
export async function readSetting(db: Db, key: string): Promise<{ value: string | null; isSet?: boolean }> {
  if (!isSettingKey(key)) throw new KilnError("ErrSettingNotConfigured", { name: key });
  const value = await getSetting(db, key);
  if (isSecretSetting(key)) return { value: null, isSet: value !== undefined && value !== "" };
  return { value: value ?? defaultOf(key) };
}

function defaultOf(key: SettingKey): string {
  if (key === SETTING_KEYS.registrationEnabled) return "false";
  if (key === SETTING_KEYS.activityRetentionDays) return String(ACTIVITY_DEFAULTS.retentionDays);
  if (key === SETTING_KEYS.activityMaxRows) return String(ACTIVITY_DEFAULTS.maxRows);
  if (key === SETTING_KEYS.emailProvider) return "none";
  return "";
}

export async function isRegistrationEnabled(db: Db): Promise<boolean> {
  return registrationEnabledIn(await storedSettings(db));
}

/** Whether `settings` (every stored setting, as storedSettings reads them) open registration. */
export function registrationEnabledIn(settings: ReadonlyMap<string, string>): boolean {
  return settings.get(SETTING_KEYS.registrationEnabled) === "true";
}

/**
 * Every entry checked by its rule, as it would be stored; nothing is written. An empty secret is
 * left out (a form never shows secrets back, so empty means "keep the stored one").
 */
export function checkSettings(entries: Record<string, unknown>, ctx: SettingsContext): Map<SettingKey, string> {
  const clean = new Map<SettingKey, string>();
  for (const [key, raw] of Object.entries(entries)) {
    if (!isSettingKey(key)) throw new KilnError("ErrSettingNotConfigured", { name: key });
    if (raw === null || raw === undefined) continue;
    const text = typeof raw === "boolean" || typeof raw === "number" ? String(raw) : raw;
    if (typeof text !== "string") throw new KilnError("ErrFieldMustBePrintable", { field: key });
    // An empty secret from a form means "leave it as it is": forms never show secrets back.
    if (isSecretSetting(key) && text === "" && !ctx.clearEmpty?.includes(key)) continue;
    clean.set(key, RULES[key](text, ctx));
  }
  return clean;
}

/**
 * Whether `actor` may make these checked changes: the administrators' settings (ADMIN_ONLY_SETTINGS)
 * changed by anyone else are ErrMissingScope (sent as they are stored, they are no change: a form
 * sends every field back); and the stored SMTP password goes only to the host it was saved with,
 * so a change of host (or to the smtp provider) that does not give it again is ErrFieldRequired,
 * or whoever may change settings could have it sent to a relay of their own (nodemailer
 * authenticates on connecting).
 */
export async function assertMayChangeSettings(db: Db, actor: { scopes: readonly string[] }, clean: ReadonlyMap<SettingKey, string>): Promise<void> {
  const stored = await storedSettings(db);
  const changes = (key: SettingKey) => clean.has(key) && clean.get(key)!.trim() !== (stored.get(key) ?? defaultOf(key)).trim();
  // A secret given at all is a change: answering "no change" for the stored one would let whoever
  // may not change it test guesses at it.
  const adminChanges = (key: SettingKey) => (isSecretSetting(key) ? clean.has(key) : changes(key));
  if (!actor.scopes.includes(SCOPES.admin)) {
    const key = ADMIN_ONLY_SETTINGS.find(adminChanges);
    if (key !== undefined) throw new KilnError("ErrMissingScope", { scope: SCOPES.admin, field: key });
  }
  const passwordStored = (stored.get(SETTING_KEYS.emailPassword) ?? "") !== "";
  const passwordGiven = (clean.get(SETTING_KEYS.emailPassword) ?? "") !== "";
  const toSmtp = changes(SETTING_KEYS.emailProvider) && clean.get(SETTING_KEYS.emailProvider) === "smtp";
  if (passwordStored && !passwordGiven && (changes(SETTING_KEYS.emailHost) || toSmtp)) throw new KilnError("ErrFieldRequired", { field: SETTING_KEYS.emailPassword });
}

/** Validates every entry first (and that `actor` may make each change), then writes them all in one transaction: all or nothing. */
export async function writeSettings(db: Db, actor: { scopes: readonly string[] }, entries: Record<string, unknown>, ctx: SettingsContext): Promise<void> {
  const clean = checkSettings(entries, ctx);
  await assertMayChangeSettings(db, actor, clean);
  try {
    await db.transaction(async (tx) => {
      for (const [key, value] of clean) await setSetting(tx, key, value);
      // Which keys changed, never their values: a secret is one.
      if (clean.size > 0) await recordEvent(tx, "settings.changed", { properties: { keys: [...clean.keys()] } });
    });
  } finally {
    // A rolled-back write must not stay in the kept copy either.
    await settingsWritten(db);
  }
}
