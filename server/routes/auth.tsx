// POST /auth/login and /auth/logout. Login answers JSON to API clients and redirects forms.
// Two-factor, registration, invitations, reauth and throttling arrive with the accounts release.
import { Hono, type Context } from "hono";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { KilnError } from "../../core/errors";
import { SCOPES, hasScope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { clearSessionCookie, isHttps, setFlash, setSessionCookie } from "../cookies";
import { createSession, deleteSession, SESSION_TTL_MS } from "../services/sessions";
import { scopesOf } from "../services/users";
import { render } from "../render";
import { LoginPage } from "../../views/pages/LoginPage";

// Verifying against a real hash when the email is unknown keeps the answer time the same.
const DUMMY_HASH = Bun.password.hashSync("kiln-timing-equaliser", { algorithm: "argon2id" });

async function checkCredentials(deps: Deps, email: unknown, password: unknown): Promise<number> {
  if (typeof email !== "string" || email.trim() === "") throw new KilnError("ErrFieldRequired", { field: "email" });
  if (typeof password !== "string" || password === "") throw new KilnError("ErrFieldRequired", { field: "password" });
  const user = deps.db.select().from(schema.users).where(eq(schema.users.email, email.trim().toLowerCase())).get();
  const ok = await Bun.password.verify(password, user?.passwordHash ?? DUMMY_HASH);
  if (!user || !ok) throw new KilnError("ErrInvalidCredentials");
  return user.id;
}

function isForm(c: Context): boolean {
  return /application\/x-www-form-urlencoded|multipart\/form-data/.test(c.req.header("content-type") ?? "");
}

export function authRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.post("/auth/login", async (c) => {
    const form = isForm(c);
    const body = form ? await c.req.parseBody() : await c.req.json().catch(() => { throw new KilnError("ErrInvalidJson"); });
    let userId: number;
    try {
      userId = await checkCredentials(deps, body.email, body.password);
    } catch (error) {
      if (!form || !(error instanceof KilnError)) throw error;
      return render(c, deps, <LoginPage error={c.get("t")(`errors.${error.code}`, error.metadata)} email={String(body.email ?? "")} />, error.status);
    }
    const token = createSession(deps.db, userId);
    setSessionCookie(c, token, SESSION_TTL_MS / 1000, isHttps(c, deps.config.trustProxy));
    const scopes = scopesOf(deps.db, userId);
    if (!form) return c.json({ session: token, scopes });
    return c.redirect(hasScope(scopes, SCOPES.serversView) ? "/server" : "/account", 303);
  });

  app.post("/auth/logout", (c) => {
    const token = c.get("sessionToken");
    if (token) deleteSession(deps.db, token);
    clearSessionCookie(c);
    if (isForm(c) || c.req.header("accept")?.includes("text/html")) {
      setFlash(c, "toast.loggedOut", isHttps(c, deps.config.trustProxy));
      return c.redirect("/auth/login", 303);
    }
    return c.body(null, 204);
  });
  return app;
}

