// The panel's screens, in history mode. Every screen but the no-login ones redirects to
// the login screen without a session.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render, renderKept } from "../render";
import { LoginPage } from "../../views/pages/LoginPage";
import { NotFoundPage } from "../../views/pages/NotFoundPage";
import { RegisterPage } from "../../views/pages/RegisterPage";
import { InvitePage } from "../../views/pages/InvitePage";
import { ConfirmEmailPage } from "../../views/pages/ConfirmEmailPage";
import { findConfirmation } from "../services/users/email-confirmation";
import { isRegistrationEnabled } from "../services/settings";
import { findInvite, firstAdminNotice } from "../services/users";
import { loginProviders } from "../services/sso/providers";
import { ssoMode } from "../services/sso/mode";

export const NOT_FOUND_PATH = "/errors/404";


export function pageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/", (c) => c.redirect("/server", 302));
  app.get(NOT_FOUND_PATH, (c) => render(c, deps, <NotFoundPage />, 404));
  app.get("/auth/login", async (c) => {
    if (c.get("user")) return c.redirect("/server", 302);
    const props = { reason: c.req.query("reason"), registrationEnabled: await isRegistrationEnabled(deps.db), firstAdmin: await firstAdminNotice(deps.db), providers: await loginProviders(deps.db), ssoOnly: (await ssoMode(deps.db)).ssoOnly, showPassword: c.req.query("password") === "1" };
    return renderKept(c, deps, ["login", props], () => <LoginPage {...props} />);
  });
  app.get("/auth/register", async (c) => render(c, deps, <RegisterPage enabled={await isRegistrationEnabled(deps.db)} />));
  app.get("/auth/confirm-email", async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      const link = await findConfirmation(deps.db, token);
      return render(c, deps, <ConfirmEmailPage token={token} email={link.email} username={link.username} />);
    } catch {
      return render(c, deps, <ConfirmEmailPage token="" error={c.get("t")("errors.ErrConfirmLinkInvalid")} />, 400);
    }
  });
  app.get("/auth/invite", async (c) => {
    const token = c.req.query("token") ?? "";
    try {
      return render(c, deps, <InvitePage token={token} email={(await findInvite(deps.db, token)).email} />);
    } catch {
      return render(c, deps, <InvitePage token="" error={c.get("t")("errors.ErrInviteLinkInvalid")} />, 400);
    }
  });

  return app;
}
