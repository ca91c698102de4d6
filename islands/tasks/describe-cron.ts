// A schedule in words, in the browser, for the schedule editor's live preview: the words the tasks
// list shows (core/cron/describe.ts: cronstrue in the panel's language, 24-hour time).
// The schedule editor imports this module (with cronstrue) only when the schedule is first changed,
// and it loads one language: never with the page, since the server has already described the
// schedule the dialog opens with.
import cronstrue from "cronstrue";
import { expandAlias } from "../../core/cron";

/** Every language core/cron/describe.ts cronstrueLocale can name for a panel locale ("en" is built in). */
export const CRONSTRUE_LOCALES: Record<string, () => Promise<unknown>> = {
  ar: () => import("cronstrue/locales/ar"),
  bg: () => import("cronstrue/locales/bg"),
  ca: () => import("cronstrue/locales/ca"),
  cs: () => import("cronstrue/locales/cs"),
  da: () => import("cronstrue/locales/da"),
  de: () => import("cronstrue/locales/de"),
  es: () => import("cronstrue/locales/es"),
  fa: () => import("cronstrue/locales/fa"),
  fi: () => import("cronstrue/locales/fi"),
  fr: () => import("cronstrue/locales/fr"),
  he: () => import("cronstrue/locales/he"),
  hr: () => import("cronstrue/locales/hr"),
  hu: () => import("cronstrue/locales/hu"),
  id: () => import("cronstrue/locales/id"),
  it: () => import("cronstrue/locales/it"),
  ja: () => import("cronstrue/locales/ja"),
  ko: () => import("cronstrue/locales/ko"),
  nb: () => import("cronstrue/locales/nb"),
  nl: () => import("cronstrue/locales/nl"),
  pl: () => import("cronstrue/locales/pl"),
  pt_BR: () => import("cronstrue/locales/pt_BR"),
  pt_PT: () => import("cronstrue/locales/pt_PT"),
  ro: () => import("cronstrue/locales/ro"),
  ru: () => import("cronstrue/locales/ru"),
  sk: () => import("cronstrue/locales/sk"),
  sl: () => import("cronstrue/locales/sl"),
  sr: () => import("cronstrue/locales/sr"),
  sv: () => import("cronstrue/locales/sv"),
  th: () => import("cronstrue/locales/th"),
  tr: () => import("cronstrue/locales/tr"),
  uk: () => import("cronstrue/locales/uk"),
  vi: () => import("cronstrue/locales/vi"),
  zh_CN: () => import("cronstrue/locales/zh_CN"),
  zh_TW: () => import("cronstrue/locales/zh_TW"),
};

export type Describe = (expression: string) => string | null;

/** Loads cronstrue and `locale` (a cronstrue name from the server); the describer then answers in it, or in English. */
export async function loadDescriber(locale: string): Promise<Describe> {
  const language = CRONSTRUE_LOCALES[locale];
  // A language that fails to load leaves English, which is better than no preview.
  const known = language ? await language().then(() => true, () => false) : locale === "en";
  return (expression) => {
    try {
      return cronstrue.toString(expandAlias(expression), { locale: known ? locale : "en", use24HourTimeFormat: true, throwExceptionOnParseError: true });
    } catch {
      return null;
    }
  };
}
