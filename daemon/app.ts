// The daemon's HTTP API: everything under /daemon, and only for callers holding a node token.
import { Hono } from "hono";
import { NODE_OPERATIONS, operationPattern, type NodeOperation } from "../core/contract";
import { bodyLimit } from "hono/body-limit";
import { KilnError } from "../core/errors";
import pkg from "../package.json";
import type { ServerManager } from "./servers/manager";
import type { Channel } from "./channel/channel";
import { serverRoutes } from "./routes/servers";
import { fileRoutes } from "./routes/files";
import { fileManagerRoutes } from "./routes/file-manager";
import { taskRoutes } from "./routes/tasks";
import { backupRoutes } from "./routes/backups";
import { backupTargetRoutes } from "./routes/backup-targets";
import { playerRoutes } from "./routes/players";
import { playerCountRoutes } from "./routes/player-counts";
import { listStatusRoutes } from "./routes/list-statuses";
import { metricsRoutes } from "./routes/metrics";
import { modRoutes } from "./routes/mods";
import { transferRoutes } from "./routes/transfer";
import { transferSourceRoutes } from "./transfer/source-routes";
import type { Transfers } from "./transfer";
import type { ModChanges } from "./mods/changes";
import { PlayerManagement } from "./players/service";
import type { BackupService, BackupTargets } from "./backups";
import type { TaskScheduler } from "./tasks/scheduler";
import type { ExtractLimits } from "./files/extract";
import { sftpRoutes } from "./sftp/routes";
import type { SftpServer } from "./sftp/server";
import { nodeProofRoute, requireNodeToken, type NodeCredentials } from "./http/node-auth";
import { NonceLedger } from "../core/node-token";
import { daemonErrorResponse } from "./http/errors";
import { countServerChanges } from "./http/held-changes";
import { keepHeadAnswer } from "../core/http/head";
import { assertValidHost } from "../core/http/request-host";
import { closeUnlessAdmitted } from "./http/admitted";
import { paceBodies, UPLOAD_PACE, type UploadPace } from "./http/paced-body";
import { isolationStatus, type Isolation } from "./environment/sandbox";
import type { LimitMechanism } from "./environment/host-limits";

export interface DaemonAppDeps {
  credentials: NodeCredentials;
  manager: ServerManager;
  scheduler: TaskScheduler;
  channel: Channel;
  /** Whether a Docker Engine answers here, for the node's status in the panel. */
  dockerAvailable: () => Promise<boolean>;
  /** Whether servers run sandboxed, for the node's status in the panel (which warns when not). */
  isolation?: Isolation;
  /** How servers on the node itself are held to their limits, for the node's page. */
  limits?: LimitMechanism;
  /** How much one archive may unpack to (decompression bombs stop there). */
  extractLimits: ExtractLimits;
  /** The node's backups of its servers, and where it keeps them. */
  backups: { service: BackupService; targets: BackupTargets };
  /** The node's SFTP server (the panel ends its sessions when access changes). */
  sftp: SftpServer;
  /** Mods and plugins: what is installed, and changes to it. */
  mods: { changes: ModChanges };
  /** The node's data folder: the file system its disk figures are read from (GET /daemon/metrics). */
  dataDir: string;
  /** Moving servers between nodes: this node's offers (as a source) and pulls (as a target). */
  transfer: Transfers;
  /** The pace every request body must keep (http/paced-body); UPLOAD_PACE unless a test shortens it. */
  uploadPace?: UploadPace;
  log?: (error: unknown) => void;
}

/** Definitions and console commands are small; file uploads stream to disk and have no limit. */
const MAX_BODY_BYTES = 1024 * 1024;
/** The operations whose bodies are files streamed to disk (the contract's streamsBody): no cap. */
const STREAMED = Object.values(NODE_OPERATIONS as Record<string, NodeOperation>)
  .filter((op) => op.streamsBody)
  .map((op) => ({ method: op.method, path: operationPattern(op.path) }));
const streamsBody = (method: string, path: string) => STREAMED.some((op) => op.method === method && op.path.test(path));

export function createDaemonApp(deps: DaemonAppDeps) {
  const log = deps.log ?? console.error;
  const app = new Hono<{ Bindings: Bun.Server<unknown> }>();
  app.onError((error, c) => daemonErrorResponse(c, error, log));
  app.notFound((c) => c.json(new KilnError("ErrNotFound").toBody(), 404));
  // Outermost, after the answer: a caller not admitted gets no kept-alive connection
  // (http/admitted), and a HEAD's whole answer is kept for the node's fetch (core/http/head).
  app.use("*", async (c, next) => {
    await next();
    closeUnlessAdmitted(c.req.raw, c.res);
    keepHeadAnswer(c.req.raw, c.res);
  });

  app.use("*", async (c, next) => {
    assertValidHost(c.req.url);
    await next();
  });

  nodeProofRoute(app, deps.credentials);
  // The node-to-node routes of a move take the source's ticket instead of a node token: they are
  // registered before the token check, answer every request themselves (401 without a valid
  // ticket) and so never reach it.
  transferSourceRoutes(app, deps.manager, () => deps.transfer.offers);
  // One ledger for every route: a token used anywhere is used up.
  const tokenCheck = requireNodeToken(deps.credentials, new NonceLedger());
  // "/daemon/*" matches "/daemon" itself too: one registration, so the nonce is claimed once.
  app.use("/daemon/*", tokenCheck);
  const limitBody = bodyLimit({ maxSize: MAX_BODY_BYTES, onError: () => { throw new KilnError("ErrMessageTooLarge", { max: MAX_BODY_BYTES }); } });
  app.use("/daemon/*", (c, next) => (streamsBody(c.req.method, c.req.path) ? next() : limitBody(c, next)));
  // Before the change count: a change reading a body is handed what ends it (http/held-changes).
  app.use("/daemon/*", paceBodies(deps.uploadPace ?? UPLOAD_PACE));

  app.get("/daemon", async (c) =>
    c.json({ version: pkg.version, os: process.platform, arch: process.arch, docker: await deps.dockerAvailable(), servers: deps.manager.list().length, isolation: deps.isolation ? isolationStatus(deps.isolation) : null, limits: deps.limits ?? null }),
  );

  // "/:id/*" matches "/:id" itself too (as "/daemon/*" does "/daemon").
  app.use("/daemon/server/:id/*", countServerChanges(deps.manager));
  app.route("/daemon/server", serverRoutes(deps.manager, deps.channel));
  app.route("/daemon/server", fileRoutes(deps.manager, deps.extractLimits));
  app.route("/daemon/server", fileManagerRoutes(deps.manager, deps.extractLimits));
  app.route("/daemon/server", taskRoutes(deps.scheduler));
  app.route("/daemon/server", backupRoutes(deps.backups.service));
  app.route("/daemon/server", playerRoutes(new PlayerManagement(deps.manager)));
  app.route("/daemon/server", modRoutes(deps.manager, deps.mods.changes));
  app.route("/daemon/server", transferRoutes(deps.manager, deps.transfer));
  app.route("/daemon/player-counts", playerCountRoutes(deps.manager));
  app.route("/daemon/list-statuses", listStatusRoutes(deps.manager));
  app.route("/daemon/metrics", metricsRoutes(deps.manager, deps.dataDir));
  app.route("/daemon/backup-targets", backupTargetRoutes(deps.backups.targets, deps.backups.service));
  app.route("/daemon/sftp", sftpRoutes(deps.sftp));

  app.get("/daemon/socket/:id", (c) => {
    const data = deps.channel.admit(c.req.param("id"));
    if (c.req.header("upgrade")?.toLowerCase() !== "websocket") throw new KilnError("ErrFieldRequired", { field: "upgrade" }, "a WebSocket upgrade is required");
    if (c.env.upgrade(c.req.raw, { data })) return new Response(null);
    throw new KilnError("ErrSocketFailed");
  });

  return app;
}
