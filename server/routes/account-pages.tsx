// The Account screen and its forms. Each form calls the same service as its /api/self call,
// then redirects with a toast, or re-renders the screen with the error where it happened.
import { Hono, type Context } from "hono";
import { hasFreshProviderSignIn, hasPassword } from "../services/auth/credentials";
import { KilnError } from "../../core/errors";
import { validatePasswordsMatch } from "../../core/validation/account";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render, brandName } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireOwnLogin } from "../middleware/require";
import { readBody } from "../request";
import { getUser, updateSelf } from "../services/users";
import { emailState, resendConfirmation } from "../services/users/email-confirmation";
import { confirmationMailer } from "../confirmation-mail";
import { emailChangeNotifier } from "../email-change-mail";
import { listPasskeys, deletePasskey } from "../services/passkeys";
import { createClient, deleteClient, ownClients } from "../services/oauth2";
import { cancelOtpEnrolment, confirmOtpEnrolment, pendingOtpEnrolment, startOtpEnrolment } from "../services/auth/totp";
import { disableOtp, regenerateRecoveryCodes } from "../services/auth/second-factor";
import { recoveryCodesLeft } from "../services/auth/recovery-codes";
import { underLoginThrottle } from "./self";
import { errorField } from "../../views/components/form-errors";
import { listActivity } from "../services/activity/list";
import { linkedIdentities } from "../services/sso/identities";
import { loginProviders } from "../services/sso/providers";
import { AccountPage, type AccountPageProps, type AccountSection } from "../../views/pages/AccountPage";
import { errorMessageKey } from "../../core/errors/message-key";

/** The input a refusal is about: the field it names, else the password or code that was wrong. */
function fieldOf(error: KilnError): string | undefined {
  if (error.code === "ErrInvalidCredentials") return "password";
  if (error.code === "ErrTokenInvalid" || error.code === "ErrOtpCodeUsed" || error.code === "ErrRecoveryCodeUsed") return "token";
  return errorField(error.metadata);
}

/** The message key, in this screen's words where the catalogue's would be vague ("Invalid credentials"). */
function wordingOf(error: KilnError, section: AccountSection, form: string): string {
  if (error.code === "ErrInvalidCredentials") return "account.wrongPassword";
  // Only switching off also takes a recovery code; the other two-factor forms want the app's code.
  if (error.code === "ErrTokenInvalid" && section === "otp") return form === "disable" ? "auth.otp.wrong" : "account.otp.wrongCode";
  return errorMessageKey(error.code, error.metadata);
}

/** What the Account page lists as changes to how the account signs in: its holder's and a manager's alike. */
const SIGN_IN_CHANGES = ["user.password.changed", "user.passkey.added", "user.passkey.removed", "user.totp.enabled", "user.totp.disabled", "user.recoveryCodes.generated", "user.identity.linked", "user.identity.unlinked", "user.secured"] as const;

export function accountPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/account/*", requirePageLogin());
  // The page shows to any caller; its forms change how the account signs in: the holder's own login only.
  app.on("POST", "/account/*", requireOwnLogin());

  async function page(c: Context<KilnEnv>, extra: Partial<AccountPageProps> = {}, status = 200) {
    const userId = c.get("user")!.id;
    const props: AccountPageProps = {
      account: await getUser(deps.db, userId),
      emailState: await emailState(deps.db, userId),
      mayMailConfirmation: (await confirmationMailer(c, deps)) !== null,
      passkeys: await listPasskeys(deps.db, userId),
      // Every client the account holds: one bound to a server its holder no longer reaches is
      // listed nowhere else they can see.
      clients: await ownClients(deps.db, c.get("user")!),
      otpEnrolment: await pendingOtpEnrolment(deps.db, c.get("user")!, await brandName(deps)),
      recoveryCodesLeft: await recoveryCodesLeft(deps.db, userId),
      identities: await linkedIdentities(deps.db, userId),
      hasPassword: await hasPassword(deps.db, userId),
      needsProviderSignIn: !(await hasPassword(deps.db, userId)) && !(await hasFreshProviderSignIn(deps.db, userId, c.get("sessionToken"))),
      providers: await loginProviders(deps.db),
      logins: (await listActivity(deps.db, c.get("user")!, { userId, event: ["user.login", "user.login.failed", "user.login.throttled"], page: 1, limit: 10 })).events,
      signInChanges: (await listActivity(deps.db, c.get("user")!, { userId, event: [...SIGN_IN_CHANGES], page: 1, limit: 10 })).events,
      ...extra,
    };
    return render(c, deps, <AccountPage {...props} />, status);
  }

  /**
   * Runs a form's work; success redirects with a toast, a catalogue error shows in its section,
   * beside the field it names (`name` tells apart the forms of one section).
   */
  function form(section: AccountSection, work: (c: Context<KilnEnv>, body: Record<string, unknown>) => Promise<string | Response> | string | Response, name: string = section) {
    return async (c: Context<KilnEnv>) => {
      const body = await readBody(c);
      try {
        const result = await work(c, body);
        if (result instanceof Response) return result;
        setFlash(c, result, isHttps(c, deps.config.trustProxy));
        return c.redirect(`/account#${section}`, 303);
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        const message = c.get("t")(wordingOf(error, section, name), error.metadata);
        return page(c, { error: { section, form: name, message, field: fieldOf(error) } }, error.status);
      }
    };
  }

  app.get("/account", (c) => page(c));

  app.post("/account/profile", form("profile", async (c, body) => {
    await updateSelf(deps.db, c.get("user")!.id, { username: body.username, email: body.email, password: body.password }, undefined, await confirmationMailer(c, deps), await emailChangeNotifier(c, deps));
    return "account.saved";
  }));
  app.post("/account/email/resend", form("profile", async (c) => {
    await resendConfirmation(deps.db, c.get("user")!.id, await confirmationMailer(c, deps));
    return "account.email.sent";
  }, "resend"));

  app.post("/account/password", form("password", async (c, body) => {
    validatePasswordsMatch(String(body.newPassword ?? ""), String(body.newPasswordConfirm ?? ""), "newPasswordConfirm");
    await updateSelf(deps.db, c.get("user")!.id, { password: body.password, newPassword: body.newPassword }, c.get("sessionToken") ?? undefined);
    return "account.passwordChanged";
  }));

  app.post("/account/otp/start", form("otp", async (c) => page(c, { otpEnrolment: await startOtpEnrolment(deps.db, c.get("user")!.id, await brandName(deps)) }), "start"));
  // Switching on shows the first recovery codes, once: this answer is the only place they appear.
  app.post("/account/otp/confirm", form("otp", async (c, body) => page(c, { recoveryCodes: await underLoginThrottle(deps, c, () => confirmOtpEnrolment(deps.db, c.get("user")!.id, body.token, body.password, c.get("sessionToken"))) }), "confirm"));
  app.post("/account/otp/cancel", form("otp", async (c) => {
    await cancelOtpEnrolment(deps.db, c.get("user")!.id);
    return "account.otp.cancelled";
  }, "confirm"));
  const throttled = <T,>(c: Context<KilnEnv>, work: () => Promise<T>) => underLoginThrottle(deps, c, work);
  app.post("/account/otp/disable", form("otp", async (c, body) => {
    await throttled(c, async () => await disableOtp(deps.db, c.get("user")!.id, body.token));
    return "account.otp.turnedOff";
  }, "disable"));
  app.post("/account/otp/recovery", form("otp", async (c, body) => {
    const codes = await throttled(c, () => regenerateRecoveryCodes(deps.db, c.get("user")!.id, { password: body.password, token: body.token }));
    return page(c, { recoveryCodes: codes });
  }, "recovery"));

  app.post("/account/passkeys/:id/delete", form("passkeys", async (c) => {
    await deletePasskey(deps.db, c.get("user")!.id, c.req.param("id")!);
    return "account.passkeys.removed";
  }));

  app.post("/account/oauth2", form("oauth2", async (c, body) => {
    if (c.get("user")!.clientId) throw new KilnError("ErrNoPermission");
    return page(c, { createdClient: await throttled(c, () => createClient(deps.db, c.get("user")!, body)) });
  }, "create"));
  app.post("/account/oauth2/:id/delete", form("oauth2", async (c, body) => {
    // Deletion is final, so the acknowledgement switch must be ticked; browsers enforce it, programs too.
    if (body.ack !== "on") throw new KilnError("ErrFieldRequired", { field: "ack" });
    await deleteClient(deps.db, c.get("user")!, c.req.param("id")!);
    return "oauth.deleted";
  }));

  return app;
}
