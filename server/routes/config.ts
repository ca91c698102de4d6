// GET /api/config: branding and themes, readable before login.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { brandName } from "../render";
import { getSetting, isRegistrationEnabled, SETTING_KEYS } from "../services/settings";
import { getUserSetting } from "../services/users";

export function configRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/api/config", async (c) => {
    const user = c.get("user");
    const preferred = user ? await getUserSetting(deps.db, user.id, "preferredTheme") : undefined;
    const active = deps.themes.pick(preferred, await getSetting(deps.db, SETTING_KEYS.defaultTheme)).name;
    // registrationEnabled as PufferPanel's config answers it: clients offer "register" by it.
    return c.json({ branding: { name: await brandName(deps) }, themes: { active, available: deps.themes.names }, registrationEnabled: await isRegistrationEnabled(deps.db) });
  });
  return app;
}
