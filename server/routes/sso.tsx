// Logging in through an identity provider (services/sso): /auth/sso/{id} sends the browser to the
// provider, /auth/sso/{id}/callback finishes it (a session, the two-factor step when the account
// has one the provider did not satisfy, or the password step that links an existing account), and
// /auth/sso/link takes that password. The account page links and unlinks providers; administrators
// manage providers at /api/auth/providers.
import { Hono, type Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { clientAddress, isFormPost, readBody } from "../request";
import { publicOrigin } from "../relying-party";
import { beginSession } from "../begin-session";
import { requireLogin, requirePageLogin, requireScope, requireOwnLogin } from "../middleware/require";
import { createSession, PENDING_TTL_MS, recordProviderSignIn } from "../services/sessions";
import { otpEnabled } from "../services/auth/totp";
import { throttleKeys, isCredentialFailure } from "../services/auth/throttle";
import { loginAttempt } from "../services/activity/logins";
import { beginLogin, finishLogin, FLOW_TTL_MS, type SsoOutcome } from "../services/sso/flow";
import { confirmLink, pendingLink } from "../services/sso/linking";
import { unlinkIdentity } from "../services/sso/identities";
import { requireHolderProof } from "../services/auth/credentials";
import { isSecondFactorFailure } from "../services/auth/second-factor";
import { underLoginThrottle } from "./self";
import { createProvider, deleteProvider, listProviders, loginProviders, providerRow, providerView, rulesOf, updateProvider } from "../services/sso/providers";
import { evaluateRules } from "../services/sso/grants";
import { LoginPage } from "../../views/pages/LoginPage";
import { SsoLinkPage } from "../../views/pages/SsoLinkPage";
import { PENDING_COOKIE } from "./auth";
import { errorMessageKey } from "../../core/errors/message-key";

/** The browser's key to the login it began (services/sso/flow): sent back on the provider's redirect (Lax), and to the password step. */
const BROWSER_COOKIE = "kiln_sso";

export function ssoRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const keep = (c: Context, key: string) => setCookie(c, BROWSER_COOKIE, key, { path: "/auth/sso", httpOnly: true, sameSite: "Lax", secure: isHttps(c, deps.config.trustProxy), maxAge: FLOW_TTL_MS / 1000 });
  const browserKey = (c: Context) => getCookie(c, BROWSER_COOKIE);
  const begin = async (c: Context, providerId: string, next: unknown, linkUserId: number | null = null, fresh = false) => {
    const { url, browserKey } = await beginLogin(deps.db, sources, providerId, await callbackOf(c, providerId), next, clientAddress(c, deps.config.trustProxy), linkUserId, fresh);
    keep(c, browserKey);
    return url.toString();
  };
  const sources = deps.config.ssoSources;
  const callbackOf = async (c: Context, providerId: string) => `${await publicOrigin(c, deps)}/auth/sso/${encodeURIComponent(providerId)}/callback`;
  const say = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);
  const loginPage = async (c: Context<KilnEnv>, error: KilnError) => render(c, deps, <LoginPage error={say(c, error)} providers={await loginProviders(deps.db)} />, error.status);

  // Before /auth/sso/:id, which would take "link" for a provider's id.
  app.get("/auth/sso/link", async (c) => {
    try {
      const pending = await pendingLink(deps.db, c.req.query("token"), browserKey(c));
      return render(c, deps, <SsoLinkPage token={c.req.query("token")!} email={pending.email} providerName={pending.providerName} secondFactor={pending.secondFactor} />);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await loginPage(c, error);
    }
  });

  app.post("/auth/sso/link", async (c) => {
    const body = await readBody(c);
    // A program gets the error body; only the page's own form gets the page back.
    const asForm = isFormPost(c);
    let pending;
    try {
      pending = await pendingLink(deps.db, body.token, browserKey(c));
    } catch (error) {
      if (!(error instanceof KilnError) || !asForm) throw error;
      return await loginPage(c, error);
    }
    try {
      const keys = throttleKeys(pending.email, clientAddress(c, deps.config.trustProxy));
      // A wrong password or a wrong second factor: each a failed guess.
      const linked = await loginAttempt(deps.db, { username: pending.email }, () => deps.throttle.check(keys, () => confirmLink(deps.db, body.token, body.password, browserKey(c), body.code), (e) => isCredentialFailure(e) || isSecondFactorFailure(e)));
      deleteCookie(c, BROWSER_COOKIE, { path: "/auth/sso" });
      return await logIn(c, linked.userId, linked.next, linked.secondFactorDone, null);
    } catch (error) {
      if (!(error instanceof KilnError) || !asForm) throw error;
      return render(c, deps, <SsoLinkPage token={String(body.token)} email={pending.email} providerName={pending.providerName} secondFactor={pending.secondFactor} error={error.code === "ErrTokenInvalid" ? c.get("t")("auth.otp.wrong") : say(c, error)} />, error.status);
    }
  });

  app.get("/auth/sso/:id", async (c) => {
    try {
      // fresh=1: the Account page's sign-in again (services/sso/flow beginLogin).
      return c.redirect(await begin(c, c.req.param("id"), c.req.query("next"), null, c.req.query("fresh") === "1"), 302);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await loginPage(c, error);
    }
  });

  app.get("/auth/sso/:id/callback", async (c) => {
    const providerId = c.req.param("id");
    // The address the provider sent the browser to, as the provider knows it (the panel's public origin).
    const current = new URL(`${await publicOrigin(c, deps)}${c.req.path}${new URL(c.req.url).search}`);
    let outcome: SsoOutcome;
    try {
      outcome = await loginAttempt(deps.db, { username: `sso:${providerId}` }, () => finishLogin(deps.db, sources, providerId, current, browserKey(c)));
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await loginPage(c, error);
    }
    if (outcome.kind === "confirm") {
      keep(c, outcome.token);
      return c.redirect(`/auth/sso/link?token=${encodeURIComponent(outcome.token)}`, 303);
    }
    deleteCookie(c, BROWSER_COOKIE, { path: "/auth/sso" });
    if (outcome.kind === "linked") {
      setFlash(c, "sso.linked", isHttps(c, deps.config.trustProxy));
      return c.redirect("/account", 303);
    }
    return await logIn(c, outcome.userId, outcome.next, outcome.satisfiesTwoFactor && outcome.multiFactor, { providerId, at: outcome.signedInAt });
  });

  /**
   * A session for the account, or first its two-factor step when the provider did not satisfy it.
   * `signIn`: the provider sign-in that made it, kept with the login while fresh (sessions'
   * recordProviderSignIn; a pending login's passes to its session); null for the password step's.
   */
  async function logIn(c: Context<KilnEnv>, userId: number, next: string, twoFactorDone: boolean, signIn: { providerId: string; at: number } | null) {
    if (await otpEnabled(deps.db, userId) && !twoFactorDone) {
      const pending = await createSession(deps.db, userId, { kind: "pending" });
      if (signIn) await recordProviderSignIn(deps.db, pending, signIn.providerId, signIn.at);
      setCookie(c, PENDING_COOKIE, pending, { path: "/auth", httpOnly: true, sameSite: "Strict", secure: isHttps(c, deps.config.trustProxy), maxAge: PENDING_TTL_MS / 1000 });
      return render(c, deps, <LoginPage otpStep />);
    }
    const { token, landing } = await beginSession(c, deps, userId, "sso");
    if (signIn) await recordProviderSignIn(deps.db, token, signIn.providerId, signIn.at);
    return c.redirect(next === "/" ? landing : next, 303);
  }

  // The account page: link a provider (through it, as a login) or unlink one.
  // A linked identity is a way in that outlives a password change: the account's password is asked
  // first, as for a new passkey, so a stolen session alone cannot add the thief's identity; an
  // account without one gives a fresh sign-in through a provider it has (requireHolderProof).
  app.post("/account/sso/:id/link", requirePageLogin(), requireOwnLogin(), async (c) => {
    const userId = c.get("user")!.id;
    try {
      const { password } = await readBody(c);
      await underLoginThrottle(deps, c, () => requireHolderProof(deps.db, userId, password, c.get("sessionToken")));
      return c.redirect(await begin(c, c.req.param("id"), "/account", userId), 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      const refusedPassword = error.code === "ErrInvalidCredentials" || error.code === "ErrFieldRequired";
      setFlash(c, refusedPassword ? "account.wrongPassword" : error.code === "ErrProviderSignInRequired" ? "errors.ErrProviderSignInRequired" : "sso.linkFailed", isHttps(c, deps.config.trustProxy));
      return c.redirect("/account#sso", 303);
    }
  });
  app.post("/account/sso/:id/unlink", requirePageLogin(), requireOwnLogin(), async (c) => {
    try {
      await unlinkIdentity(deps.db, c.get("user")!.id, c.req.param("id"), c.get("sessionToken") ?? undefined);
      setFlash(c, "sso.unlinked", isHttps(c, deps.config.trustProxy));
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      setFlash(c, `errors.${error.code}`, isHttps(c, deps.config.trustProxy));
    }
    return c.redirect("/account", 303);
  });

  // Administrators manage providers.
  app.use("/api/auth/providers/*", requireLogin(), requireScope("admin"));
  app.get("/api/auth/providers", async (c) => c.json({ providers: await listProviders(deps.db) }));
  app.post("/api/auth/providers", async (c) => c.json(await createProvider(deps.db, c.get("user")!, await readBody(c)), 201));
  app.get("/api/auth/providers/:id", async (c) => c.json(providerView(await providerRow(deps.db, c.req.param("id")))));
  app.put("/api/auth/providers/:id", async (c) => c.json(await updateProvider(deps.db, c.get("user")!, c.req.param("id"), await readBody(c), c.get("sessionToken") ?? undefined)));
  // What the provider's rules would grant for a pasted claims document (nothing is changed).
  app.post("/api/auth/providers/:id/preview", async (c) => {
    const body = await readBody(c);
    const claims = body.claims;
    if (!claims || typeof claims !== "object" || Array.isArray(claims)) throw new KilnError("ErrFieldRequired", { field: "claims" });
    return c.json({ rules: evaluateRules(rulesOf(await providerRow(deps.db, c.req.param("id"))), claims as Record<string, unknown>) });
  });
  app.delete("/api/auth/providers/:id", async (c) => {
    await deleteProvider(deps.db, c.req.param("id"), c.get("sessionToken") ?? undefined);
    return c.body(null, 204);
  });
  return app;
}
