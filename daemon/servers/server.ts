// One server on this node: its state machine (stopped, starting, booting, running, stopping,
// installing) and its power queue. Power actions (start, stop, restart, install) go through one
// queue so two of them never interleave; kill skips the queue, because it must work when something
// hangs. A start, stop or restart still waiting in the queue is replaced by the next one asked (a
// kill drops it): the last one asked decides how the server ends, and whoever may start the server
// cannot make the owner's stop wait behind a thousand restarts. Its collaborators own the rest:
// which environment the definition gets (./environment-choice), what a start runs and a stop sends
// (./launch-plan), running steps (./step-runner), where console lines go (./console-input), naming
// a crash (./crash-record), keeping the folder's changes through an install (./kept-changes).
import { POWER_ACTION_RULES, type PowerAction } from "../../core/contract/power-actions";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import { reasonMessage } from "../http/errors";
import { checkDefinitionValues, limitBytes, type ResourceLimits, type ServerDefinition, type Step, type Values } from "../../core/definition";
import type { StatusData } from "../../core/live";
import { Jail } from "../files/jail";
import type { ProcessEnvironment, ExitInfo, ProcessStats, EnvironmentDeps } from "../environment";
import type { StepContext } from "../processors/types";
import type { CurseForgeKey, SourceUrls } from "../config";
import { ConsoleBuffer } from "./console-buffer";
import { ConsoleInput } from "./console-input";
import { OutputThrottle } from "./output-throttle";
import { checkRequirements } from "./requirements";
import { CrashGuard } from "./crash-guard";
import type { CrashState } from "../../core/crash/identify";
import { CrashRecord } from "./crash-record";
import type { Isolation } from "../environment/sandbox";
import type { ServerUser } from "../environment/server-user";
import type { HostLimiter } from "../environment/host-limits";
import { exceeded, setQuota } from "../files/quota";
import { DiskWatch } from "./disk-usage";
import { ReadyWatch } from "./ready-watch";
import { FileDenylist } from "../files/denylist";
import { FolderChanges } from "./folder-changes";
import { STAGING_PATTERNS } from "../files/node-staging";
import { message, type DaemonMessage } from "../../core/live/daemon-message";
import type { NodeNetwork } from "../environment/network";
import type { InstallRecord } from "./install-record";
import { installKeepingChanges, recoverKept, type KeptChangesContext } from "./kept-changes";
import { EnvironmentChoice } from "./environment-choice";
import { StepRunner } from "./step-runner";
import { launchPlan, stopPlan } from "./launch-plan";
import { PlayersWatch } from "../query/players-watch";
import { queryPlan } from "../query/query-target";

export interface ServerDeps {
  serverDir: string;
  binariesDir: string;
  sources: SourceUrls;
  docker: EnvironmentDeps["docker"];
  /** How long a stop may take before the process is killed. */
  stopTimeoutMs: number;
  /** What the node can do to fence its servers in (the sandbox), decided when it started. */
  isolation: Isolation;
  /** The server's own user when the node runs as root; null: the node's user. */
  user: ServerUser | null;
  /** How the node holds its servers' processes to their limits, decided when it started. */
  limiter: HostLimiter;
  /** Gives servers on the node itself networks of their own; null where the node cannot (they share its network). */
  network?: NodeNetwork | null;
  /** How often the folder of a running server is measured against its disk space. */
  diskCheckMs: number;
  /** How often a running server is asked who plays (its template's query); absent: never. */
  queryIntervalMs?: number;
  /** Caps on what an extract step may unpack (the node's config). */
  extractLimits?: StepContext["extractLimits"];
  /** Where steps' downloads may lead (daemon/processors/http). */
  outbound?: StepContext["outbound"];
  /** The node's CurseForge API key, for the curseforge step. */
  curseforgeKey?: CurseForgeKey;
  /** Keeps a definition a step changed (a variable it set); the manager writes it to disk. */
  saveDefinition?(definition: ServerDefinition): void;
  /** What the last install left in the folder, for keeping the host's changes through a reinstall. */
  installRecord?: InstallRecord;
  /** The last change to the server's add-ons while it can be undone (daemon/mods), to name it when the next run crashes. */
  lastAddonChange?(serverId: string): { changeId: string; note: string } | null;
}

export interface InstallOptions {
  /** Keep what changed since the last install (the default; core/install KEEP_CHANGED). */
  keepChanged?: boolean;
}

/** A server's stats: its processes' CPU and memory, its folder's size (null: not measured yet) and its limits. */
export interface ServerStats extends ProcessStats {
  disk: number | null;
  limits: ResourceLimits;
  /** Seconds since the server last became running (a re-attached container: since the node saw it), null when it is not running; the console tab's uptime. */
  uptime: number | null;
}

/** "starting": the pre-start steps run; "booting": the process runs, its ready marker not seen yet. */
type State = "stopped" | "starting" | "booting" | "running" | "stopping" | "installing";

export type StatusListener = (status: StatusData) => void;


/** Restart waits this long between the stop and the start. */
export const RESTART_PAUSE_MS = 1000;
/** The longest a kill waits to see the process gone: SIGKILL is not refused, so only a lost exit report takes this long. */
const KILL_WAIT_MS = 10_000;

/**
 * Whether `by`, replacing a waiting `asked`, leaves the server as `asked` would have: the same
 * action, a restart for a start (running either way), a kill for a stop (stopped either way).
 */
const endsAlike = (asked: PowerAction, by: PowerAction): boolean => by === asked || (asked === "start" && by === "restart") || (asked === "stop" && by === "kill");

export class Server {
  readonly console = new ConsoleBuffer();
  readonly jail: Jail;
  /** Changes made on someone's behalf, and the hold a move puts on them and on starts (./folder-changes). */
  readonly changes = new FolderChanges();
  private readonly environments: EnvironmentChoice;
  private readonly steps: StepRunner;
  private state: State = "stopped";
  private runningSince: number | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  /** The start, stop or restart waiting in the queue (not begun), which the next one asked replaces. */
  private waiting: { replaceWith(outcome: Promise<void>, by: PowerAction): void } | null = null;
  /** Kills asked so far: a restart whose stop a kill came during does not start the server again. */
  private kills = 0;
  /** Set while a stop or kill we asked for is in progress, so the exit is not taken for a crash. */
  private stopRequested = false;
  private exitWaiters: Array<() => void> = [];
  private readonly crashes = new CrashGuard();
  /** Restarts and crashes since this node loaded the server, for the panel's metrics (GET /daemon/metrics). */
  private readonly tally = { restarts: 0, crashes: 0 };
  /** Why the server last stopped unasked or its install failed. */
  private readonly crash: CrashRecord;
  private installSucceeded = false;
  private readonly statusListeners = new Set<StatusListener>();
  private readonly decoder = new TextDecoder();
  private readonly throttle: OutputThrottle;
  private deleted = false;
  private readonly disk: DiskWatch;
  private readonly input: ConsoleInput;
  /** While booting: what looks for the ready marker in the process's output. */
  private readyWatch: ReadyWatch | null = null;
  /** Starts waiting for the server to be ready (tasks, ?wait=true): woken when it is, or when it stopped. */
  private readyWaiters: Array<() => void> = [];
  /** Who plays, asked of the game while the server is running and ready (daemon/query). */
  readonly players: PlayersWatch;
  /** A line marked as the daemon's own on the console. */
  private readonly log = (line: DaemonMessage): void => this.console.daemon(line);

  constructor(
    readonly id: string,
    private def: ServerDefinition,
    private readonly deps: ServerDeps,
  ) {
    this.jail = new Jail(deps.serverDir);
    this.jail.owner = deps.user;
    this.disk = new DiskWatch({
      folder: this.jail.root,
      limit: () => limitBytes(this.def.limits, "diskMiB"),
      intervalMs: deps.diskCheckMs,
      running: () => this.isRunning(),
      over: (used, limit) => this.overDiskSpace(used, limit),
    });
    setQuota(this.jail, this.disk.quota);
    this.environments = new EnvironmentChoice({ ...deps, serverId: id, log: this.log }, () => this.def);
    this.crash = new CrashRecord({ console: this.console, jail: this.jail, definition: () => this.def, lastAddonChange: () => deps.lastAddonChange?.(id) ?? null });
    this.input = new ConsoleInput(this.console, () => this.env, this.log);
    this.players = new PlayersWatch({
      intervalMs: deps.queryIntervalMs ?? 0,
      plan: () => queryPlan(this.def, this.values()),
      // A server in a network of its own is reached at its address; else on the node's loopback.
      host: () => this.environments.ownNetwork()?.address ?? "127.0.0.1",
    });
    if (deps.queryIntervalMs) this.onStatus((status) => this.players.follow(status.running && !status.starting && this.state === "running"));
    this.throttle = new OutputThrottle(
      (chunk) => this.output(this.decoder.decode(chunk, { stream: true })),
      (bytes) => this.console.daemon(message("daemon.outputDropped", { count: bytes })),
    );
    this.steps = new StepRunner(
      {
        id,
        jail: this.jail,
        definition: () => this.def,
        keepDefinition: (next) => {
          this.def = next;
          deps.saveDefinition?.(next);
        },
        values: () => this.values(),
        checkedValues: () => this.checkedValues(),
        environment: () => this.env,
        nodeEnvironment: this.environments.host,
        output: this.throttle.write,
        log: this.log,
        denylist: () => this.denylist,
      },
      deps,
    );
  }

  /** The environment the server's processes run in now (made again at a start or install when the definition changed). */
  private get env(): ProcessEnvironment {
    return this.environments.current;
  }

  get definition(): ServerDefinition {
    return this.def;
  }

  private denylistCache: { patterns: readonly string[] | undefined; list: FileDenylist } | null = null;

  /** The files users may not touch through the file manager and SFTP (the template's fileDenylist, then the node's staging), for the definition as it is now. */
  get denylist(): FileDenylist {
    const patterns = this.def.fileDenylist;
    if (!this.denylistCache || this.denylistCache.patterns !== patterns) this.denylistCache = { patterns, list: new FileDenylist([...(patterns ?? []), ...STAGING_PATTERNS]) };
    return this.denylistCache.list;
  }

  /** A new definition takes effect for the environment at the next start. */
  setDefinition(def: ServerDefinition): void {
    this.def = def;
  }

  /**
   * `running` is true from the moment the process runs (booting too): it takes console input and
   * must be stopped, which is what PufferPanel's clients read `running` for. `starting` says it
   * is not ready yet (pre-start steps, or its ready marker not seen): Kiln's panel shows that.
   */
  status(): StatusData {
    const running = this.state === "running" || this.state === "stopping" || this.state === "booting";
    const starting = this.state === "starting" || this.state === "booting";
    // Only said while true, so the answer is PufferPanel's own shape the rest of the time.
    return { running, installing: this.state === "installing", ...(starting ? { starting } : {}), ...(this.crash.current ? { crash: this.crash.current } : {}) };
  }

  isRunning(): boolean {
    return this.status().running;
  }

  onStatus(listener: StatusListener): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  /**
   * One of the power actions by name, whoever asks (HTTP, the socket, a task, autostart): the
   * checks a start needs run before anything is queued, so a restart or an install that could not
   * start the server again leaves it running, and a caller that does not wait hears why. Resolves
   * with the action's own end (`finished`), which rejects as the action does.
   */
  async begin(action: PowerAction, options: InstallOptions = {}): Promise<{ finished: Promise<void> }> {
    const rule = POWER_ACTION_RULES[action];
    if (rule.runsProgram) {
      const held = this.changes.heldBecause();
      if (held) throw held;
      this.checkRequirements();
    }
    if (rule.waitsForReady) await this.checkDiskSpace();
    return { finished: action === "install" ? this.install(options) : this[action]() };
  }

  /** begin, then its end. */
  async power(action: PowerAction, options: InstallOptions = {}): Promise<void> {
    await (await this.begin(action, options)).finished;
  }

  /** Resolves once the server is ready (its marker seen, when it has ready markers) or has stopped again. */
  start(): Promise<void> {
    return this.enqueuePower("start", () => this.doStart()).then(() => this.untilReady());
  }

  stop(): Promise<void> {
    return this.enqueuePower("stop", () => this.doStop());
  }

  restart(): Promise<void> {
    return this.enqueuePower("restart", async () => {
      const kills = this.kills;
      this.tally.restarts++;
      await this.doStop();
      await Bun.sleep(RESTART_PAUSE_MS);
      // A kill during the restart's stop is the later word: the server stays stopped, and the
      // restart's caller (a task's step, ?wait=true) hears that it did not happen.
      if (this.kills !== kills) throw new KilnError("ErrPowerReplaced", { by: "kill" }, "a kill came during the restart");
      await this.doStart();
    }).then(() => this.untilReady());
  }

  /** A running server is stopped first and started again afterwards, whether the install succeeded or not. */
  install(options: InstallOptions = {}): Promise<void> {
    // Counted whole: a move's hold that came while it waited in the queue refuses it before the stop.
    return this.enqueue(() =>
      this.changes.during(async () => {
        const wasRunning = this.isRunning();
        try {
          await this.doInstall(options.keepChanged !== false);
        } finally {
          if (wasRunning && !this.deleted) await this.doStart().catch(() => undefined);
        }
      }),
    );
  }

  /**
   * Runs `work` in the power queue, after everything queued before it (a new server's install), so
   * no start comes between; resolves or rejects as `work` does.
   */
  afterQueued<T>(work: () => Promise<T>): Promise<T> {
    let result: T;
    return this.enqueue(async () => {
      result = await work();
    }).then(() => result);
  }

  /** Whether the last install of this process ran to its end (false before any, and while or after one fails). */
  lastInstallSucceeded(): boolean {
    return this.installSucceeded;
  }

  /** What a reinstall that keeps changes would keep now (the control bar's Install dialog). */
  installChanges() {
    if (!this.deps.installRecord) throw new KilnError("ErrNotFound", { id: this.id });
    return this.deps.installRecord.changes(this.jail, this.def.changedFiles ?? "skip");
  }

  /** A stash an install left when the node stopped half way goes back first (the manager's boot, every install). */
  recoverKeptFiles(): void {
    recoverKept(this.keptChanges());
  }

  /**
   * Runs `work` (a backup restore swapping the folder, a version switch) with the server stopped,
   * in the power queue, so no start comes between; starts the server again afterwards if it was
   * running, whether the work succeeded or not. `work` is handed the install (keeping changed
   * files) to run within: one queued from inside would wait for itself.
   */
  whileStopped(work: (install: () => Promise<void>) => Promise<void>): Promise<void> {
    return this.enqueue(() =>
      this.changes.during(async () => {
        const wasRunning = this.isRunning();
        await this.doStop();
        try {
          await work(() => this.doInstall(true));
        } finally {
          if (wasRunning) await this.doStart().catch(() => undefined);
        }
      }),
    );
  }

  /**
   * Ends the process (and a running install) now, whatever else is queued; resolves once it is gone
   * (its exit seen and its post steps run, as a stop resolves), so kill?wait=true answers a stopped
   * server. An exit the environment never reports (an engine that lost the container) is waited
   * for KILL_WAIT_MS at most.
   */
  async kill(): Promise<void> {
    this.kills++;
    this.waiting?.replaceWith(Promise.resolve(), "kill");
    this.waiting = null;
    this.steps.abort();
    await this.environments.host.kill();
    if (this.state === "stopped") return;
    this.stopRequested = true;
    this.console.daemon(message("daemon.killing"));
    const exited = this.waitForExit();
    await this.env.kill();
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([exited, new Promise<void>((resolve) => (timer = setTimeout(resolve, KILL_WAIT_MS)))]);
    clearTimeout(timer);
  }

  async sendCommand(command: string): Promise<void> {
    if (!this.env.isRunning()) return;
    await this.input.send(command.endsWith("\n") ? command : `${command}\n`);
  }

  async stats(): Promise<ServerStats> {
    const process = this.env.isRunning() ? await this.env.stats() : { cpu: 0, memory: 0 };
    return { ...process, disk: this.disk.used(), limits: this.def.limits ?? {}, uptime: this.isRunning() && this.runningSince !== null ? Math.floor((Date.now() - this.runningSince) / 1000) : null };
  }

  /** Restarts (asked for, or automatic after an exit) and crashes of its process since this node loaded the server. */
  counts(): { restarts: number; crashes: number } {
    return { ...this.tally };
  }

  /**
   * Bytes the folder takes as last measured, without starting a walk as stats() does when the
   * figure is old: the metrics ask every 15 s, and a stopped server's folder is measured after
   * Kiln's own writes and installs, a running one on the clock.
   */
  measuredDisk(): number | null {
    return this.disk.quota.used();
  }

  /**
   * Refuses a start while the folder is over its disk space (ErrDiskQuotaExceeded), measured
   * afresh when the last figure said so: files deleted since (SFTP, the file manager) count.
   */
  async checkDiskSpace(): Promise<void> {
    await this.disk.refresh();
    if (this.disk.quota.isOver()) throw exceeded(this.disk.quota.limitBytes() ?? 0);
  }

  /** A measurement found the folder past its disk space: a running server is stopped, and says why. */
  private overDiskSpace(used: number, limit: number): void {
    if (this.state !== "running" && this.state !== "booting") return;
    const mib = (bytes: number) => Math.ceil(bytes / (1024 * 1024));
    this.console.daemon(message("daemon.diskExceeded", { used: mib(used), limit: mib(limit) }));
    void this.stop().catch(() => undefined);
  }

  /** After a daemon restart: picks a process that is still running (a container) back up. */
  async reattach(): Promise<boolean> {
    const found = await this.env.reattach({ output: this.throttle.write, onExit: (info) => void this.exited(info) }).catch(() => false);
    if (found) {
      this.setState("running");
      this.console.daemon(message("daemon.reattached"));
      // The ports the node's last run published went with its table: published again to the
      // container on its own network (a server sharing the node's network holds them itself).
      if (this.environments.ownNetwork()) {
        try {
          await this.environments.openNetwork(launchPlan({ definition: this.def, values: this.values(), serverId: this.id, jail: this.jail }).ports, null);
        } catch (error) {
          this.console.daemon(message("daemon.portsNotPublished", { reason: reasonMessage(error) }));
        }
      }
    }
    return found;
  }

  /** Stops everything and removes what the environment keeps elsewhere; the manager removes the files. */
  async destroy(): Promise<void> {
    this.deleted = true;
    this.disk.stop();
    this.players.stop();
    await this.kill();
    await this.env.destroy();
    this.deps.limiter.release(this.id);
    await this.deps.network?.forget(this.id);
  }

  private enqueue(action: () => Promise<void>): Promise<void> {
    // Anything else queued behind a waiting power action keeps it: its order with that work stands.
    this.waiting = null;
    const run = this.queue.then(action);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /**
   * Queues a start, stop or restart, replacing the one still waiting (not begun) if there is one:
   * the queue holds at most one of them besides the action under way, however many are asked. The
   * replaced one does nothing when its turn comes. It settles as its replacement does when that one
   * leaves the server as it would have (endsAlike), so its caller (?wait=true, a task's step) hears
   * how the server ended; otherwise it is refused (ErrPowerReplaced): a stop that answered as the
   * start replacing it did told its caller the server had stopped while it ran, and a task went on
   * to the steps it meant for a stopped server.
   */
  private enqueuePower(asked: "start" | "stop" | "restart", action: () => Promise<void>): Promise<void> {
    const previous = this.waiting;
    let replacement: { outcome: Promise<void>; by: PowerAction } | null = null;
    const entry = { replaceWith: (outcome: Promise<void>, by: PowerAction) => void (replacement = { outcome, by }) };
    const run = this.enqueue(async () => {
      if (this.waiting === entry) this.waiting = null;
      if (!replacement) await action();
    });
    // Awaited after its turn, outside the queue: the replacement runs behind it.
    const settled = run.then(() => {
      const by: { outcome: Promise<void>; by: PowerAction } | null = replacement;
      if (by === null) return undefined;
      if (!endsAlike(asked, by.by)) throw new KilnError("ErrPowerReplaced", { by: by.by }, `a ${by.by} asked later took the ${asked}'s place`);
      return by.outcome;
    });
    previous?.replaceWith(settled, asked);
    this.waiting = entry;
    return settled;
  }

  private values(): Values {
    return this.environments.values();
  }

  /**
   * The values for a start, an install or a task, each checked against its variable first
   * (defence in depth: the routes that write values check them too), so a value that would
   * break a command or a file stops the action with the catalogue error naming it.
   */
  private checkedValues(): Values {
    checkDefinitionValues(this.def);
    return this.values();
  }

  /** Requirements are checked before an action is queued too, so a caller that does not wait still hears of them. */
  checkRequirements(): void {
    const local = this.def.environment.type !== "docker";
    checkRequirements(this.def.requirements, { binaries: local, path: `${join(this.deps.binariesDir, "bin")}:${process.env.PATH ?? ""}`, values: this.values() });
  }

  private async doStart(): Promise<void> {
    if (this.deleted) return;
    if (this.state === "running") return;
    this.checkRequirements();
    await this.checkDiskSpace().catch((error: unknown) => {
      this.console.daemon(message("daemon.startFailed", { reason: reasonMessage(error) }));
      throw error;
    });
    this.environments.refresh();
    this.crash.runStarts();
    this.setState("starting");
    this.environments.warnIfUnsandboxed(this.log);
    try {
      await this.steps.runSteps(this.def.run.pre, "preStart");
      // Planned after the pre steps: they may set a variable a condition reads (v3's resolved Forge version).
      const plan = launchPlan({ definition: this.def, values: this.checkedValues(), serverId: this.id, jail: this.jail });
      this.stopRequested = false;
      this.console.daemon(message("daemon.starting"));
      // What the folder held when this node first gave it its user is handed over by the jail's walk.
      if (!this.handedOver) await this.steps.handOver();
      this.handedOver = true;
      const consoleAt = await this.environments.openNetwork(plan.ports, plan.console?.address ?? null);
      await this.env.start({
        argv: plan.argv,
        workingDirectory: plan.workingDirectory,
        env: plan.env,
        output: this.throttle.write,
        onExit: (info) => void this.exited(info),
      });
      if (plan.console) this.input.open(plan.console.type, consoleAt ?? plan.console.address);
      this.boot();
    } catch (error) {
      this.setState("stopped");
      this.console.daemon(message("daemon.startFailed", { reason: reasonMessage(error) }));
      throw error;
    }
  }

  private async doStop(): Promise<void> {
    if (this.state !== "running" && this.state !== "booting") return;
    this.stopRequested = true;
    this.setState("stopping");
    const exited = this.waitForExit();
    const plan = stopPlan(this.def.run, this.values());
    if ("signal" in plan) await this.env.signal(plan.signal);
    else if (!(await this.input.sendStop(plan.command))) await this.env.signal("SIGTERM");
    const timer = setTimeout(() => {
      this.console.daemon(message("daemon.stopTimeout", { seconds: this.deps.stopTimeoutMs / 1000 }));
      void this.env.kill();
    }, this.deps.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  }

  private async doInstall(keepChanged: boolean): Promise<void> {
    if (this.deleted) return;
    await this.doStop();
    this.checkRequirements();
    this.environments.refresh();
    this.crash.installStarts();
    this.installSucceeded = false;
    this.setState("installing");
    this.console.daemon(message("daemon.installing"));
    this.environments.warnIfUnsandboxed(this.log);
    try {
      await installKeepingChanges(this.keptChanges(), keepChanged, () => this.steps.runSteps(this.def.install, "install"));
      this.console.daemon(message("daemon.installFinished"));
      this.installSucceeded = true;
    } catch (error) {
      this.recordCrash("install", null);
      throw error;
    } finally {
      // What the install wrote went past the quota's own count (downloads, scripts): the disk
      // figure is measured again now, not at the next minute's walk (a stopped server has none).
      await this.disk.measure().catch(() => undefined);
      this.setState("stopped");
    }
  }

  private keptChanges(): KeptChangesContext {
    return { record: this.deps.installRecord, jail: this.jail, mode: this.def.changedFiles ?? "skip", log: this.log };
  }

  /** One step of a scheduled task, with the server's variables (and a trigger's, `extra`) substituted; `log` writes the task's lines. */
  runTaskStep(step: Step, log: (line: DaemonMessage) => void, signal: AbortSignal, extra: Values = {}): Promise<void> {
    return this.changes.during(() => this.steps.runTaskStep(step, log, signal, extra));
  }

  /** The process runs: ready now, or once a console line holds one of its ready markers. */
  private boot(): void {
    const markers = this.def.run.readyMarkers ?? [];
    if (markers.length === 0) return this.setState("running");
    this.readyWatch = new ReadyWatch(markers);
    this.setState("booting");
  }

  /** The process's output: to the console, and looked through for the ready marker while booting. */
  private output(text: string): void {
    this.console.write(text);
    this.input.processOutput(text);
    if (this.state !== "booting" || !this.readyWatch?.push(text)) return;
    this.readyWatch = null;
    this.setState("running");
    this.console.daemon(message("daemon.ready"));
  }

  private untilReady(): Promise<void> {
    if (this.state !== "booting") return Promise.resolve();
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  private async exited(info: ExitInfo): Promise<void> {
    this.readyWatch = null;
    this.throttle.finish();
    this.console.endOutput();
    this.input.close();
    const requested = this.stopRequested;
    this.stopRequested = false;
    this.setState("stopped");
    this.console.daemon(this.crash.exitMessage(info));
    // PufferPanel v3's expectedExitCode: the code a clean stop ends with (0 unless the template says).
    const crashed = info.memoryLimit === true || info.signal !== null || info.code !== (this.def.run.expectedExitCode ?? 0);
    // Read before the post steps write to the console and the folder.
    if (crashed && !requested && !this.deleted) {
      this.tally.crashes++;
      this.recordCrash("run", info);
    }
    // Post steps belong to the stop: whoever waits for the exit (stop, restart) waits for them too.
    if (!this.deleted) await this.steps.runSteps(this.def.run.post, "postStop").catch(() => undefined);
    for (const wake of this.exitWaiters.splice(0)) wake();
    if (this.deleted || requested) return;
    if (!crashed && this.def.run.autorestart) {
      this.tally.restarts++;
      this.console.daemon(message("daemon.autorestart"));
      void this.enqueue(() => Bun.sleep(RESTART_PAUSE_MS)).then(() => this.start()).catch(() => undefined);
    } else if (crashed && this.def.run.autorecover) {
      if (this.crashes.allowRestart()) {
        this.tally.restarts++;
        this.console.daemon(message("daemon.autorecover"));
        void this.enqueue(() => Bun.sleep(RESTART_PAUSE_MS)).then(() => this.start()).catch(() => undefined);
      } else {
        this.console.daemon(message("daemon.crashLimit", { count: this.crashes.limit, seconds: this.crashes.windowMs / 1000 }));
      }
    }
  }

  /** Names why the run or install ended (./crash-record) and tells whoever follows the status. */
  private recordCrash(phase: CrashState["phase"], info: ExitInfo | null): void {
    this.crash.record(phase, info);
    const status = this.status();
    for (const listener of this.statusListeners) listener(status);
  }

  private waitForExit(): Promise<void> {
    if (!this.env.isRunning()) return Promise.resolve();
    return new Promise((resolve) => this.exitWaiters.push(resolve));
  }

  private setState(state: State): void {
    const before = this.status();
    if (state === "running" && this.state !== "running" && this.state !== "stopping") this.runningSince = Date.now();
    if (state === "stopped") this.runningSince = null;
    this.state = state;
    if (state !== "booting") for (const wake of this.readyWaiters.splice(0)) wake();
    const after = this.status();
    if (before.running === after.running && before.installing === after.installing && before.starting === after.starting) return;
    for (const listener of this.statusListeners) listener(after);
  }

  /** The server's user, when the node runs as root; the manager gives its uid back on delete. */
  get user(): ServerUser | null {
    return this.environments.user;
  }

  /** Whether this node handed the folder over since it loaded the server (see doStart). */
  private handedOver = false;
}
