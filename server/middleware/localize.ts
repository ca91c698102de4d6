// Picks the request's locale: the stored locale key (cookie), else Accept-Language, else en_US.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { DEFAULT_LOCALE, isLocale, localeFromAcceptLanguage, type Locale } from "../../core/i18n/locales";
import { translatorFor } from "../../locales/tables";
import { COOKIES } from "../cookies";
import type { KilnEnv } from "../context";

/** Accept-Language values seen, and the locale each picks: browsers send a handful of them. */
const negotiated = new Map<string, Locale>();
/** Past this many distinct values (someone sending made-up ones) the map starts again. */
const NEGOTIATED_MAX = 1000;

function negotiate(header: string | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  let locale = negotiated.get(header);
  if (!locale) {
    locale = localeFromAcceptLanguage(header) ?? DEFAULT_LOCALE;
    if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
    negotiated.set(header, locale);
  }
  return locale;
}

export const localize = (): MiddlewareHandler<KilnEnv> =>
  async function localize(c, next) {
    const stored = getCookie(c, COOKIES.locale);
    const locale = isLocale(stored) ? stored : negotiate(c.req.header("accept-language"));
    c.set("locale", locale);
    c.set("t", translatorFor(locale));
    await next();
  };
