// GET /api/config: branding and themes, readable before login.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { brandNameIn } from "../render";
import { registrationEnabledIn, SETTING_KEYS, storedSettings } from "../services/settings";
import { getUserSetting } from "../services/users";
import { securedAnswer } from "../middleware/security-headers";

export function configRoutes(deps: Deps) {
  /** The answer as JSON text, for a caller whose preferred theme is `preferred`. */
  const answer = (settings: ReadonlyMap<string, string>, preferred: string | undefined) =>
    JSON.stringify({
      branding: { name: brandNameIn(deps, settings) },
      themes: { active: deps.themes.pick(preferred, settings.get(SETTING_KEYS.defaultTheme)).name, available: deps.themes.names },
      // As PufferPanel's config answers it: clients offer "register" by it.
      registrationEnabled: registrationEnabledIn(settings),
    });
  // What a caller without a preferred theme is answered, kept with the settings map it was
  // worked out from (a new map after any write: storedSettings), so it is never stale.
  const anonymous = new WeakMap<ReadonlyMap<string, string>, string>();

  const app = new Hono<KilnEnv>();
  app.get("/api/config", async (c) => {
    const user = c.get("user");
    const settings = await storedSettings(deps.db);
    const preferred = user ? await getUserSetting(deps.db, user.id, "preferredTheme") : undefined;
    if (preferred !== undefined) return securedAnswer(answer(settings, preferred), "application/json");
    let body = anonymous.get(settings);
    if (body === undefined) anonymous.set(settings, (body = answer(settings, undefined)));
    return securedAnswer(body, "application/json");
  });
  return app;
}
