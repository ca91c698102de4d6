// The Roles screens: the list with its add form, one role's edit form and delete. Each form runs
// the roles service (the outrank rule is there) and redirects with a toast, or shows the refusal.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES, hasScope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { readForm } from "../request";
import { requirePageLogin, requireScope } from "../middleware/require";
import { createRole, deleteRole, holderCounts, listRoles, outranksRole, roleView, updateRole } from "../services/roles";
import { RolesPage } from "../../views/pages/RolesPage";
import { RolePage } from "../../views/pages/RolePage";
import { errorField } from "../../views/components/form-errors";
import { errorMessageKey } from "../../core/errors/message-key";

function idParam(c: Context): number {
  const raw = c.req.param("id") ?? "";
  if (!/^\d{1,12}$/.test(raw)) throw new KilnError("ErrNotFound", { id: raw });
  return Number(raw);
}

/** The form's name and every checked scope. */
async function roleForm(c: Context): Promise<{ name: string; scopes: string[] }> {
  const form = await readForm(c, { all: true });
  const scopes = form.scopes === undefined ? [] : (Array.isArray(form.scopes) ? form.scopes : [form.scopes]).map(String);
  return { name: typeof form.name === "string" ? form.name : "", scopes };
}

export function rolePageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const canEdit = (c: Context<KilnEnv>) => hasScope(c.get("user")!.scopes, SCOPES.usersEdit);
  const message = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);
  const withHolders = async () => {
    const counts = await holderCounts(deps.db);
    return (await listRoles(deps.db)).map((role) => ({ ...role, holders: counts.get(role.id) ?? 0 }));
  };
  const done = (c: Context<KilnEnv>, flash: string, to: string) => {
    setFlash(c, flash, isHttps(c, deps.config.trustProxy));
    return c.redirect(to, 303);
  };

  app.get("/roles", requirePageLogin(), requireScope(SCOPES.usersView), async (c) => render(c, deps, <RolesPage roles={await withHolders()} canEdit={canEdit(c)} />));
  app.post("/roles", requirePageLogin(), requireScope(SCOPES.usersEdit), async (c) => {
    const values = await roleForm(c);
    try {
      const role = await createRole(deps.db, c.get("user")!, values);
      return done(c, "roles.created", `/roles/${role.id}`);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <RolesPage roles={await withHolders()} canEdit error={{ message: message(c, error), field: errorField(error.metadata) }} values={values} />, error.status);
    }
  });

  const rolePage = async (c: Context<KilnEnv>, id: number, error?: KilnError) => {
    const role = { ...await roleView(deps.db, id), holders: (await holderCounts(deps.db)).get(id) ?? 0 };
    const outranked = canEdit(c) && !outranksRole(c.get("user")!, role);
    return render(c, deps, <RolePage role={role} canEdit={canEdit(c) && !outranked} outranked={outranked} error={error ? { message: message(c, error), field: errorField(error.metadata) } : undefined} />, error?.status ?? 200);
  };
  app.get("/roles/:id", requirePageLogin(), requireScope(SCOPES.usersView), async (c) => await rolePage(c, idParam(c)));
  app.post("/roles/:id", requirePageLogin(), requireScope(SCOPES.usersEdit), async (c) => {
    const id = idParam(c);
    try {
      await updateRole(deps.db, c.get("user")!, id, await roleForm(c));
      return done(c, "roles.saved", `/roles/${id}`);
    } catch (error) {
      if (!(error instanceof KilnError) || error.code === "ErrNotFound") throw error;
      return await rolePage(c, id, error);
    }
  });
  app.post("/roles/:id/delete", requirePageLogin(), requireScope(SCOPES.usersEdit), async (c) => {
    const id = idParam(c);
    try {
      await deleteRole(deps.db, c.get("user")!, id);
      return done(c, "roles.deleted", "/roles");
    } catch (error) {
      if (!(error instanceof KilnError) || error.code === "ErrNotFound") throw error;
      return await rolePage(c, id, error);
    }
  });
  return app;
}
