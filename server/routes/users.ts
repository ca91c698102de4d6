// /api/users: list and search, create or invite, read, update, delete, scopes.
// Changing or deleting an account follows the users service's rule (mayManage).
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import { scopesToFlags } from "../../core/scopes/pufferpanel-flags";
import { requestedScopes } from "./perms-body";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { readBody } from "../request";
import { requireScope } from "../middleware/require";
import { createUser, deleteUser, getUser, listUsers, ownScopesOf, setScopes, updateUser } from "../services/users";
import { invite } from "../invitations";
import { emailChangeNotifier } from "../email-change-mail";
import { markEmailConfirmed } from "../services/users/email-confirmation";
import { accountClients, revokeAccountClient } from "../services/oauth2";
import { paging, pagingAnswer } from "../paging";
import { removePasskeys, secureAccount, turnOffTwoFactor, unlinkIdentities } from "../services/users/sign-in-ways";
import { listPasskeys } from "../services/passkeys";
import { linkedIdentities } from "../services/sso/identities";
import { parseWith } from "../validate";
import { API_SCHEMAS } from "../../core/api/schemas";

function userId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrUserNotFound");
  return id;
}

export function userRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/api/users", requireScope(SCOPES.usersView), async (c) => {
    const { page, limit } = paging(c);
    const { users, total } = await listUsers(deps.db, page, limit, c.req.query("username") || c.req.query("email") || undefined);
    return c.json({ users, paging: pagingAnswer(page, limit, total) });
  });

  /** With a password: the account is created. Without one: the person is invited by email. */
  app.post("/api/users", requireScope(SCOPES.usersEdit), async (c) => {
    const body = parseWith(API_SCHEMAS.userCreate, await readBody(c));
    if (body.email.trim() === "") throw new KilnError("ErrFieldRequired", { field: "email" });
    if (body.password === undefined || body.password === "") return c.json(await invite(c, deps, body.email), 201);
    const { id } = await createUser(deps.db, { username: String(body.username ?? ""), email: body.email, password: String(body.password), by: c.get("user")! });
    return c.json({ id }, 201);
  });

  app.get("/api/users/:id", requireScope(SCOPES.usersView), async (c) => c.json(await getUser(deps.db, userId(c.req.param("id")))));

  app.post("/api/users/:id", requireScope(SCOPES.usersEdit), async (c) => {
    const id = userId(c.req.param("id"));
    await updateUser(deps.db, c.get("user")!, id, parseWith(API_SCHEMAS.userUpdate, await readBody(c)), await emailChangeNotifier(c, deps));
    return c.json(await getUser(deps.db, id));
  });

  // A manager vouches for the account's address (services/users/email-confirmation).
  app.post("/api/users/:id/email/confirm", requireScope(SCOPES.usersEdit), async (c) => {
    await markEmailConfirmed(deps.db, c.get("user")!, userId(c.req.param("id")));
    return c.body(null, 204);
  });

  app.delete("/api/users/:id", requireScope(SCOPES.usersEdit), async (c) => {
    await deleteUser(deps.db, c.get("user")!, userId(c.req.param("id")));
    return c.body(null, 204);
  });

  // The account's ways in, and a manager's removal of them (services/users/sign-in-ways): each
  // kind is read with users.view and removed (all of them, or the one named) with users.edit.
  type Actor = NonNullable<KilnEnv["Variables"]["user"]>;
  interface WayIn {
    kind: string;
    /** the path parameter naming one of them (the API documentation's name) */
    item: string;
    list: (db: Deps["db"], id: number) => Promise<unknown>;
    remove: (db: Deps["db"], actor: Actor, id: number, item?: string) => Promise<unknown>;
    /** whether DELETE without an item removes every one of them */
    removesAll: boolean;
  }
  const waysIn: WayIn[] = [
    { kind: "oauth2", item: "client", list: accountClients, remove: (db, actor, id, item) => revokeAccountClient(db, actor, id, item!), removesAll: false },
    { kind: "passkeys", item: "passkey", list: listPasskeys, remove: removePasskeys, removesAll: true },
    { kind: "identities", item: "identity", list: linkedIdentities, remove: unlinkIdentities, removesAll: true },
  ];
  for (const way of waysIn) {
    const kind = way.kind;
    app.get(`/api/users/:id/${kind}`, requireScope(SCOPES.usersView), async (c) => {
      const id = userId(c.req.param("id"));
      await getUser(deps.db, id);
      return c.json(await way.list(deps.db, id));
    });
    if (way.removesAll) {
      app.delete(`/api/users/:id/${kind}`, requireScope(SCOPES.usersEdit), async (c) => {
        await way.remove(deps.db, c.get("user")!, userId(c.req.param("id")));
        return c.body(null, 204);
      });
    }
    app.delete(`/api/users/:id/${kind}/:${way.item}`, requireScope(SCOPES.usersEdit), async (c) => {
      await way.remove(deps.db, c.get("user")!, userId(c.req.param("id")), c.req.param(way.item));
      return c.body(null, 204);
    });
  }
  app.delete("/api/users/:id/otp", requireScope(SCOPES.usersEdit), async (c) => {
    await turnOffTwoFactor(deps.db, c.get("user")!, userId(c.req.param("id")));
    return c.body(null, 204);
  });
  app.post("/api/users/:id/secure", requireScope(SCOPES.usersEdit), async (c) => {
    const body = parseWith(API_SCHEMAS.userSecure, await readBody(c));
    await secureAccount(deps.db, c.get("user")!, userId(c.req.param("id")), { password: body.password, deleteClients: body.deleteClients === true });
    return c.body(null, 204);
  });

  /** Kiln's `scopes` list and the same as PufferPanel's flat flags (core/scopes/pufferpanel-flags). */
  const permsAnswer = (scopes: string[]) => ({ scopes, ...scopesToFlags(scopes) });

  app.get("/api/users/:id/perms", requireScope(SCOPES.usersView), async (c) => {
    const id = userId(c.req.param("id"));
    await getUser(deps.db, id);
    // The account's own scopes (what PUT sets); its roles' are in GET /api/users/{id}/roles.
    return c.json(permsAnswer(await ownScopesOf(deps.db, id)));
  });

  /** Either `{scopes: [...]}` or PufferPanel's flags (./perms-body); the same rules of setScopes for both. */
  app.put("/api/users/:id/perms", requireScope(SCOPES.usersEdit), async (c) => {
    const scopes = requestedScopes(await readBody(c));
    return c.json(permsAnswer(await setScopes(deps.db, c.get("user")!, userId(c.req.param("id")), scopes)));
  });

  return app;
}
