// GET /api/config (spec section 7): branding and themes, readable before login.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { brandName } from "../render";
import { getSetting, SETTING_KEYS } from "../services/settings";
import { getUserSetting } from "../services/users";

export function configRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/api/config", (c) => {
    const user = c.get("user");
    const preferred = user ? getUserSetting(deps.db, user.id, "preferredTheme") : undefined;
    const active = deps.themes.pick(preferred, getSetting(deps.db, SETTING_KEYS.defaultTheme)).name;
    return c.json({ branding: { name: brandName(deps) }, themes: { active, available: deps.themes.names } });
  });
  return app;
}
