// The panel's HTTP application: middleware in order, then one sub-app per resource.
import { Hono, type Context } from "hono";
import { KilnError } from "../core/errors";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import { requestFrame } from "./middleware/request-frame";
import { healthRoutes } from "./routes/health";
import { errorResponse, toKilnError } from "./middleware/error-handler";
import { render } from "./render";
import { assetRoutes } from "./routes/assets";
import { themeRoutes } from "./routes/theme";
import { configRoutes } from "./routes/config";
import { userSettingsRoutes } from "./routes/user-settings";
import { prefsRoutes } from "./routes/prefs";
import { i18nRoutes } from "./routes/i18n";
import { authRoutes } from "./routes/auth";
import { passkeyAuthRoutes } from "./routes/passkey-auth";
import { selfRoutes } from "./routes/self";
import { userRoutes } from "./routes/users";
import { nodeRoutes } from "./routes/nodes";
import { nodeInstallRoutes } from "./routes/node-install";
import { sftpAuthRoutes } from "./routes/sftp-auth";
import { taskCheckRoutes } from "./routes/task-check";
import { templateRoutes } from "./routes/templates";
import { serverRoutes } from "./routes/servers";
import { serverLiveValueRoutes } from "./routes/server-live-values";
import { serverPlayerRoutes } from "./routes/server-players";
import { serverModRoutes } from "./routes/server-mods";
import { serverPlayersQueryRoutes } from "./routes/server-players-query";
import { proxyRoutes } from "./routes/proxy";
import { activityRoutes } from "./routes/activity";
import { ssoRoutes } from "./routes/sso";
import { roleRoutes } from "./routes/roles";
import { allocationRoutes } from "./routes/allocations";
import { transferRoutes } from "./routes/transfers";
import { nodePlacementRoutes } from "./routes/node-placement";
import { ssoSettingsPageRoutes } from "./routes/sso-settings-pages";
import { activityPageRoutes } from "./routes/activity-pages";
import { nodeEventRoutes } from "./routes/node-events";
import { webhookRoutes } from "./routes/webhooks";
import { settingsRoutes } from "./routes/settings";
import { oauth2TokenRoutes } from "./routes/oauth2-token";
import { pageRoutes, NOT_FOUND_PATH } from "./routes/pages";
import { accountPageRoutes } from "./routes/account-pages";
import { userPageRoutes } from "./routes/user-pages";
import { rolePageRoutes } from "./routes/role-pages";
import { serverPageRoutes } from "./routes/server";
import { serverListRoutes } from "./routes/server-list-page";
import { nodePageRoutes } from "./routes/node-pages";
import { settingsPageRoutes } from "./routes/settings-pages";
import { templatePageRoutes } from "./routes/template-pages";
import { apiDocsRoutes } from "./routes/api-docs";
import { metricsRoutes } from "./routes/metrics";
import { HttpMetrics } from "./metrics";
import { CloudIdePage } from "../views/pages/CloudIdePage";
import { ErrorPage } from "../views/pages/ErrorPage";
import { errorMessageKey } from "../core/errors/message-key";

/** Paths whose callers are programs: they get JSON errors, never redirects or pages. */
function isMachinePath(path: string): boolean {
  return /^\/(api|proxy|assets|static|theme|i18n|oauth2|metrics|healthz|readyz)(\/|$)/.test(path);
}

function wantsPage(c: Context): boolean {
  return c.req.method === "GET" && !isMachinePath(c.req.path) && (c.req.header("accept") ?? "").includes("text/html");
}

export function createApp(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const http = new HttpMetrics();
  app.use(...requestFrame(deps, http, (c) => render(c, deps, <CloudIdePage />, 403)));

  app.route("/", healthRoutes(deps));
  app.route("/", assetRoutes(deps));
  app.route("/", themeRoutes(deps));
  app.route("/", i18nRoutes());
  app.route("/", configRoutes(deps));
  app.route("/", userSettingsRoutes(deps));
  app.route("/", prefsRoutes(deps));
  app.route("/", authRoutes(deps));
  app.route("/", ssoRoutes(deps));
  app.route("/", passkeyAuthRoutes(deps));
  app.route("/", oauth2TokenRoutes(deps));
  app.route("/", selfRoutes(deps));
  app.route("/", roleRoutes(deps));
  app.route("/", userRoutes(deps));
  app.route("/", settingsRoutes(deps));
  app.route("/", sftpAuthRoutes(deps));
  app.route("/", taskCheckRoutes(deps));
  app.route("/", nodeEventRoutes(deps));
  app.route("/", allocationRoutes(deps));
  app.route("/", transferRoutes(deps));
  app.route("/", nodePlacementRoutes(deps));
  app.route("/", nodeRoutes(deps));
  app.route("/", nodeInstallRoutes(deps));
  app.route("/", templateRoutes(deps));
  // Before serverRoutes: /api/servers/live is not a server id.
  app.route("/", serverLiveValueRoutes(deps));
  app.route("/", serverRoutes(deps));
  app.route("/", serverPlayerRoutes(deps));
  app.route("/", serverModRoutes(deps));
  app.route("/", serverPlayersQueryRoutes(deps));
  app.route("/", activityRoutes(deps));
  app.route("/", webhookRoutes(deps));
  app.route("/", proxyRoutes(deps));
  app.route("/", accountPageRoutes(deps));
  app.route("/", activityPageRoutes(deps));
  app.route("/", userPageRoutes(deps));
  app.route("/", rolePageRoutes(deps));
  app.route("/", serverListRoutes(deps));
  app.route("/", serverPageRoutes(deps));
  app.route("/", nodePageRoutes(deps));
  app.route("/", ssoSettingsPageRoutes(deps));
  app.route("/", settingsPageRoutes(deps));
  app.route("/", templatePageRoutes(deps));
  app.route("/", apiDocsRoutes(deps));
  app.route("/", metricsRoutes(deps, http));
  app.route("/", pageRoutes(deps));

  app.notFound((c) => {
    if (isMachinePath(c.req.path) || c.req.method !== "GET") return c.json(new KilnError("ErrNotFound").toBody(), 404);
    return c.redirect(NOT_FOUND_PATH, 302);
  });

  app.onError(async (error, c) => {
    if (!wantsPage(c)) return errorResponse(c, error);
    const kiln = toKilnError(error);
    if (kiln.code === "ErrUnknownError") console.error(error);
    try {
      return await render(c, deps, <ErrorPage status={kiln.status} message={c.get("t")(errorMessageKey(kiln.code, kiln.metadata), kiln.metadata)} />, kiln.status);
    } catch (failed) {
      // The error page could not be drawn (a request whose address no URL holds): the error as an
      // API caller gets it, never out of the app, where only Bun's own answer is left.
      console.error(failed);
      return c.json(kiln.toBody(), kiln.status as 500);
    }
  });

  return app;
}
