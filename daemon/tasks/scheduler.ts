// The node's task scheduler: keeps each server's tasks (./store), arms one timer per scheduled
// task for its next time in the node's time zone and its triggers (./triggers), and runs tasks at
// those times, when a trigger fires, or on demand. A run still going when its next time comes is
// not started twice. Times missed while the node was down (or asleep) are skipped, not replayed:
// the next time is always counted from now.
//
// A trigger never makes a task loop on its own output: it does not start the task while a run of
// it is going (the panel's check included), nor within the task's cooldown after a run ended, and
// a console line that arrives within OWN_LINES_MS of a run's end is taken as that run's own.
import type { ReportEvent } from "../events/reporter";
import { randomBytes } from "node:crypto";
import { KilnError } from "../../core/errors";
import { nextRun, parseCron } from "../../core/cron";
import type { ListedTask, StoredTask } from "../../core/tasks";
import type { ServerManager } from "../servers/manager";
import type { Clock } from "./clock";
import { MAX_TIMER_MS } from "./clock";
import { runTask, taskLine, type RunContext, type RunHow } from "./runner";
import { message, verbatim } from "../../core/live/daemon-message";
import { TaskStore, taskIn, type TaskMap } from "./store";
import { assertRoomFor } from "../../core/tasks/room";
import { TriggerWatch, unmetCondition, type FiredTrigger } from "./triggers";
import { DEFAULT_COOLDOWN_SECONDS } from "../../core/tasks/constants";

/** A console line this soon after a run of the task ended is its own output (a server answers a command in that time). */
export const OWN_LINES_MS = 2000;

/**
 * Whether the user who saved a task may still do everything in it (their rights may have
 * changed since): null when they may, else the reason it must not run. The panel finds who saved
 * it by `taskId` (it keeps its own record; the task's `owner` is the node's word).
 */
export type TaskCheck = (serverId: string, task: StoredTask, taskId: string) => Promise<string | null>;

export interface SchedulerDeps {
  dataDir: string;
  manager: ServerManager;
  clock: Clock;
  check: TaskCheck;
  log: (line: string) => void;
  /** Makes a backup of a server (the task operation `backup`); `by` names the task. */
  backup?: RunContext["backup"];
  /** Where a run's end and a webhook step go (the panel's activity log and webhooks). */
  reportEvent?: ReportEvent;
}

/** "server/task", the key of timers and runs. */
type Key = `${string}/${string}`;

export class TaskScheduler {
  private readonly store: TaskStore;
  private readonly timers = new Map<Key, () => void>();
  private readonly runs = new Map<Key, { abort: AbortController; done: Promise<boolean> }>();
  /** When the last run of each task ended (by the clock): its cooldown and own lines count from there. */
  private readonly ended = new Map<Key, number>();
  private readonly triggers: TriggerWatch;

  constructor(private readonly deps: SchedulerDeps) {
    this.store = new TaskStore(deps.dataDir);
    this.triggers = new TriggerWatch({ manager: deps.manager, clock: deps.clock, fire: (serverId, taskId, task, fired) => this.triggered(serverId, taskId, task, fired) });
  }

  /** Arms every scheduled task of every server the manager holds. */
  boot(): void {
    const temporaries = this.store.removeTemporaries();
    if (temporaries.length > 0) this.deps.log(`kiln daemon: removed ${temporaries.length} unfinished task file(s) left by a crash`);
    for (const server of this.deps.manager.list()) {
      let tasks: TaskMap;
      try {
        tasks = this.store.read(server.id);
      } catch (error) {
        this.deps.log(`kiln daemon: the tasks of ${server.id} cannot be read: ${(error as Error).message}`);
        continue;
      }
      for (const [taskId, task] of Object.entries(tasks)) this.arm(server.id, taskId, task);
    }
  }

  list(serverId: string): TaskMap {
    this.deps.manager.get(serverId);
    return this.store.read(serverId);
  }

  /** The tasks as the API answers them: each with when it runs next, by this node's clock. */
  listing(serverId: string): Record<string, ListedTask> {
    const now = new Date(this.deps.clock.now());
    return Object.fromEntries(Object.entries(this.list(serverId)).map(([id, task]) => [id, { ...task, nextRun: task.cronSchedule ? (nextRun(parseCron(task.cronSchedule), now)?.getTime() ?? null) : null }]));
  }

  create(serverId: string, task: StoredTask): string {
    const tasks = this.list(serverId);
    let id: string;
    do id = randomBytes(4).toString("hex");
    while (taskIn(tasks, id));
    const after = { ...tasks, [id]: task };
    assertRoomFor(tasks, after);
    this.save(serverId, after);
    this.arm(serverId, id, task);
    return id;
  }

  update(serverId: string, taskId: string, task: StoredTask): void {
    const tasks = this.list(serverId);
    const old = taskIn(tasks, taskId);
    if (!old) throw notFound(taskId);
    // An edit changes what the task does, not what it did: its last run stays.
    const next = old.lastRun ? { ...task, lastRun: old.lastRun } : task;
    const after = { ...tasks, [taskId]: next };
    assertRoomFor(tasks, after);
    this.save(serverId, after);
    this.arm(serverId, taskId, next);
  }

  /** Removes a task; a run of it still going is cancelled. */
  remove(serverId: string, taskId: string): void {
    const tasks = this.list(serverId);
    if (!taskIn(tasks, taskId)) throw notFound(taskId);
    delete tasks[taskId];
    this.save(serverId, tasks);
    this.forget(`${serverId}/${taskId}`);
  }

  /** A deleted server's tasks go with it. */
  removeServer(serverId: string): void {
    for (const key of [...this.timers.keys(), ...this.runs.keys(), ...this.ended.keys()]) if (key.startsWith(`${serverId}/`)) this.forget(key);
    this.triggers.removeServer(serverId);
    this.store.remove(serverId);
  }

  /**
   * Runs a task now, as asked through the API (the panel has checked the caller's rights).
   * Resolves when the run ends: true when every operation succeeded.
   */
  runNow(serverId: string, taskId: string): Promise<boolean> {
    const task = taskIn(this.list(serverId), taskId);
    if (!task) throw notFound(taskId);
    const key: Key = `${serverId}/${taskId}`;
    if (this.runs.has(key)) throw new KilnError("ErrServerBusy", { task: taskId }, "the task is still running");
    return this.start(key, serverId, task, "manual");
  }

  /** Node shutdown: no more timers; runs still going are cancelled. */
  stop(): void {
    this.triggers.stop();
    for (const key of [...this.timers.keys(), ...this.runs.keys()]) this.forget(key);
  }

  private save(serverId: string, tasks: TaskMap): void {
    this.store.write(serverId, tasks);
  }

  /** Sets the task's timer for its next time after now (none for a manual-only task). */
  private arm(serverId: string, taskId: string, task: StoredTask, after = this.deps.clock.now()): void {
    const key: Key = `${serverId}/${taskId}`;
    this.timers.get(key)?.();
    this.timers.delete(key);
    this.triggers.arm(serverId, taskId, task);
    if (!task.cronSchedule) return;
    const next = nextRun(parseCron(task.cronSchedule), new Date(after));
    if (!next) return;
    const due = next.getTime();
    const wait = (): void => {
      const left = due - this.deps.clock.now();
      // Timers cannot wait longer than MAX_TIMER_MS, and may fire a little early: wait again.
      if (left > 0) {
        this.timers.set(key, this.deps.clock.setTimer(wait, Math.min(left, MAX_TIMER_MS)));
        return;
      }
      this.timers.delete(key);
      this.fire(key, serverId, taskId, due);
    };
    wait();
  }

  private fire(key: Key, serverId: string, taskId: string, due: number): void {
    // Read again: the task may have changed on disk since it was armed (it is re-armed on every change).
    const task = taskIn(this.safeRead(serverId), taskId);
    if (!task) return;
    // The next time counts from now, so a node that woke late runs the task once, not once per missed time.
    this.arm(serverId, taskId, task, Math.max(due, this.deps.clock.now()));
    let server;
    try {
      server = this.deps.manager.get(serverId);
    } catch {
      return;
    }
    if (this.runs.has(key)) {
      server.console.daemon(taskLine(task, message("daemon.task.overlap")));
      return;
    }
    const unmet = unmetCondition(task.conditions, server, this.deps.clock.now());
    if (unmet) {
      server.console.daemon(taskLine(task, message("daemon.task.conditionsNotMet", { reason: unmet })));
      return;
    }
    void this.start(key, serverId, task, "scheduled", true);
  }

  /**
   * A trigger of the task fired. It runs unless a run of it is going, its cooldown since the last
   * run has not passed (or, for a console line, the line is the last run's own), or a condition
   * does not hold: each of those skips this firing quietly (a trigger may fire on every line). The
   * run is checked with the panel as a scheduled one is.
   */
  private triggered(serverId: string, taskId: string, task: StoredTask, fired: FiredTrigger): void {
    const key: Key = `${serverId}/${taskId}`;
    if (this.runs.has(key)) return;
    const now = this.deps.clock.now();
    const ended = this.ended.get(key);
    if (ended !== undefined) {
      const quiet = Math.max((task.cooldownSeconds ?? DEFAULT_COOLDOWN_SECONDS) * 1000, fired.trigger.type === "console" ? OWN_LINES_MS : 0);
      if (now < ended + quiet) return;
    }
    const server = this.deps.manager.find(serverId);
    if (!server || unmetCondition(task.conditions, server, now)) return;
    void this.start(key, serverId, task, "triggered", true, fired).catch(() => undefined);
  }

  private start(key: Key, serverId: string, task: StoredTask, how: RunHow, check = false, trigger?: FiredTrigger): Promise<boolean> {
    const server = this.deps.manager.get(serverId);
    const taskId = key.slice(serverId.length + 1);
    const reportEvent = this.deps.reportEvent;
    // Said as the task's, for the user who saved it: the panel believes that user only where they have access.
    const report = reportEvent && ((event: string, properties: Record<string, unknown>) => reportEvent({ serverId, event, at: this.deps.clock.now(), properties, actor: { type: "task", id: taskId, name: task.name, ...(task.owner !== undefined ? { owner: task.owner } : {}), ...(task.client !== undefined ? { client: task.client } : {}) } }));
    const abort = new AbortController();
    const at = this.deps.clock.now();
    const done = (async () => {
      // Scheduled runs act for the user who saved the task: their rights are checked now, not only when it was saved.
      if (check && task.owner !== undefined) {
        const refused = await this.deps.check(serverId, task, taskId).catch((error: Error) => message("daemon.task.checkFailed", { reason: error.message }));
        if (refused) {
          server.console.daemon(taskLine(task, message("daemon.task.notRun", { reason: typeof refused === "string" ? verbatim(refused) : refused })));
          return false;
        }
      }
      return runTask(server, task, how, { clock: this.deps.clock, signal: abort.signal, backup: this.deps.backup, how, trigger, lines: (s) => this.triggers.lines(s), webhook: report && ((webhook, text) => report("task.webhook", { webhook, text })) });
    })()
      .then((ok) => {
        this.recordRun(serverId, taskId, { at, ok, how });
        // A run a user asked for is recorded by the panel when they asked; the node tells of the others.
        if (how !== "manual") report?.("server.task.run", { task: taskId, name: task.name, how, ok });
        return ok;
      })
      .finally(() => {
        this.runs.delete(key);
        this.ended.set(key, this.deps.clock.now());
      });
    this.runs.set(key, { abort, done });
    return done;
  }

  /** Notes a run on the task as it is on disk now (edited meanwhile, or gone: then nothing). */
  private recordRun(serverId: string, taskId: string, run: StoredTask["lastRun"]): void {
    try {
      const tasks = this.store.read(serverId);
      const task = taskIn(tasks, taskId);
      if (!task) return;
      this.save(serverId, { ...tasks, [taskId]: { ...task, lastRun: run } });
    } catch (error) {
      this.deps.log(`kiln daemon: the last run of task ${taskId} of ${serverId} was not recorded: ${(error as Error).message}`);
    }
  }

  private forget(key: Key): void {
    this.timers.get(key)?.();
    this.timers.delete(key);
    this.runs.get(key)?.abort.abort(new Error("cancelled"));
    this.ended.delete(key);
    const [serverId, taskId] = key.split("/") as [string, string];
    this.triggers.disarm(serverId, taskId);
  }

  private safeRead(serverId: string): TaskMap {
    try {
      return this.store.read(serverId);
    } catch {
      return {};
    }
  }
}

function notFound(taskId: string): KilnError {
  return new KilnError("ErrNotFound", { task: taskId }, `no task ${taskId}`);
}
