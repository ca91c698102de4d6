// The Account screen and its forms. Each form calls the same service as its /api/self call,
// then redirects with a toast, or re-renders the screen with the error where it happened.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { validatePasswordsMatch } from "../../core/validation/account";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render, brandName } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin } from "../middleware/require";
import { readBody } from "../request";
import { getUser } from "../services/users";
import { listPasskeys, deletePasskey } from "../services/passkeys";
import { createClient, deleteClient, listClients } from "../services/oauth2";
import { confirmOtpEnrolment, disableOtp, pendingOtpEnrolment, startOtpEnrolment } from "../services/auth/totp";
import { updateSelf } from "./self";
import { AccountPage, type AccountPageProps, type AccountSection } from "../../views/pages/AccountPage";

export function accountPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/account", requirePageLogin());
  app.use("/account/*", requirePageLogin());

  async function page(c: Context<KilnEnv>, extra: Partial<AccountPageProps> = {}, status = 200) {
    const userId = c.get("user")!.id;
    const props: AccountPageProps = {
      account: getUser(deps.db, userId),
      passkeys: listPasskeys(deps.db, userId),
      clients: listClients(deps.db, userId),
      otpEnrolment: await pendingOtpEnrolment(deps.db, userId, brandName(deps)),
      ...extra,
    };
    return render(c, deps, <AccountPage {...props} />, status);
  }

  /** Runs a form's work; success redirects with a toast, a catalogue error shows in its section. */
  function form(section: AccountSection, work: (c: Context<KilnEnv>, body: Record<string, unknown>) => Promise<string | Response> | string | Response) {
    return async (c: Context<KilnEnv>) => {
      const body = await readBody(c);
      try {
        const result = await work(c, body);
        if (result instanceof Response) return result;
        setFlash(c, result, isHttps(c, deps.config.trustProxy));
        return c.redirect(`/account#${section}`, 303);
      } catch (error) {
        if (!(error instanceof KilnError)) throw error;
        return page(c, { error: { section, message: c.get("t")(`errors.${error.code}`, error.metadata) } }, error.status);
      }
    };
  }

  app.get("/account", (c) => page(c));

  app.post("/account/profile", form("profile", async (c, body) => {
    await updateSelf(deps, c.get("user")!.id, { username: body.username, email: body.email, password: body.password });
    return "account.saved";
  }));

  app.post("/account/password", form("password", async (c, body) => {
    validatePasswordsMatch(String(body.newPassword ?? ""), String(body.newPasswordConfirm ?? ""));
    await updateSelf(deps, c.get("user")!.id, { password: body.password, newPassword: body.newPassword }, c.get("sessionToken") ?? undefined);
    return "account.passwordChanged";
  }));

  app.post("/account/otp/start", form("otp", async (c) => page(c, { otpEnrolment: await startOtpEnrolment(deps.db, c.get("user")!.id, brandName(deps)) })));
  app.post("/account/otp/confirm", form("otp", (c, body) => {
    confirmOtpEnrolment(deps.db, c.get("user")!.id, body.token);
    return "account.otp.turnedOn";
  }));
  app.post("/account/otp/disable", form("otp", (c, body) => {
    disableOtp(deps.db, c.get("user")!.id, body.token);
    return "account.otp.turnedOff";
  }));

  app.post("/account/passkeys/:id/delete", form("passkeys", (c) => {
    deletePasskey(deps.db, c.get("user")!.id, c.req.param("id")!);
    return "account.passkeys.removed";
  }));

  app.post("/account/oauth2", form("oauth2", async (c, body) => {
    if (c.get("user")!.clientId) throw new KilnError("ErrNoPermission");
    return page(c, { createdClient: await createClient(deps.db, c.get("user")!.id, body) });
  }));
  app.post("/account/oauth2/:id/delete", form("oauth2", (c, body) => {
    // The acknowledgement switch must be ticked (spec section 5); browsers enforce it, programs too.
    if (body.ack !== "on") throw new KilnError("ErrFieldRequired", { field: "ack" });
    deleteClient(deps.db, c.get("user")!.id, c.req.param("id")!);
    return "oauth.deleted";
  }));

  return app;
}
