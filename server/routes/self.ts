// /api/self: the caller's own account, two-factor, passkeys and OAuth2 clients.
import { Hono, type Context } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { clientAddress, readBody } from "../request";
import { requireLogin, requireOwnLogin } from "../middleware/require";
import { relyingParty } from "../relying-party";
import { brandName } from "../render";
import { getUser, updateSelf } from "../services/users";
import { emailState, resendConfirmation } from "../services/users/email-confirmation";
import { confirmationMailer } from "../confirmation-mail";
import { emailChangeNotifier } from "../email-change-mail";
import { cancelOtpEnrolment, confirmOtpEnrolment, startOtpEnrolment } from "../services/auth/totp";
import { disableOtp, isSecondFactorFailure, regenerateRecoveryCodes } from "../services/auth/second-factor";
import { recoveryCodesLeft } from "../services/auth/recovery-codes";
import { isCredentialFailure, throttleKeys } from "../services/auth/throttle";
import { createClient, deleteClient, listClients } from "../services/oauth2";
import { parseWith } from "../validate";
import { API_SCHEMAS } from "../../core/api/schemas";
import { deletePasskey, listPasskeys, registerPasskey, registrationOptions } from "../services/passkeys";

/** Runs a check of a code or the password for the logged-in account: wrong guesses count towards the login throttle, as at login. */
export function underLoginThrottle<T>(deps: Deps, c: Context<KilnEnv>, work: () => Promise<T>): Promise<T> {
  const keys = throttleKeys(c.get("user")!.id, clientAddress(c, deps.config.trustProxy));
  return deps.throttle.check(keys, work, (error) => isSecondFactorFailure(error) || isCredentialFailure(error));
}

export function selfRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/self/*", requireLogin());
  // Reading is for any caller of the account; every change is its holder's own login's.
  app.on(["POST", "PUT", "DELETE"], ["/api/self", "/api/self/*"], requireOwnLogin());
  const me = (c: { get(k: "user"): KilnEnv["Variables"]["user"] }) => c.get("user")!;

  app.get("/api/self", async (c) => {
    const user = await getUser(deps.db, me(c).id);
    const email = await emailState(deps.db, me(c).id);
    return c.json({ id: user.id, username: user.username, email: email.own, emailConfirmed: email.confirmed, pendingEmail: email.pending, otpEnabled: user.otpEnabled, scopes: me(c).scopes });
  });

  app.put("/api/self", async (c) => {
    await updateSelf(deps.db, me(c).id, parseWith(API_SCHEMAS.selfUpdate, await readBody(c)), c.get("sessionToken") ?? undefined, await confirmationMailer(c, deps), await emailChangeNotifier(c, deps));
    return c.body(null, 204);
  });
  app.post("/api/self/email/confirmation", async (c) => {
    const sent = await resendConfirmation(deps.db, me(c).id, await confirmationMailer(c, deps));
    return c.json({ sent });
  });

  app.get("/api/self/otp", async (c) => c.json({ otpEnabled: (await getUser(deps.db, me(c).id)).otpEnabled, recoveryCodesLeft: await recoveryCodesLeft(deps.db, me(c).id) }));
  app.post("/api/self/otp", async (c) => c.json(await startOtpEnrolment(deps.db, me(c).id, await brandName(deps))));
  app.put("/api/self/otp", async (c) => {
    // PufferPanel's client expects an empty answer here; a program fetches its recovery codes
    // with POST /api/self/otp/recovery (the set made now is replaced then).
    // The account's password too (PufferPanel's client sends the code alone: refused, the field named).
    const body = parseWith(API_SCHEMAS.otpEnable, await readBody(c));
    await underLoginThrottle(deps, c, () => confirmOtpEnrolment(deps.db, me(c).id, body.token, body.password, c.get("sessionToken")));
    return c.body(null, 204);
  });
  app.delete("/api/self/otp", async (c) => {
    await cancelOtpEnrolment(deps.db, me(c).id);
    return c.body(null, 204);
  });
  const throttled = <T>(c: Context<KilnEnv>, work: () => Promise<T>) => underLoginThrottle(deps, c, work);
  app.delete("/api/self/otp/:token", async (c) => {
    await throttled(c, async () => await disableOtp(deps.db, me(c).id, c.req.param("token")));
    return c.body(null, 204);
  });
  app.post("/api/self/otp/recovery", async (c) => {
    const proof = parseWith(API_SCHEMAS.recoveryRegenerate, await readBody(c));
    return c.json({ codes: await throttled(c, () => regenerateRecoveryCodes(deps.db, me(c).id, proof)) });
  });

  app.get("/api/self/passkeys", async (c) => c.json(await listPasskeys(deps.db, me(c).id)));
  app.post("/api/self/passkeys/options", async (c) => {
    const { password } = parseWith(API_SCHEMAS.passkeyOptions, await readBody(c));
    return c.json(await throttled(c, async () => await registrationOptions(deps.db, deps.challenges, await relyingParty(c, deps), me(c), password)));
  });
  app.post("/api/self/passkeys", async (c) => {
    const body = parseWith(API_SCHEMAS.passkeyRegister, await readBody(c));
    return c.json(await registerPasskey(deps.db, deps.challenges, await relyingParty(c, deps), me(c).id, body.name, body.response), 201);
  });
  app.delete("/api/self/passkeys/:id", async (c) => {
    await deletePasskey(deps.db, me(c).id, c.req.param("id"));
    return c.body(null, 204);
  });

  app.get("/api/self/oauth2", async (c) => c.json(await listClients(deps.db, me(c).id)));
  app.post("/api/self/oauth2", async (c) => {
    const body = parseWith(API_SCHEMAS.oauth2Create, await readBody(c));
    return c.json(await throttled(c, () => createClient(deps.db, me(c), body)));
  });
  app.delete("/api/self/oauth2/:id", async (c) => {
    await deleteClient(deps.db, me(c), c.req.param("id"));
    return c.body(null, 204);
  });
  return app;
}
