// Signing in with a passkey: options (a challenge tied to a short-lived cookie), then the signed answer.
import { Hono } from "hono";
import { getCookie, setCookie, deleteCookie } from "hono/cookie";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { clientAddress, readBody } from "../request";
import { relyingParty } from "../relying-party";
import { isHttps } from "../cookies";
import { authenticationOptions, verifyPasskeyLogin } from "../services/passkeys";
import { randomToken } from "../services/sessions";
import { throttleKeys } from "../services/auth/throttle";
import { beginSession } from "../begin-session";
import { loginAttempt } from "../services/activity/logins";

const CHALLENGE_COOKIE = "kiln_webauthn";

export function passkeyAuthRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.post("/auth/passkey/options", async (c) => {
    const key = randomToken();
    const options = await authenticationOptions(deps.db, deps.challenges, await relyingParty(c, deps), key, clientAddress(c, deps.config.trustProxy));
    setCookie(c, CHALLENGE_COOKIE, key, { path: "/auth/passkey", httpOnly: true, sameSite: "Strict", secure: isHttps(c, deps.config.trustProxy), maxAge: 300 });
    return c.json(options);
  });

  app.post("/auth/passkey/login", async (c) => {
    const body = await readBody(c);
    const key = getCookie(c, CHALLENGE_COOKIE);
    deleteCookie(c, CHALLENGE_COOKIE, { path: "/auth/passkey" });
    const keys = throttleKeys(undefined, clientAddress(c, deps.config.trustProxy));
    // Any refused passkey answer counts: there is no field to forget, only a signature to forge.
    const userId = await loginAttempt(deps.db, {}, () =>
      deps.throttle.check(
        keys,
        async () => {
          if (!key) throw new KilnError("ErrInvalidCredentials");
          return verifyPasskeyLogin(deps.db, deps.challenges, await relyingParty(c, deps), key, body.response);
        },
        () => true,
      ),
    );
    const { token, scopes, landing } = await beginSession(c, deps, userId, "passkey");
    return c.json({ session: token, scopes, redirect: landing });
  });

  return app;
}
