// The auth calls: register, login (with its two-factor step), otp, reauth,
// logout, and accepting an invitation. JSON for programs; forms redirect or re-render the page.
import { Hono, type Context } from "hono";
import type { ReactElement } from "react";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { clearSessionCookie, isHttps, setFlash, setSessionCookie } from "../cookies";
import { clientAddress, isFormPost, readBody } from "../request";
import { createSession, findPendingUserId, rotateSession, PENDING_TTL_MS, SESSION_TTL_MS, type LoginProof } from "../services/sessions";
import { checkCredentials } from "../services/auth/credentials";
import { isSecondFactorFailure, verifySecondFactor } from "../services/auth/second-factor";
import { isCredentialFailure, throttleKeys } from "../services/auth/throttle";
import { acceptInvite, findInvite, firstAdminNotice } from "../services/users";
import { registerAccount } from "../services/users/register";
import { beginSession, endSession } from "../begin-session";
import { loginAttempt, type LoginMethod } from "../services/activity/logins";
import { passwordLogin, ssoMode } from "../services/sso/mode";
import { render } from "../render";
import { LoginPage } from "../../views/pages/LoginPage";
import { RegisterPage } from "../../views/pages/RegisterPage";
import { InvitePage } from "../../views/pages/InvitePage";
import { ConfirmEmailPage } from "../../views/pages/ConfirmEmailPage";
import { confirmEmail } from "../services/users/email-confirmation";
import { confirmationMailer } from "../confirmation-mail";
import { emailChangeNotifier } from "../email-change-mail";
import { errorMessageKey } from "../../core/errors/message-key";

export const PENDING_COOKIE = "kiln_pending";

export function authRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const secure = (c: Context) => isHttps(c, deps.config.trustProxy);

  /** Starts the session: cookie for browsers, token in the body for programs. */
  async function startSession(c: Context<KilnEnv>, userId: number, method: LoginMethod, tokenField: "session" | "token" = "session", proof?: LoginProof) {
    const { token, scopes, landing } = await beginSession(c, deps, userId, method, proof);
    if (isFormPost(c)) return c.redirect(landing, 303);
    return c.json({ [tokenField]: token, scopes });
  }

  /**
   * A form gets its page back with the message; a program gets the error body. `statusOf` may
   * answer a refusal with another status than the catalogue's; `wordingOf` may say it in the
   * form's own words.
   */
  async function orPage(
    c: Context<KilnEnv>,
    run: () => Promise<Response>,
    page: (message: string) => ReactElement | Promise<ReactElement>,
    statusOf = (error: KilnError) => error.status,
    wordingOf: (error: KilnError) => string | undefined = () => undefined,
  ) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      const status = statusOf(error);
      if (!isFormPost(c)) {
        if (status === error.status) throw error;
        return c.json(error.toBody(), status as 400);
      }
      return render(c, deps, await page(wordingOf(error) ?? c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata)), status);
    }
  }

  /**
   * A wrong email or password at login is 400 ErrInvalidCredentials, as PufferPanel answers it:
   * its client treats every 401 as "the session ended" (silent, and logged out), so a 401 here
   * would show nothing. Elsewhere (SFTP, OAuth2 tokens, node tokens) a bad secret stays 401.
   */
  const loginStatus = (error: KilnError) => (error.code === "ErrInvalidCredentials" ? 400 : error.status);

  app.post("/auth/login", async (c) => {
    const body = await readBody(c);
    const email = typeof body.email === "string" ? body.email : "";
    return orPage(
      c,
      async () => {
        const keys = throttleKeys(email || undefined, clientAddress(c, deps.config.trustProxy));
        // In SSO-only mode a refusal counts as a failed guess: it is what a wrong password answers there.
        const failed = (error: unknown) => isCredentialFailure(error) || (error instanceof KilnError && error.code === "ErrSsoOnly");
        const user = await loginAttempt(deps.db, { username: email }, () => deps.throttle.check(keys, () => passwordLogin(deps.db, () => checkCredentials(deps.db, body.email, body.password)), failed));
        const proof = { checkedHash: user.checkedHash };
        if (!user.otpEnabled) return await startSession(c, user.id, "password", "session", proof);
        const pending = await createSession(deps.db, user.id, { kind: "pending", proof });
        setCookie(c, PENDING_COOKIE, pending, { path: "/auth", httpOnly: true, sameSite: "Strict", secure: secure(c), maxAge: PENDING_TTL_MS / 1000 });
        if (isFormPost(c)) return render(c, deps, <LoginPage otpStep email={email} />);
        return c.json({ otpNeeded: true });
      },
      async (message) => <LoginPage error={message} email={email} firstAdmin={await firstAdminNotice(deps.db)} />,
      loginStatus,
    );
  });

  app.post("/auth/otp", async (c) => {
    const body = await readBody(c);
    return orPage(
      c,
      async () => {
        const pending = getCookie(c, PENDING_COOKIE);
        const userId = pending ? await findPendingUserId(deps.db, pending) : null;
        if (!pending || userId === null) throw new KilnError("ErrInvalidTokenState");
        const keys = throttleKeys(userId, clientAddress(c, deps.config.trustProxy));
        // A TOTP code or a recovery code: every wrong, replayed or spent one counts as a failed guess.
        await loginAttempt(deps.db, { userId }, () => deps.throttle.check(keys, async () => await verifySecondFactor(deps.db, userId, body.token), isSecondFactorFailure));
        // The pending login is taken with the session it becomes: once (a second use of it finds it
        // gone), and not after a password change ended it.
        deleteCookie(c, PENDING_COOKIE, { path: "/auth" });
        return await startSession(c, userId, "otp", "session", { pendingToken: pending });
      },
      (message) => (getCookie(c, PENDING_COOKIE) ? <LoginPage otpStep error={message} /> : <LoginPage error={message} />),
      undefined,
      // "The token is invalid" says little to someone typing a code: say what to check.
      (error) => (error.code === "ErrTokenInvalid" ? c.get("t")("auth.otp.wrong") : undefined),
    );
  });

  app.post("/auth/register", async (c) => {
    const body = await readBody(c);
    return orPage(
      c,
      async () => {
        const input = { username: String(body.username ?? ""), email: String(body.email ?? ""), password: String(body.password ?? ""), passwordConfirm: body.passwordConfirm === undefined ? undefined : String(body.passwordConfirm) };
        const id = await registerAccount(deps.db, input, clientAddress(c, deps.config.trustProxy), await confirmationMailer(c, deps));
        return await startSession(c, id, "register", "token");
      },
      (message) => <RegisterPage error={message} values={{ username: String(body.username ?? ""), email: String(body.email ?? "") }} />,
    );
  });

  app.post("/auth/invite", async (c) => {
    const body = await readBody(c);
    return orPage(
      c,
      async () => {
        const userId = await acceptInvite(deps.db, { token: body.token, username: body.username, password: body.password, passwordConfirm: body.passwordConfirm });
        // In SSO-only mode the account is made but gets no password session: it signs in through a
        // provider like everyone else (its email and this password link it there).
        if (!(await ssoMode(deps.db)).ssoOnly) return await startSession(c, userId, "invite");
        if (!isFormPost(c)) return c.json({ ssoOnly: true });
        setFlash(c, "errors.ErrSsoOnly", secure(c));
        return c.redirect("/auth/login", 303);
      },
      async (message) => {
        let email: string | undefined;
        try {
          email = (await findInvite(deps.db, body.token)).email;
        } catch {
          email = undefined;
        }
        return <InvitePage token={String(body.token ?? "")} email={email} error={message} />;
      },
    );
  });

  // The link's page posts here (a GET changes nothing: mail scanners open links). No login needed:
  // the token is the proof, bound to one account and one address.
  app.post("/auth/confirm-email", async (c) => {
    const body = await readBody(c);
    return orPage(
      c,
      async () => {
        const { email } = await confirmEmail(deps.db, body.token, await emailChangeNotifier(c, deps));
        if (!isFormPost(c)) return c.json({ email });
        return await render(c, deps, <ConfirmEmailPage token="" confirmed={email} />);
      },
      (message) => <ConfirmEmailPage token="" error={message} />,
    );
  });

  app.post("/auth/reauth", async (c) => {
    const token = c.get("sessionToken");
    const fresh = token ? await rotateSession(deps.db, token) : null;
    if (!fresh) throw new KilnError("ErrSessionTimedOut");
    setSessionCookie(c, fresh, SESSION_TTL_MS / 1000, secure(c));
    return c.json({ session: fresh });
  });

  app.post("/auth/logout", async (c) => {
    const token = c.get("sessionToken");
    if (token) await endSession(deps.db, token, c.get("user"));
    clearSessionCookie(c);
    // What the browser kept of the account's pages and files goes with the session (a shared computer).
    c.header("Clear-Site-Data", '"cache"');
    if (isFormPost(c) || c.req.header("accept")?.includes("text/html")) {
      setFlash(c, "toast.loggedOut", secure(c));
      return c.redirect("/auth/login", 303);
    }
    return c.body(null, 204);
  });

  return app;
}
