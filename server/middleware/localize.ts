// Picks the request's locale: the stored locale key (cookie), else Accept-Language, else en_US.
import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { DEFAULT_LOCALE, isLocale, localeFromAcceptLanguage } from "../../core/i18n/locales";
import { translatorFor } from "../../locales/tables";
import { COOKIES } from "../cookies";
import type { KilnEnv } from "../context";

export const localize = (): MiddlewareHandler<KilnEnv> =>
  async function localize(c, next) {
    const stored = getCookie(c, COOKIES.locale);
    const locale = isLocale(stored) ? stored : (localeFromAcceptLanguage(c.req.header("accept-language")) ?? DEFAULT_LOCALE);
    c.set("locale", locale);
    c.set("t", translatorFor(locale));
    await next();
  };
