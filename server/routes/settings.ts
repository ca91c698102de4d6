// /api/settings: panel settings, one key at a time or as a map.
import { Hono } from "hono";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { readBody } from "../request";
import { requireScope } from "../middleware/require";
import { readSetting, SETTING_KEYS, writeSettings } from "../services/settings";
import { KilnError } from "../../core/errors";
import { parseWith } from "../validate";
import { API_SCHEMAS } from "../../core/api/schemas";
import { setSsoMode } from "../services/sso/mode";

export function settingsRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/settings/*", requireScope(SCOPES.settingsEdit));
  const ctx = () => ({ themes: deps.themes.names });

  app.get("/api/settings/:key", async (c) => c.json(await readSetting(deps.db, c.req.param("key"))));
  app.put("/api/settings/:key", async (c) => {
    const body = parseWith(API_SCHEMAS.value, await readBody(c));
    await writeSettings(deps.db, c.get("user")!, { [c.req.param("key")]: body.value }, ctx());
    return c.body(null, 204);
  });
  // Settings by name rather than key: a structure sent as one ({modSources: {modrinth: {enabled,
  // url}, …}}), and the metrics token ({metricsToken}: "" turns metrics off, as a JSON body means
  // what it says; the settings form keeps a secret left empty).
  app.put("/api/settings", async (c) => {
    const body = await readBody(c);
    const entries: Record<string, unknown> = {};
    const sso: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(body)) {
      if (name === "modSources") entries[SETTING_KEYS.modSources] = JSON.stringify(value);
      else if (name === "metricsToken") entries[SETTING_KEYS.metricsToken] = value;
      else if (name === "ssoOnly" || name === "breakGlassUserId") sso[name] = value;
      else throw new KilnError("ErrSettingNotConfigured", { name });
    }
    // SSO-only mode has its own rule (a break-glass administrator), checked before anything is written.
    if (Object.keys(sso).length > 0) await setSsoMode(deps.db, c.get("user")!, sso);
    if (Object.keys(entries).length > 0) await writeSettings(deps.db, c.get("user")!, entries, { ...ctx(), clearEmpty: [SETTING_KEYS.metricsToken] });
    return c.body(null, 204);
  });
  app.post("/api/settings", async (c) => {
    await writeSettings(deps.db, c.get("user")!, parseWith(API_SCHEMAS.settingsMap, await readBody(c)), ctx());
    return c.body(null, 204);
  });
  return app;
}
