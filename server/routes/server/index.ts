// The server screens: add server, and one server with its tabs (the list is ../server-list-page).
// Every action is a plain form that posts here, so the page works without script; the islands do
// the same through the API and the socket when script runs. One file per tab's forms.
import { Hono } from "hono";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { serverPageHost } from "./host";
import { addServerRoutes } from "./add";
import { consoleFormRoutes } from "./console";
import { settingsFormRoutes } from "./settings";
import { fileFormRoutes } from "./files";
import { backupFormRoutes } from "./backups";
import { playerFormRoutes } from "./players";
import { modFormRoutes } from "./mods";
import { taskFormRoutes } from "./tasks";
import { userFormRoutes } from "./users";
import { adminFormRoutes } from "./admin";
import { transferFormRoutes } from "./transfer";
import { networkFormRoutes } from "./network";
import { stashedPlacement } from "../../services/placement/placement-notes";

export function serverPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const host = serverPageHost(deps);
  addServerRoutes(app, deps, host);
  app.get("/server/:id", requirePageLogin(), async (c) => {
    const { server, access } = await host.load(c);
    // Just made by "Best node": the page says where it went and why (services/placement/placement-notes).
    const placed = await stashedPlacement(deps.db, c.req.query("placed"), server.id);
    return host.page(c, server, access, c.req.query("tab"), placed ? { placed } : {});
  });
  consoleFormRoutes(app, deps, host);
  settingsFormRoutes(app, deps, host);
  fileFormRoutes(app, deps, host);
  backupFormRoutes(app, deps, host);
  playerFormRoutes(app, deps, host);
  modFormRoutes(app, deps, host);
  taskFormRoutes(app, deps, host);
  userFormRoutes(app, deps, host);
  networkFormRoutes(app, deps, host);
  adminFormRoutes(app, deps, host);
  transferFormRoutes(app, deps, host);
  return app;
}
