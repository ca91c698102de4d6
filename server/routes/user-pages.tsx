// The Users screens and their forms (list, add or invite, edit, permissions, delete).
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES, hasScope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { readBody, readForm } from "../request";
import { createUser, deleteUser, getUser, listUsers, mayManage, ownScopesOf, scopesOf, setScopes, updateUser } from "../services/users";
import { invite } from "../invitations";
import { emailChangeNotifier } from "../email-change-mail";
import { listRoles, rolesOfUser, setUserRoles } from "../services/roles";
import { grantsOf } from "../services/sso/held-grants";
import { detachGrant } from "../services/sso/detach-grant";
import { DEFAULT_PAGE_SIZE, screenPage } from "../paging";
import { UsersPage } from "../../views/pages/UsersPage";
import { AddUserPage } from "../../views/pages/AddUserPage";
import { EditUserPage, type EditSection, type EditUserPageProps } from "../../views/pages/EditUserPage";
import { accountClients, revokeAccountClient } from "../services/oauth2";
import { errorField } from "../../views/components/form-errors";
import { removePasskeys, secureAccount, turnOffTwoFactor, unlinkIdentities } from "../services/users/sign-in-ways";
import { emailState, markEmailConfirmed } from "../services/users/email-confirmation";
import { listPasskeys } from "../services/passkeys";
import { linkedIdentities } from "../services/sso/identities";
import { hasPassword } from "../services/auth/credentials";
import { errorMessageKey } from "../../core/errors/message-key";

/** A form field as a list of its values (none, one or several boxes checked). */
const all = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

function idParam(c: Context): number {
  const id = Number(c.req.param("id"));
  if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrUserNotFound");
  return id;
}

export function userPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const message = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);
  const canEdit = (c: Context<KilnEnv>) => hasScope(c.get("user")!.scopes, SCOPES.usersEdit);

  app.get("/user", requirePageLogin(), requireScope(SCOPES.usersView), async (c) => {
    const page = screenPage(c);
    const search = c.req.query("username") ?? "";
    const pattern = search === "" ? undefined : search.includes("*") ? search : `*${search}*`;
    const { users, total } = await listUsers(deps.db, page, DEFAULT_PAGE_SIZE, pattern);
    return render(c, deps, <UsersPage users={users} page={page} pages={Math.max(1, Math.ceil(total / DEFAULT_PAGE_SIZE))} search={search} canEdit={canEdit(c)} />);
  });

  app.get("/adduser", requirePageLogin(), requireScope(SCOPES.usersEdit), (c) => render(c, deps, <AddUserPage />));
  app.post("/adduser", requirePageLogin(), requireScope(SCOPES.usersEdit), async (c) => {
    const body = await readBody(c);
    const values = { email: String(body.email ?? ""), username: String(body.username ?? "") };
    try {
      if (values.email.trim() === "") return render(c, deps, <AddUserPage error={{ message: c.get("t")("users.noEmail"), field: "email" }} values={values} />, 400);
      if (!body.password) {
        const outcome = await invite(c, deps, values.email);
        return render(c, deps, <AddUserPage invited={{ email: values.email.trim().toLowerCase(), emailSent: outcome.emailSent, inviteUrl: outcome.inviteUrl }} />);
      }
      const { id } = await createUser(deps.db, { email: values.email, username: values.username, password: String(body.password), by: c.get("user")! });
      setFlash(c, "users.created", isHttps(c, deps.config.trustProxy));
      return c.redirect(`/user/${id}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <AddUserPage error={{ message: message(c, error), field: errorField(error.metadata) }} values={values} />, error.status);
    }
  });

  const editPage = async (c: Context<KilnEnv>, id: number, error?: EditUserPageProps["error"], status = 200) => {
    const target = await getUser(deps.db, id);
    // The form edits the account's own scopes; whether the viewer outranks it counts its roles' too.
    const scopes = await ownScopesOf(deps.db, id);
    // users.edit alone is not enough for an account holding scopes the viewer lacks: it is shown read-only.
    const holdsMore = !await mayManage(deps.db, c.get("user")!, id, await scopesOf(deps.db, id));
    const roles = { all: await listRoles(deps.db), held: (await rolesOfUser(deps.db, id)).map((r) => r.id) };
    return render(c, deps, <EditUserPage target={target} scopes={scopes} canEdit={canEdit(c) && !holdsMore} holdsMore={canEdit(c) && holdsMore} roles={roles} grants={await grantsOf(deps.db, id)} clients={await accountClients(deps.db, id)} signIn={{ passkeys: await listPasskeys(deps.db, id), identities: await linkedIdentities(deps.db, id), hasPassword: await hasPassword(deps.db, id) }} emailConfirmed={(await emailState(deps.db, id)).confirmed} error={error} />, status);
  };

  app.get("/user/:id", requirePageLogin(), requireScope(SCOPES.usersView), async (c) => await editPage(c, idParam(c)));

  /** Runs an edit form; success redirects with a toast, a catalogue error shows in its section. */
  const editForm = (section: EditSection, work: (c: Context<KilnEnv>, id: number, body: Record<string, unknown>) => Promise<string> | string) =>
    async (c: Context<KilnEnv>) => {
      const id = idParam(c);
      // Several checkboxes share a name ("scopes", "roles"): all their values are read.
      const body: Record<string, unknown> = Object.assign(Object.create(null), await readForm(c, { all: true }));
      try {
        const flash = await work(c, id, body);
        setFlash(c, flash, isHttps(c, deps.config.trustProxy));
        return c.redirect(section === "delete" ? "/user" : `/user/${id}`, 303);
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        return await editPage(c, id, { section, message: message(c, error), field: errorField(error.metadata) }, error.status);
      }
    };

  app.post("/user/:id", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("details", async (c, id, body) => {
    await updateUser(deps.db, c.get("user")!, id, { username: body.username, email: body.email, password: body.password }, await emailChangeNotifier(c, deps));
    return "users.updated";
  }));
  app.post("/user/:id/email/confirm", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("details", async (c, id) => {
    await markEmailConfirmed(deps.db, c.get("user")!, id);
    return "users.emailConfirmed";
  }));
  app.post("/user/:id/perms", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("perms", async (c, id, body) => {
    await setScopes(deps.db, c.get("user")!, id, all(body.scopes));
    return "users.permissionsSaved";
  }));
  app.post("/user/:id/roles", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("roles", async (c, id, body) => {
    await setUserRoles(deps.db, c.get("user")!, id, all(body.roles).map(Number));
    return "roles.userSaved";
  }));
  app.post("/user/:id/grants/detach", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("grants", async (c, id, body) => {
    await detachGrant(deps.db, c.get("user")!, id, body);
    return "users.grantDetached";
  }));
  app.post("/user/:id/oauth2/:client/delete", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("clients", async (c, id, body) => {
    // Deletion is final: the acknowledgement is ticked (browsers enforce it, programs too), as on the account's own card.
    if (body.ack !== "on") throw new KilnError("ErrFieldRequired", { field: "ack" });
    await revokeAccountClient(deps.db, c.get("user")!, id, c.req.param("client")!);
    return "oauth.deleted";
  }));
  // Removing the account's ways in (services/users/sign-in-ways): final, so each form is
  // acknowledged (see above). Each: its path, the service's verb, the message it leaves.
  type SignInWork = (c: Context<KilnEnv>, id: number, body: Record<string, unknown>) => Promise<unknown>;
  const signInForms: Array<[string, SignInWork, string]> = [
    ["/user/:id/passkeys/delete", (c, id) => removePasskeys(deps.db, c.get("user")!, id), "users.signIn.passkeysRemoved"],
    ["/user/:id/passkeys/:passkey/delete", (c, id) => removePasskeys(deps.db, c.get("user")!, id, c.req.param("passkey")!), "account.passkeys.removed"],
    ["/user/:id/otp/delete", (c, id) => turnOffTwoFactor(deps.db, c.get("user")!, id), "account.otp.turnedOff"],
    ["/user/:id/identities/delete", (c, id) => unlinkIdentities(deps.db, c.get("user")!, id), "users.signIn.identitiesUnlinked"],
    ["/user/:id/identities/:identity/delete", (c, id) => unlinkIdentities(deps.db, c.get("user")!, id, c.req.param("identity")!), "sso.unlinked"],
    ["/user/:id/secure", (c, id, body) => secureAccount(deps.db, c.get("user")!, id, { password: body.password, deleteClients: body.deleteClients === "on" }), "users.secure.done"],
  ];
  for (const [path, work, done] of signInForms) {
    app.post(path, requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("signIn", async (c, id, body) => {
      if (body.ack !== "on") throw new KilnError("ErrFieldRequired", { field: "ack" });
      await work(c, id, body);
      return done;
    }));
  }
  app.post("/user/:id/delete", requirePageLogin(), requireScope(SCOPES.usersEdit), editForm("delete", async (c, id) => {
    await deleteUser(deps.db, c.get("user")!, id);
    return "users.deleted";
  }));

  return app;
}
