// The settings tab's form: the variables the caller may change (services/servers/variables).
import type { Hono } from "hono";
import { variablesFromForm } from "../../../core/definition/variable-form";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { setVariables } from "../../services/servers/variables";
import type { ServerPageHost } from "./host";

export function settingsFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form }: ServerPageHost): void {
  app.post("/server/:id/settings", requirePageLogin(), form("editServerData", "settings", async (_c, id, body, access) => {
    await setVariables(deps.db, access, id, variablesFromForm(body));
    return "serverSettings.saved";
  }));
}
