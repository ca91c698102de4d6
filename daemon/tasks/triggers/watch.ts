// The node's armed triggers: for each server, what its tasks' triggers wait for, and only that.
// A server with a console trigger listens to its console's lines (./console-lines); one with a
// resource trigger samples its stats every second while it runs; one with a player trigger follows
// its players query; crash and state triggers hear the lifecycle events every server already has
// (daemon/events/lifecycle). When one matches, the scheduler is told (`fire`) and decides whether
// the task runs (not while it runs, not within its cooldown, only when its conditions hold, and
// only once the panel confirms its author's rights).
import type { Trigger, StoredTask } from "../../../core/tasks";
import { message, type DaemonMessage } from "../../../core/live/daemon-message";
import { watchLifecycle, type LifecycleEvent } from "../../events/lifecycle";
import type { ServerManager } from "../../servers/manager";
import type { Server } from "../../servers/server";
import type { PlayersState } from "../../../core/players/players-state";
import { isPlayersAnswer } from "../../../core/players/players-state";
import type { Clock } from "../clock";
import { ConsoleLines } from "./console-lines";
import { lineMatcher, plainValue, type TriggerValues } from "./line-match";
import { playersChange } from "./players-change";

/** How often a running server with a resource trigger has its stats read. */
export const SAMPLE_MS = 1000;
const MIB = 1024 * 1024;

/** A trigger that matched: which, in words for the console, and the values it gives the steps. */
export interface FiredTrigger {
  trigger: Trigger;
  description: DaemonMessage;
  values: TriggerValues;
}

export interface TriggerWatchDeps {
  manager: ServerManager;
  clock: Clock;
  /** A trigger of `task` (as it was armed: it is armed again on every change) matched. */
  fire(serverId: string, taskId: string, task: StoredTask, fired: FiredTrigger): void;
}

type ResourceTrigger = Extract<Trigger, { type: "resource" }>;
interface Armed {
  task: StoredTask;
  triggers: Trigger[];
  console: Array<{ trigger: Trigger; match: (line: string) => TriggerValues | null }>;
  /** Per resource trigger (by its index): since when it has been above, and whether it fired for this excursion. */
  resources: Array<{ trigger: ResourceTrigger; since: number | null; fired: boolean }>;
}

/** The triggers of one server's tasks and what they listen to. */
class ServerTriggers {
  readonly tasks = new Map<string, Armed>();
  readonly lines: ConsoleLines;
  private stopLines: (() => void) | null = null;
  private stopPlayers: (() => void) | null = null;
  private stopSampling: (() => void) | null = null;
  private sampling = false;
  private players: PlayersState | null = null;

  constructor(
    readonly server: Server,
    private readonly deps: TriggerWatchDeps,
  ) {
    // The line rate is a bound on the node's work, so it counts real seconds, not the scheduler's clock.
    this.lines = new ConsoleLines(server.console);
  }

  /** Listens to what the armed triggers need, and stops listening to what none needs any more. */
  update(): void {
    const all = [...this.tasks.values()];
    const wants = (type: Trigger["type"]) => all.some((armed) => armed.triggers.some((t) => t.type === type));
    if (wants("console") && !this.stopLines) this.stopLines = this.lines.listen((line) => this.line(line));
    if (!wants("console") && this.stopLines) {
      this.stopLines();
      this.stopLines = null;
    }
    if (wants("player") && !this.stopPlayers) {
      this.players = this.server.players.current();
      this.stopPlayers = this.server.players.onChange((next) => this.playersChanged(next));
    }
    if (!wants("player") && this.stopPlayers) {
      this.stopPlayers();
      this.stopPlayers = null;
    }
    if (wants("resource") && !this.stopSampling) this.schedule();
    if (!wants("resource") && this.stopSampling) {
      this.stopSampling();
      this.stopSampling = null;
    }
  }

  close(): void {
    this.tasks.clear();
    this.update();
  }

  lifecycle(event: LifecycleEvent): void {
    for (const [taskId, armed] of this.tasks) {
      for (const trigger of armed.triggers) {
        if (trigger.type === "crash" && event.event === "server.crashed") {
          this.fire(taskId, trigger, message("daemon.task.trigger.crash"), { "trigger.cause": plainValue(event.properties.cause ?? "") });
          break;
        }
        if (trigger.type === "state" && event.event === `server.${trigger.state}`) {
          this.fire(taskId, trigger, message(`daemon.task.trigger.state.${trigger.state}`), { "trigger.state": trigger.state });
          break;
        }
      }
    }
  }

  private fire(taskId: string, trigger: Trigger, description: DaemonMessage, values: TriggerValues): void {
    const armed = this.tasks.get(taskId);
    if (armed) this.deps.fire(this.server.id, taskId, armed.task, { trigger, description, values: { "trigger.type": trigger.type, ...values } });
  }

  /** One line of the server's own output: each task fires on its first console trigger that matches. */
  private line(line: string): void {
    for (const [taskId, armed] of this.tasks) {
      for (const { trigger, match } of armed.console) {
        const values = match(line);
        if (!values) continue;
        this.fire(taskId, trigger, message("daemon.task.trigger.console", { pattern: trigger.type === "console" ? trigger.pattern : "" }), values);
        break;
      }
    }
  }

  private playersChanged(next: PlayersState | null): void {
    const change = playersChange(this.players, next);
    // An unanswered query keeps the last answer as the baseline: a game that missed one answer did not see everyone leave.
    if (isPlayersAnswer(next) || next === null) this.players = next;
    if (!change) return;
    for (const [taskId, armed] of this.tasks) {
      for (const trigger of armed.triggers) {
        if (trigger.type !== "player") continue;
        const side = trigger.on === "join" ? change.joined : change.left;
        if (side.count === 0) continue;
        const names = side.names.map(plainValue);
        this.fire(taskId, trigger, message(`daemon.task.trigger.player.${trigger.on}`), { "trigger.player": names[0] ?? "", "trigger.players": names.join(", "), "trigger.count": String(side.count) });
        break;
      }
    }
  }

  private schedule(): void {
    this.stopSampling = this.deps.clock.setTimer(() => {
      this.stopSampling = null;
      void this.sample().finally(() => {
        // Re-armed only while some resource trigger is still armed (update() may have stopped it meanwhile).
        if (!this.stopSampling && [...this.tasks.values()].some((a) => a.resources.length > 0)) this.schedule();
      });
    }, SAMPLE_MS);
  }

  /** Reads the server's figures once and moves each resource trigger on. Nothing is read from a stopped server. */
  private async sample(): Promise<void> {
    if (this.sampling) return;
    this.sampling = true;
    try {
      const all = [...this.tasks.entries()].filter(([, armed]) => armed.resources.length > 0);
      if (all.length === 0) return;
      if (!this.server.isRunning()) {
        for (const [, armed] of all) for (const state of armed.resources) Object.assign(state, { since: null, fired: false });
        return;
      }
      const stats = await this.server.stats();
      const players = this.server.players.current();
      const figures: Record<ResourceTrigger["metric"], number | null> = {
        cpu: stats.cpu,
        memory: stats.memory / MIB,
        disk: stats.disk === null ? null : stats.disk / MIB,
        players: isPlayersAnswer(players) ? players.online : null,
      };
      const now = this.deps.clock.now();
      for (const [taskId, armed] of all) {
        for (const state of armed.resources) {
          const value = figures[state.trigger.metric];
          if (value === null || value <= state.trigger.above) {
            state.since = null;
            state.fired = false;
            continue;
          }
          state.since ??= now;
          // Once per excursion: it fires again only after the figure has gone back down.
          if (state.fired || now - state.since < state.trigger.forSeconds * 1000) continue;
          state.fired = true;
          const { metric, above, forSeconds } = state.trigger;
          this.fire(taskId, state.trigger, message(`daemon.task.trigger.resource.${metric}`, { above, seconds: forSeconds }), { "trigger.value": String(Math.round(value * 100) / 100) });
        }
      }
    } catch {
      // A figure that could not be read (the process just ended) is tried again at the next sample.
    } finally {
      this.sampling = false;
    }
  }
}

export class TriggerWatch {
  private readonly servers = new Map<string, ServerTriggers>();
  private stopped = false;

  constructor(private readonly deps: TriggerWatchDeps) {
    watchLifecycle(deps.manager, (event) => {
      if (!this.stopped) this.servers.get(event.serverId)?.lifecycle(event);
    });
  }

  /** Arms the task's triggers (none: disarms it), replacing what it had. */
  arm(serverId: string, taskId: string, task: StoredTask): void {
    const triggers = task.triggers ?? [];
    if (triggers.length === 0) return this.disarm(serverId, taskId);
    const server = this.deps.manager.find(serverId);
    if (!server || this.stopped) return;
    const watch = this.forServer(server);
    watch.tasks.set(taskId, {
      task,
      triggers,
      console: triggers.flatMap((trigger) => (trigger.type === "console" ? [{ trigger, match: lineMatcher(trigger) }] : [])),
      resources: triggers.flatMap((trigger) => (trigger.type === "resource" ? [{ trigger, since: null, fired: false }] : [])),
    });
    watch.update();
  }

  disarm(serverId: string, taskId: string): void {
    const watch = this.servers.get(serverId);
    if (!watch || !watch.tasks.delete(taskId)) return;
    watch.update();
  }

  removeServer(serverId: string): void {
    this.servers.get(serverId)?.close();
    this.servers.delete(serverId);
  }

  /** The server's console as lines of its own output (for waitForConsole steps too). */
  lines(server: Server): ConsoleLines {
    return this.forServer(server).lines;
  }

  stop(): void {
    this.stopped = true;
    for (const watch of this.servers.values()) watch.close();
    this.servers.clear();
  }

  private forServer(server: Server): ServerTriggers {
    let watch = this.servers.get(server.id);
    if (!watch || watch.server !== server) {
      watch?.close();
      watch = new ServerTriggers(server, this.deps);
      this.servers.set(server.id, watch);
    }
    return watch;
  }
}
