// A task's schedule in words, for the tasks tab: the description's language follows the locale;
// Chinese variants map to two languages, others use the language part, default en. Pure, so the
// server's views describe schedules with it and the islands' tests compare against it; but for
// the server only: cronstrue's i18n build carries every language and is far too large for a
// browser island (islands/tasks/describe-cron.ts loads one language instead). Not exported from
// ./index for that reason: an island importing core/cron must not pull this in.
import type cronstrueType from "cronstrue/i18n";
import { expandAlias } from "./aliases";

/** Chinese is written two ways; the script or region says which (zh-Hans/zh-CN/zh-SG vs zh-Hant/zh-TW/zh-HK/zh-MO). Matched after "-" became "_". */
const TRADITIONAL_CHINESE = /^zh_(hant|tw|hk|mo)(_|$)/i;

/** Languages the panel names otherwise than cronstrue: Norwegian is "no" in the picker, Bokmål ("nb") in cronstrue. */
const LANGUAGE_ALIASES: Record<string, string> = { no: "nb" };

/** cronstrue, required on first use: every language's texts would cost an idle panel memory. */
function cronstrue(): typeof cronstrueType {
  return (require("cronstrue/i18n") as { default: typeof cronstrueType }).default;
}

/** The cronstrue language for a panel locale ("de_DE", "pt-BR", "zh-Hant"…); English when cronstrue has none. */
export function cronstrueLocale(locale: string): string {
  const known = (cronstrue() as unknown as { locales: Record<string, unknown> }).locales;
  const tag = locale.trim().replace(/-/g, "_");
  const [language = "", region = ""] = tag.split("_");
  const lang = LANGUAGE_ALIASES[language.toLowerCase()] ?? language.toLowerCase();
  if (lang === "zh") return TRADITIONAL_CHINESE.test(tag) ? "zh_TW" : "zh_CN";
  // Some languages come in regional variants (pt_BR, pt_PT): the exact one first.
  const regional = `${lang}_${region.toUpperCase()}`;
  if (region && regional in known) return regional;
  if (lang in known) return lang;
  // No regional match asked for (plain "pt"): the first variant cronstrue has of the language.
  return Object.keys(known).find((name) => name.startsWith(`${lang}_`)) ?? "en";
}

/**
 * The schedule in words in the locale's language, or null for a manual-only task (null or blank).
 * An expression cronstrue cannot read (it was accepted by the schedule check, so this is rare) is
 * shown as it is rather than hidden.
 */
export function describeSchedule(cron: string | null, locale: string): string | null {
  const expression = cron?.trim();
  if (!expression) return null;
  try {
    return cronstrue().toString(expandAlias(expression), { locale: cronstrueLocale(locale), use24HourTimeFormat: true, throwExceptionOnParseError: true });
  } catch {
    return expression;
  }
}
