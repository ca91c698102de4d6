// GET /api/userSettings and PUT /api/userSettings/{key}: per-user preferences.
import { Hono } from "hono";
import { API_SCHEMAS } from "../../core/api/schemas";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { validateJson } from "../validate";
import { listUserSettings, setUserSetting } from "../services/users";
import { KilnError } from "../../core/errors";

/** The preferences a user may store, with what each accepts. */
const USER_SETTING_RULES: Record<string, (value: string, deps: Deps) => boolean> = {
  dark: (v) => v === "true" || v === "false",
  preferredTheme: (v, deps) => deps.themes.get(v) !== undefined,
};

export function userSettingsRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/userSettings/*", requireLogin());
  app.get("/api/userSettings", async (c) => c.json(await listUserSettings(deps.db, c.get("user")!.id)));
  app.put("/api/userSettings/:key", validateJson(API_SCHEMAS.value), async (c) => {
    const key = c.req.param("key");
    // Only the table's own keys: "__proto__" or "constructor" are not preferences.
    const rule = Object.hasOwn(USER_SETTING_RULES, key) ? USER_SETTING_RULES[key] : undefined;
    if (!rule) throw new KilnError("ErrSettingNotConfigured", { name: key });
    const value = String(c.req.valid("json").value);
    if (!rule(value, deps)) throw new KilnError("ErrFieldNotBetween", { field: key });
    await setUserSetting(deps.db, c.get("user")!.id, key, value);
    return c.body(null, 204);
  });
  return app;
}
