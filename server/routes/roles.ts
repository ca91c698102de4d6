// /api/roles, /api/users/{id}/roles and /api/users/{id}/grants: roles as services/roles keeps them
// (the outrank rule there), and the rights sign-in rules granted (services/sso/held-grants).
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireScope } from "../middleware/require";
import { readBody } from "../request";
import { createRole, deleteRole, listRoles, rolesOfUser, roleView, setUserRoles, updateRole } from "../services/roles";
import { getUser } from "../services/users";
import { grantsOf } from "../services/sso/held-grants";
import { detachGrant } from "../services/sso/detach-grant";

const idOf = (c: Context, name = "id"): number => {
  const raw = c.req.param(name) ?? "";
  if (!/^\d{1,12}$/.test(raw)) throw new KilnError("ErrNotFound", { id: raw });
  return Number(raw);
};

export function roleRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/api/roles", requireScope(SCOPES.usersView), async (c) => c.json({ roles: await listRoles(deps.db) }));
  app.post("/api/roles", requireScope(SCOPES.usersEdit), async (c) => c.json(await createRole(deps.db, c.get("user")!, await readBody(c)), 201));
  app.get("/api/roles/:id", requireScope(SCOPES.usersView), async (c) => c.json(await roleView(deps.db, idOf(c))));
  app.put("/api/roles/:id", requireScope(SCOPES.usersEdit), async (c) => c.json(await updateRole(deps.db, c.get("user")!, idOf(c), await readBody(c))));
  app.delete("/api/roles/:id", requireScope(SCOPES.usersEdit), async (c) => {
    await deleteRole(deps.db, c.get("user")!, idOf(c));
    return c.body(null, 204);
  });
  app.get("/api/users/:id/roles", requireScope(SCOPES.usersView), async (c) => {
    const id = idOf(c);
    await getUser(deps.db, id);
    return c.json({ roles: await rolesOfUser(deps.db, id) });
  });
  app.put("/api/users/:id/roles", requireScope(SCOPES.usersEdit), async (c) => c.json({ roles: await setUserRoles(deps.db, c.get("user")!, idOf(c), (await readBody(c)).roles) }));
  app.get("/api/users/:id/grants", requireScope(SCOPES.usersView), async (c) => {
    const id = idOf(c);
    await getUser(deps.db, id);
    return c.json({ grants: await grantsOf(deps.db, id) });
  });
  app.post("/api/users/:id/grants/detach", requireScope(SCOPES.usersEdit), async (c) => {
    await detachGrant(deps.db, c.get("user")!, idOf(c), await readBody(c));
    return c.body(null, 204);
  });
  return app;
}
