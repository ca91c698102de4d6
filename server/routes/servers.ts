// /api/servers: list, create, read with permissions, delete, rename,
// per-server users and server-level OAuth2 clients. Each per-server call checks what the caller
// may do on that server (services/servers/permissions); admins pass every check.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES, SERVER_FLAGS } from "../../core/scopes";
import { withPreset } from "../../core/scopes/presets";
import { API_SCHEMAS, serverName } from "../../core/api/schemas";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { readBody } from "../request";
import { requireLogin, requireScope } from "../middleware/require";
import { paging } from "../paging";
import { serverListAnswer } from "../services/servers/list-answer";
import { parseWith } from "../validate";
import { createClient, deleteClient, listClients } from "../services/oauth2";
import { underLoginThrottle } from "./self";
import {
  authorize,
  createServer,
  deleteServer,
  deleteServerUser,
  getServerEntry,
  listServerUsers,
  putServerUser,
  renameServer,
  type Requirement,
} from "../services/servers";
import { shareServer } from "../share-server";
import { fromPufferPanelBody, isPufferPanelBody } from "../services/servers/pufferpanel-body";
import { securedAnswer } from "../middleware/security-headers";

/** The host the browser used, without its port: what {ip} stands for in addresses. */
export function requestHost(c: Context): string {
  const host = c.req.header("x-forwarded-host") ?? c.req.header("host") ?? "localhost";
  return host.replace(/:\d+$/, "");
}

export function serverRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/servers/*", requireLogin());

  /** The server's id after checking the caller passes `needs` on it. */
  const checked = async (c: Context<KilnEnv>, needs: Requirement) => {
    const id = c.req.param("id")!;
    return { id, access: await authorize(deps.db, c.get("user")!, id, needs) };
  };

  app.get("/api/servers", async (c) => {
    const { page, limit } = paging(c);
    return securedAnswer(await serverListAnswer(deps.db, c.get("user")!, page, limit, requestHost(c)), "application/json");
  });

  /** Kiln's body, or PufferPanel's (services/servers/pufferpanel-body), which is turned into Kiln's and checked the same way. */
  app.post("/api/servers", requireScope(SCOPES.serversCreate), async (c) => {
    const creator = c.get("user")!;
    const sent = await readBody(c);
    const { body: raw, alsoUsers } = isPufferPanelBody(sent) ? await fromPufferPanelBody(deps.db, creator, sent) : { body: sent, alsoUsers: [] };
    const created = await createServer(deps.db, creator, raw);
    if (alsoUsers.length > 0) {
      const access = await authorize(deps.db, creator, created.id, "editServerUsers");
      const every = Object.fromEntries(SERVER_FLAGS.map((flag) => [flag, true]));
      for (const userId of alsoUsers) await putServerUser(deps.db, access, created.id, userId, every);
    }
    return c.json(created, 201);
  });

  app.get("/api/servers/:id", async (c) => {
    const { id, access } = await checked(c, "view");
    const server = await getServerEntry(deps.db, id, requestHost(c));
    return c.json(c.req.query("perms") === undefined ? { server } : { server, permissions: access.permissions });
  });

  app.delete("/api/servers/:id", async (c) => {
    const { id } = await checked(c, "deleteServer");
    await deleteServer(deps.db, id);
    return c.body(null, 204);
  });

  app.put("/api/servers/:id/name/:name", async (c) => {
    const { id } = await checked(c, "editServerData");
    await renameServer(deps.db, id, parseWith(serverName, c.req.param("name")));
    return c.body(null, 204);
  });

  app.get("/api/servers/:id/user", async (c) => {
    const { id } = await checked(c, "editServerUsers");
    return c.json(await listServerUsers(deps.db, id));
  });

  /**
   * An unknown email is invited by email first, then given access; the invitation link comes back
   * only to a caller who may create accounts (users.edit).
   */
  app.put("/api/servers/:id/user/:email", async (c) => {
    const { id, access } = await checked(c, "editServerUsers");
    const body = parseWith(API_SCHEMAS.serverUser, await readBody(c));
    const email = c.req.param("email").trim();
    if (email === "") throw new KilnError("ErrFieldRequired", { field: "email" });
    // `preset` (viewer, operator, coOwner: core/scopes/presets.ts) stands for its flags, as on the form.
    const invited = await shareServer(c, deps, access, id, email, withPreset(body));
    return invited ? c.json({ invited: true, emailSent: invited.emailSent, inviteUrl: invited.inviteUrl }, 201) : c.body(null, 204);
  });

  app.delete("/api/servers/:id/user/:email", async (c) => {
    const { id, access } = await checked(c, "editServerUsers");
    await deleteServerUser(deps.db, access, id, c.req.param("email"));
    return c.body(null, 204);
  });

  // The server's OAuth2 clients are shown to everyone who can see the server;
  // their tokens carry only the owner's permissions on it.
  app.get("/api/servers/:id/oauth2", async (c) => {
    const { id } = await checked(c, "view");
    return c.json(await listClients(deps.db, c.get("user")!.id, id));
  });

  app.post("/api/servers/:id/oauth2", async (c) => {
    const { id } = await checked(c, "view");
    const body = parseWith(API_SCHEMAS.oauth2Create, await readBody(c));
    // The password it asks counts towards the login throttle, as every password check of a session does.
    return c.json(await underLoginThrottle(deps, c, () => createClient(deps.db, c.get("user")!, body, id)));
  });

  app.delete("/api/servers/:id/oauth2/:clientId", async (c) => {
    const { id } = await checked(c, "view");
    await deleteClient(deps.db, c.get("user")!, c.req.param("clientId"), id);
    return c.body(null, 204);
  });

  return app;
}
