// The console tab's plain forms: the power actions (each needing its own flag, from the power
// actions' table), a console command, and renaming the server.
import type { Hono } from "hono";
import { KilnError } from "../../../core/errors";
import { POWER_ACTIONS, POWER_ACTION_RULES } from "../../../core/contract";
import { serverName } from "../../../core/api/schemas";
import { KEEP_CHANGED, keepsChanged } from "../../../core/install";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { parseWith } from "../../validate";
import { callServerNode, renameServer } from "../../services/servers";
import type { ServerPageHost } from "./host";

export function consoleFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  for (const action of POWER_ACTIONS) {
    app.post(`/server/:id/power/${action}`, requirePageLogin(), form(POWER_ACTION_RULES[action].needs, "console", async (_c, id, body) => {
      // The Install dialog's choice: keep the files changed since the last install, or not.
      const query = action === "install" && !keepsChanged(body[KEEP_CHANGED]) ? `?${KEEP_CHANGED}=false` : "";
      await callServerNode(deps.db, id, action, {}, { query });
      return `serverPage.sent.${action}`;
    }));
  }

  app.post("/server/:id/console", requirePageLogin(), form("sendServerConsole", "console", async (_c, id, body) => {
    const command = String(body.command ?? "");
    if (command.trim() === "") throw new KilnError("ErrFieldRequired", { field: "command" });
    await callServerNode(deps.db, id, "sendCommand", {}, { body: command });
    return "serverPage.commandSent";
  }));

  app.post("/server/:id/rename", requirePageLogin(), form("editServerData", "console", async (_c, id, body) => {
    await renameServer(deps.db, id, parseWith(serverName, body.name ?? ""));
    return "serverPage.renamed";
  }));
}
