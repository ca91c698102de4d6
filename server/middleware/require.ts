// Guards: pages redirect to the login screen, API calls answer with a catalogue error.
import type { MiddlewareHandler } from "hono";
import { KilnError } from "../../core/errors";
import { hasScope, SCOPES, type Scope } from "../../core/scopes";
import type { KilnEnv } from "../context";

export const LOGIN_PATH = "/auth/login";

export const requirePageLogin = (): MiddlewareHandler<KilnEnv> =>
  async function requirePageLogin(c, next) {
    if (!c.get("user")) return c.redirect(LOGIN_PATH, 302);
    await next();
  };

export const requireLogin = (): MiddlewareHandler<KilnEnv> =>
  async function requireLogin(c, next) {
    if (!c.get("user")) throw new KilnError("ErrSessionTimedOut");
    await next();
  };

/**
 * The account holder's own login, never an OAuth2 client's token: how an account signs in (its
 * password and email, second factor, passkeys, linked identities, OAuth2 clients) is changed only
 * by its holder. A client acts with its account's rights (a server's client with fewer), but a
 * token that adds a way in (a passkey signs in without the second factor) would turn a leaked bot
 * secret into the whole account.
 */
export const requireOwnLogin = (): MiddlewareHandler<KilnEnv> =>
  async function requireOwnLogin(c, next) {
    const user = c.get("user");
    if (!user) throw new KilnError("ErrSessionTimedOut");
    if (user.clientId) throw new KilnError("ErrNoPermission", { reason: "an OAuth2 client cannot change how its account signs in" });
    await next();
  };

/** "admin" means the admin scope itself; any other scope is also satisfied by admin. */
export const requireScope = (scope: Scope | "admin"): MiddlewareHandler<KilnEnv> =>
  async function requireScope(c, next) {
    const user = c.get("user");
    if (!user) throw new KilnError("ErrSessionTimedOut");
    const ok = scope === "admin" ? user.scopes.includes(SCOPES.admin) : hasScope(user.scopes, scope);
    if (!ok) throw new KilnError("ErrMissingScope", { scope: scope === "admin" ? SCOPES.admin : scope });
    await next();
  };
