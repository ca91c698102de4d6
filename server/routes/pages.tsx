// The screens of spec section 2, in history mode. Every screen but the no-login ones redirects to
// the login screen without a session.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { requirePageLogin } from "../middleware/require";
import { ServersPage } from "../../views/pages/ServersPage";
import { AccountPage } from "../../views/pages/AccountPage";
import { ScreenPage } from "../../views/pages/ScreenPage";
import { LoginPage } from "../../views/pages/LoginPage";
import { NotFoundPage } from "../../views/pages/NotFoundPage";

export const NOT_FOUND_PATH = "/errors/404";

/** Screens whose content later releases fill, by path pattern and title key. */
const SCREENS: [string, string][] = [
  ["/addserver", "page.addServer.title"],
  ["/server/:id", "page.server.title"],
  ["/user", "page.users.title"],
  ["/user/:id", "page.editUser.title"],
  ["/adduser", "page.addUser.title"],
  ["/template", "page.templates.title"],
  ["/template/:id", "page.editTemplate.title"],
  ["/addtemplate", "page.addTemplate.title"],
  ["/node", "page.nodes.title"],
  ["/node/:id", "page.node.title"],
  ["/addnode", "page.addNode.title"],
  ["/settings", "page.settings.title"],
  ["/auth/register", "auth.register.title"],
  ["/auth/invite", "auth.invite.title"],
];
const NO_LOGIN = new Set(["/auth/register", "/auth/invite"]);

export function pageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/", (c) => c.redirect("/server", 302));
  app.get(NOT_FOUND_PATH, (c) => render(c, deps, <NotFoundPage />, 404));
  app.get("/auth/login", async (c) => {
    if (c.get("user")) return c.redirect("/server", 302);
    return render(c, deps, <LoginPage reason={c.req.query("reason")} />);
  });

  for (const [path, titleKey] of SCREENS) {
    if (NO_LOGIN.has(path)) app.get(path, (c) => render(c, deps, <ScreenPage titleKey={titleKey} />));
    else app.get(path, requirePageLogin(), (c) => render(c, deps, <ScreenPage titleKey={titleKey} />));
  }
  app.get("/server", requirePageLogin(), (c) => render(c, deps, <ServersPage />));
  app.get("/account", requirePageLogin(), (c) => render(c, deps, <AccountPage />));
  return app;
}
