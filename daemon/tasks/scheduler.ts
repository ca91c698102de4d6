// The node's task scheduler: keeps each server's tasks (./store), arms one timer per scheduled
// task for its next time in the node's time zone, and runs tasks at those times or on demand.
// A run still going when its next time comes is not started twice. Times missed while the node
// was down (or asleep) are skipped, not replayed: the next time is always counted from now.
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

/**
 * Whether the user who saved a task may still do everything in it (their rights may have
 * changed since): null when they may, else the reason it must not run.
 */
export type TaskCheck = (serverId: string, task: StoredTask) => Promise<string | null>;

export interface SchedulerDeps {
  dataDir: string;
  manager: ServerManager;
  clock: Clock;
  check: TaskCheck;
  log: (line: string) => void;
  /** Makes a backup of a server (the task operation `backup`); `by` names the task. */
  backup?: RunContext["backup"];
}

/** "server/task", the key of timers and runs. */
type Key = `${string}/${string}`;

export class TaskScheduler {
  private readonly store: TaskStore;
  private readonly timers = new Map<Key, () => void>();
  private readonly runs = new Map<Key, { abort: AbortController; done: Promise<boolean> }>();

  constructor(private readonly deps: SchedulerDeps) {
    this.store = new TaskStore(deps.dataDir);
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
    this.save(serverId, { ...tasks, [id]: task });
    this.arm(serverId, id, task);
    return id;
  }

  update(serverId: string, taskId: string, task: StoredTask): void {
    const tasks = this.list(serverId);
    const old = taskIn(tasks, taskId);
    if (!old) throw notFound(taskId);
    // An edit changes what the task does, not what it did: its last run stays.
    const next = old.lastRun ? { ...task, lastRun: old.lastRun } : task;
    this.save(serverId, { ...tasks, [taskId]: next });
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
    for (const key of [...this.timers.keys(), ...this.runs.keys()]) if (key.startsWith(`${serverId}/`)) this.forget(key);
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
    void this.start(key, serverId, task, "scheduled", true);
  }

  private start(key: Key, serverId: string, task: StoredTask, how: RunHow, check = false): Promise<boolean> {
    const server = this.deps.manager.get(serverId);
    const abort = new AbortController();
    const at = this.deps.clock.now();
    const done = (async () => {
      // Scheduled runs act for the user who saved the task: their rights are checked now, not only when it was saved.
      if (check && task.owner !== undefined) {
        const refused = await this.deps.check(serverId, task).catch((error: Error) => message("daemon.task.checkFailed", { reason: error.message }));
        if (refused) {
          server.console.daemon(taskLine(task, message("daemon.task.notRun", { reason: typeof refused === "string" ? verbatim(refused) : refused })));
          return false;
        }
      }
      return runTask(server, task, how, { clock: this.deps.clock, signal: abort.signal, backup: this.deps.backup });
    })()
      .then((ok) => {
        this.recordRun(serverId, key.slice(serverId.length + 1), { at, ok, how });
        return ok;
      })
      .finally(() => this.runs.delete(key));
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
