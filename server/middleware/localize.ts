// Picks the request's locale: the stored locale key (cookie), else Accept-Language, else en_US.
import type { Context } from "hono";
import { DEFAULT_LOCALE, isLocale, localeFromAcceptLanguage, type Locale } from "../../core/i18n/locales";
import { translatorFor } from "../../locales/tables";
import { memoByText } from "../../core/memo";
import { COOKIES } from "../cookies";
import { cookieValue } from "./cookie-value";
import type { KilnEnv } from "../context";

/** The locale an Accept-Language value picks, worked out once per distinct value (browsers send a handful). */
const negotiated = memoByText((header) => localeFromAcceptLanguage(header) ?? DEFAULT_LOCALE);

const negotiateHeader = (header: string | undefined): Locale => (header ? negotiated(header) : DEFAULT_LOCALE);

/** Sets the request's locale and its translator. */
export function localizeRequest(c: Context<KilnEnv>): void {
  const stored = cookieValue(c.req.raw.headers.get("cookie"), COOKIES.locale);
  const locale = isLocale(stored) ? stored : negotiateHeader(c.req.header("accept-language"));
  c.set("locale", locale);
  c.set("t", translatorFor(locale));
}
