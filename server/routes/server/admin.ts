// The admin tab's plain forms: the run flags, the resource limits and the whole definition
// (administrators; the node applies limits at the next start), reloading the definition from the
// node's disk, deleting the server (deleteServer), and the caller's server-bound OAuth2 clients.
import type { Hono } from "hono";
import { KilnError } from "../../../core/errors";
import { API_SCHEMAS } from "../../../core/api/schemas";
import { limitsFromForm, type ServerDefinition } from "../../../core/definition";
import type { KilnEnv } from "../../context";
import type { Deps } from "../../deps";
import { requirePageLogin } from "../../middleware/require";
import { parseWith } from "../../validate";
import { callServerNode, deleteServer } from "../../services/servers";
import { replaceDefinition } from "../../services/servers/variables";
import { heldDefinition } from "../../services/servers/bounds";
import { createClient, deleteClient } from "../../services/oauth2";
import { underLoginThrottle } from "../self";
import { RUN_FLAGS, type RunFlag } from "../../../views/pages/server/AdminTab";
import type { ServerPageHost } from "./host";

export function adminFormRoutes(app: Hono<KilnEnv>, deps: Deps, { form, load, page, flash, message }: ServerPageHost): void {
  app.post("/server/:id/flags", requirePageLogin(), form("admin", "admin", async (_c, id, body) => {
    const flag = String(body.flag) as RunFlag;
    if (!RUN_FLAGS.includes(flag)) throw new KilnError("ErrFieldRequired", { field: "flag" });
    // The definition is read again, the flag set, the whole definition saved and reloaded.
    const definition = await heldDefinition(deps.db, id);
    definition.run[flag] = !definition.run[flag];
    await replaceDefinition(deps.db, id, definition);
    return "serverAdmin.saved";
  }));

  app.post("/server/:id/limits", requirePageLogin(), form("admin", "admin", async (_c, id, body) => {
    const limits = limitsFromForm(body) ?? {};
    const definition = await heldDefinition(deps.db, id);
    await replaceDefinition(deps.db, id, { ...definition, limits });
    return "limits.saved";
  }));

  app.post("/server/:id/definition", requirePageLogin(), form("admin", "admin", async (_c, id, body) => {
    let definition: ServerDefinition;
    try {
      definition = JSON.parse(String(body.definition ?? ""));
    } catch {
      throw new KilnError("ErrInvalidJson");
    }
    if (!definition || typeof definition !== "object" || Array.isArray(definition)) throw new KilnError("ErrInvalidJson");
    await replaceDefinition(deps.db, id, definition);
    return "serverAdmin.saved";
  }));

  app.post("/server/:id/reload", requirePageLogin(), form("admin", "admin", async (_c, id) => {
    await callServerNode(deps.db, id, "reload");
    return "serverAdmin.reloaded";
  }));

  app.post("/server/:id/delete", requirePageLogin(), async (c) => {
    const { id, server, access } = await load(c, "deleteServer");
    try {
      await deleteServer(deps.db, id);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, server, access, "admin", { error: message(c, error) }, error.status);
    }
    flash(c, "serverAdmin.deleted");
    return c.redirect("/server", 303);
  });

  app.post("/server/:id/oauth2", requirePageLogin(), form("view", "admin", async (c, id, body) => {
    if (c.get("user")!.clientId) throw new KilnError("ErrNoPermission");
    const input = parseWith(API_SCHEMAS.oauth2Create, body);
    return { createdClient: await underLoginThrottle(deps, c, () => createClient(deps.db, c.get("user")!, input, id)) };
  }));

  app.post("/server/:id/oauth2/:clientId/delete", requirePageLogin(), form("view", "admin", async (c, id, body) => {
    if (body.ack !== "on") throw new KilnError("ErrFieldRequired", { field: "ack" });
    await deleteClient(deps.db, c.get("user")!, c.req.param("clientId")!, id);
    return "oauth.deleted";
  }));
}
