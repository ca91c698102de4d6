// /api/settings (spec section 7): panel settings, one key at a time or as a map.
import { Hono } from "hono";
import { SCOPES } from "../../core/scopes";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { readBody } from "../request";
import { requireScope } from "../middleware/require";
import { readSetting, writeSettings } from "../services/settings";

export function settingsRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/settings", requireScope(SCOPES.settingsEdit));
  app.use("/api/settings/*", requireScope(SCOPES.settingsEdit));
  const ctx = () => ({ themes: deps.themes.names });

  app.get("/api/settings/:key", (c) => c.json(readSetting(deps.db, c.req.param("key"))));
  app.put("/api/settings/:key", async (c) => {
    const body = await readBody(c);
    if (!("value" in body)) throw new KilnError("ErrFieldRequired", { field: "value" });
    writeSettings(deps.db, { [c.req.param("key")]: body.value }, ctx());
    return c.body(null, 204);
  });
  app.post("/api/settings", async (c) => {
    writeSettings(deps.db, await readBody(c), ctx());
    return c.body(null, 204);
  });
  return app;
}
