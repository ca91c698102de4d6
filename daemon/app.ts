// The daemon's HTTP API: everything under /daemon, and only for callers holding a node token.
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { KilnError } from "../core/errors";
import pkg from "../package.json";
import type { ServerManager } from "./servers/manager";
import type { Channel } from "./channel/channel";
import { serverRoutes } from "./routes/servers";
import { requireNodeToken } from "./http/node-auth";
import { daemonErrorResponse } from "./http/errors";

export interface DaemonAppDeps {
  secret: string;
  manager: ServerManager;
  channel: Channel;
  /** Whether a Docker Engine answers here, for the node's status in the panel. */
  dockerAvailable: () => Promise<boolean>;
  log?: (error: unknown) => void;
}

/** Definitions and console commands are small; file uploads (a later route) set their own limit. */
const MAX_BODY_BYTES = 1024 * 1024;

export function createDaemonApp(deps: DaemonAppDeps) {
  const log = deps.log ?? console.error;
  const app = new Hono<{ Bindings: Bun.Server<unknown> }>();
  app.onError((error, c) => daemonErrorResponse(c, error, log));
  app.notFound((c) => c.json(new KilnError("ErrNotFound").toBody(), 404));

  app.use("/daemon/*", requireNodeToken(deps.secret));
  app.use("/daemon", requireNodeToken(deps.secret));
  app.use("/daemon/*", bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => { throw new KilnError("ErrMessageTooLarge", { max: MAX_BODY_BYTES }); } }));

  app.get("/daemon", async (c) =>
    c.json({ version: pkg.version, os: process.platform, arch: process.arch, docker: await deps.dockerAvailable(), servers: deps.manager.list().length }),
  );

  app.route("/daemon/server", serverRoutes(deps.manager));

  app.get("/daemon/socket/:id", (c) => {
    const data = deps.channel.admit(c.req.param("id"));
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new KilnError("ErrFieldRequired", { field: "upgrade" }, "a WebSocket upgrade is required");
    if (c.env.upgrade(c.req.raw, { data })) return new Response(null);
    throw new KilnError("ErrSocketFailed");
  });

  return app;
}
