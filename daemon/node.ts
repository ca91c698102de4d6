// Starts a node: the server manager, the API and the socket channel on one listener. Used by
// `kiln daemon` and, for the local node, by `kiln panel`.
import { wholeHeadAnswers } from "../core/http/head";
import { join } from "node:path";
import type Dockerode from "dockerode";
import { DEFAULT_DISK_CHECK_MS, DEFAULT_QUERY_INTERVAL_MS, nodeCredentials, type DaemonConfig } from "./config";
import { ServerManager } from "./servers/manager";
import { Channel, type SocketData } from "./channel/channel";
import type { ConnectLive } from "../core/live/in-process";
import { createDaemonApp } from "./app";
import { dockerClient, engineAnswers } from "./environment/docker";
import { DEFAULT_ISOLATION, probeIsolation, type Isolation } from "./environment/sandbox";
import { ServerUsers } from "./environment/server-user";
import { HostLimiter, probeLimits } from "./environment/host-limits";
import { NodeNetwork } from "./environment/network";
import { TaskScheduler, type TaskCheck } from "./tasks/scheduler";
import { panelTaskCheck } from "./tasks/panel-check";
import { systemClock, type Clock } from "./tasks/clock";
import { BackupService, BackupTargets, findRestic, recoverRestores } from "./backups";
import { InstalledFiles } from "./mods/installed";
import { PackUploads } from "./mods/pack-uploads";
import { InstalledPacks } from "./mods/installed-packs";
import { AddonOrigins } from "./mods/addon-origins";
import { ModChanges } from "./mods/changes";
import { loadOrCreateHostKey, panelLoginCheck, startSftpServer, type LoginCheck } from "./sftp";
import { reclaimOwnPort } from "./net/own-ports";
import { PanelReporter, type ReportEvent } from "./events/reporter";
import { watchLifecycle } from "./events/lifecycle";
import { createTransfers } from "./transfer";
import type { UploadPace } from "./http/paced-body";

/** How long a stop may take before the server is killed. */
export const STOP_TIMEOUT_MS = 60_000;

export interface RunningNode {
  url: string;
  port: number;
  /** The SFTP port actually listened on (config.sftpPort 0 picks a free one). */
  sftpPort: number;
  /** The SFTP host key's fingerprint, for the log and for users who check it. */
  sftpFingerprint: string;
  manager: ServerManager;
  scheduler: TaskScheduler;
  /** Whether servers run sandboxed here, and why not. */
  isolation: Isolation;
  /** How servers on the node itself are held to their limits. */
  limiter: HostLimiter;
  /** Their networks (network.support says whether they get their own). */
  network: NodeNetwork;
  /** The node's backups of its servers. */
  backups: BackupService;
  /** The node's HTTP API as a function, for a panel in the same process (no loopback copies). */
  handle(request: Request): Response | Promise<Response>;
  /** A live socket for a panel in the same process (core/live/in-process), without the loopback connection. */
  connectLive: ConnectLive;
  stop(): Promise<void>;
}

export interface NodeOptions {
  log?: (line: string) => void;
  stopTimeoutMs?: number;
  /** Who checks SFTP logins; the panel at config.panelUrl unless a caller says otherwise. */
  checkLogin?: LoginCheck;
  /** Who confirms a scheduled task's rights before it runs; the panel unless a caller says otherwise. */
  checkTask?: TaskCheck;
  /** The scheduler's clock (tests drive their own). */
  clock?: Clock;
  /** Where the node's events go; the panel at config.panelUrl unless a caller says otherwise. */
  reportEvent?: ReportEvent;
  /** The pace request bodies must keep (daemon/http/paced-body's UPLOAD_PACE unless a test shortens it). */
  uploadPace?: UploadPace;
}

export async function startNode(config: DaemonConfig, options: NodeOptions = {}): Promise<RunningNode> {
  const log = options.log ?? ((line: string) => console.log(line));
  let docker: Dockerode | null = null;
  const getDocker = () => (docker ??= dockerClient(config.dockerSocket));
  const binariesDir = join(config.dataDir, "binaries");
  const isolationSettings = config.isolation ?? DEFAULT_ISOLATION;
  const isolation = probeIsolation(isolationSettings, config.dataDir, binariesDir);
  if (!isolation.sandbox) {
    const outcome = isolation.mode === "required" ? "servers on the node itself will not start (isolation \"required\")" : "servers run without a sandbox (isolation \"auto\")";
    log(`kiln daemon: warning: ${outcome}: ${isolation.reason}`);
  }
  // Servers on the node itself get networks of their own where the node can make them.
  const network = await NodeNetwork.open({ ipPath: isolationSettings.ipPath, nftPath: isolationSettings.nftPath, range: isolationSettings.networkRange, dataDir: config.dataDir });
  isolation.network = network.support;
  if (!network.support.available) {
    const outcome = isolation.mode === "required" ? "servers on the node itself will not start (isolation \"required\")" : "servers share the node's network (isolation \"auto\")";
    log(`kiln daemon: warning: ${outcome}: ${network.support.reason}`);
  }
  const limiter = new HostLimiter(probeLimits());
  if (limiter.mechanism === "none") log("kiln daemon: warning: servers' memory, CPU and process limits cannot be enforced here (no cgroup the node may write, no prlimit)");
  let mods: ModChanges | undefined;
  // The node's own ports, filled in below once its listeners have them (a port of 0 in the config is
  // any free one), and its servers' range: what a download or a backup target may not lead to.
  const own = { ports: [portOf(config.panelUrl)], serverRange: network.support.available ? network.range : undefined };
  const manager = new ServerManager({
    dataDir: config.dataDir,
    binariesDir,
    isolation,
    users: new ServerUsers(isolationSettings.uidRange),
    limiter,
    network: network.support.available ? network : null,
    diskCheckMs: config.diskCheckMs ?? DEFAULT_DISK_CHECK_MS,
    queryIntervalMs: config.queryIntervalMs ?? DEFAULT_QUERY_INTERVAL_MS,
    sources: config.sources,
    extractLimits: config.extractLimits,
    curseforgeKey: config.curseforgeKey,
    outbound: { trusted: new Set(Object.values(config.sources).map((url) => new URL(url).origin)), own, internal: config.internalDownloads ?? false },
    docker: getDocker,
    stopTimeoutMs: options.stopTimeoutMs ?? STOP_TIMEOUT_MS,
    // The mods' changes are made further down (they need the backups, which need the manager).
    lastAddonChange: (id) => mods?.lastChange(id) ?? null,
    log,
  });
  const reporter = options.reportEvent ? null : new PanelReporter(config.panelUrl, nodeCredentials(config), log);
  const reportEvent = options.reportEvent ?? reporter!.report;
  watchLifecycle(manager, reportEvent);
  // The SFTP port is taken before any server starts, so a port clash stops nothing half-way.
  // A server's process may have taken the node's ports while the node was down (net/own-ports).
  for (const port of [config.sftpPort, config.port]) await reclaimOwnPort(port, isolationSettings.uidRange, log);
  const sftp = await startSftp(config, manager, options.checkLogin ?? panelLoginCheck(config.panelUrl, nodeCredentials(config), log), log, reportEvent);
  // No server publishes the node's own ports (daemon/environment/network/node-network), known
  // before any server starts (an API port the config leaves to the system once it listens, below).
  for (const port of [config.port, sftp.server.port]) if (port) network.nodePorts.add(port);
  // A restore the node stopped half-way is undone before any server loads its folder.
  await recoverRestores(manager.store.root, log);
  await manager.boot();
  // The PATH the node was started with: where restic (and ssh, for SFTP targets) are looked for.
  const path = process.env.PATH ?? "/usr/bin:/bin";
  const targets = new BackupTargets(config.dataDir, () => findRestic({ binariesDir, source: config.sources.restic, path, log }), log, path, own);
  const backups = new BackupService(manager, targets, log, reportEvent);
  const scheduler = new TaskScheduler({ dataDir: config.dataDir, manager, clock: options.clock ?? systemClock, check: options.checkTask ?? panelTaskCheck(config.panelUrl, nodeCredentials(config)), log, backup: async (id, by, signal, how) => void (await (await backups.forTask(id, by, how, signal)).finished), reportEvent });
  manager.onRemove((id) => scheduler.removeServer(id));
  manager.onRemove((id) => backups.forgetServer(id));
  const installed = new InstalledFiles();
  mods = new ModChanges({
    manager,
    installed,
    backup: async (id, by, note) => (await (await backups.beforeChange(id, by, note)).finished).shortId,
    restore: async (id, backup) => (await backups.restore(id, backup)).finished,
    fileOrigins: [config.sources.modrinthCdn, config.sources.curseforgeCdn, config.sources.hangarCdn, config.sources.spigetCdn].map((url) => new URL(url).origin),
    packFileOrigins: [config.sources.modrinthCdn, config.sources.github, config.sources.githubRaw, config.sources.githubReleaseAssets, config.sources.githubObjects, config.sources.gitlab].map((url) => new URL(url).origin),
    journalRoot: join(config.dataDir, "mod-changes"),
    extractLimits: config.extractLimits,
    uploads: new PackUploads(join(config.dataDir, "mod-uploads")),
    packs: new InstalledPacks(join(config.dataDir, "mod-packs")),
    origins: new AddonOrigins(join(config.dataDir, "mod-origins")),
    log,
  });
  manager.onRemove((id) => mods.forgetServer(id));
  scheduler.boot();
  const channel = new Channel(manager);
  const transfer = createTransfers(manager, { log });
  const app = createDaemonApp({ sftp: sftp.server, credentials: nodeCredentials(config), manager, scheduler, channel, dockerAvailable: () => engineAnswers(config.dockerSocket), extractLimits: config.extractLimits, isolation, limits: limiter.mechanism, backups: { service: backups, targets }, mods: { changes: mods }, dataDir: config.dataDir, transfer, uploadPace: options.uploadPace });
  // Uploads stream to disk, so the request size is not limited here (small JSON bodies are, in the app).
  const answer = wholeHeadAnswers(app.fetch);
  // Never Bun's development answer to an error that leaves the app, a page of its stack and paths (server/serve.ts).
  const server = Bun.serve<SocketData>({ hostname: config.host, port: config.port, development: false, fetch: answer, websocket: channel.handlers, idleTimeout: 0, maxRequestBodySize: Number.MAX_SAFE_INTEGER });
  own.ports.push(server.port!, sftp.server.port);
  network.nodePorts.add(server.port!);
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host;
  return {
    url: `http://${host}:${server.port}`,
    port: server.port!,
    sftpPort: sftp.server.port,
    sftpFingerprint: sftp.fingerprint,
    manager,
    scheduler,
    isolation,
    limiter,
    network,
    backups,
    handle: (request) => answer(request),
    connectLive: (serverId, peer) => channel.connect(serverId, peer),
    async stop() {
      scheduler.stop();
      await sftp.server.stop();
      await server.stop(true);
      await manager.shutdown();
      // What the shutdown itself caused (servers stopping) is told if the panel is still there.
      await reporter?.flush();
      reporter?.stop();
      await network.close();
    },
  };
}

/** The SFTP server on sftpHost (else host), with the host key kept in the data folder. */
async function startSftp(config: DaemonConfig, manager: ServerManager, checkLogin: LoginCheck, log: (line: string) => void, reportEvent: ReportEvent) {
  const hostKey = loadOrCreateHostKey(config.dataDir);
  const host = config.sftpHost ?? config.host;
  try {
    const server = await startSftpServer({ host, port: config.sftpPort, hostKey: hostKey.key, manager, checkLogin, log, limits: config.sftpLimits, reportEvent });
    return { server, fingerprint: hostKey.fingerprint };
  } catch (error) {
    if ((error as { code?: string }).code === "EADDRINUSE") throw new Error(`the SFTP port ${config.sftpPort} on ${host} is already in use`);
    throw error;
  }
}

/** The port a URL leads to (its scheme's default when it names none). */
function portOf(url: string): number {
  const parsed = new URL(url);
  return Number(parsed.port || (parsed.protocol === "https:" ? 443 : 80));
}
