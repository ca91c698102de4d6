// POST /prefs: language, dark mode and theme chosen from a plain form (what the top-bar controls
// post when script is off, and how the language picker always works). Redirects back.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { COOKIES, isHttps, setPreferenceCookie } from "../cookies";
import { isLocale } from "../../core/i18n/locales";
import { setUserSetting } from "../services/users";

/** Only a path on this site: never an absolute URL or a protocol-relative one. */
export function safeBackPath(value: unknown): string {
  return typeof value === "string" && /^\/(?![/\\])[^\s]*$/.test(value) ? value : "/";
}

export function prefsRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.post("/prefs", async (c) => {
    const form = await c.req.parseBody();
    const secure = isHttps(c, deps.config.trustProxy);
    const user = c.get("user");
    if (isLocale(form.locale)) setPreferenceCookie(c, COOKIES.locale, form.locale, secure);
    if (form.dark === "1" || form.dark === "0") {
      if (user) await setUserSetting(deps.db, user.id, "dark", form.dark === "1" ? "true" : "false");
      else setPreferenceCookie(c, COOKIES.dark, form.dark, secure);
    }
    if (typeof form.theme === "string" && deps.themes.get(form.theme)) {
      if (user) await setUserSetting(deps.db, user.id, "preferredTheme", form.theme);
      else setPreferenceCookie(c, COOKIES.theme, form.theme, secure);
    }
    return c.redirect(safeBackPath(form.back), 303);
  });
  return app;
}
