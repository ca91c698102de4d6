// A server's lifecycle as events (core/activity's server.started, server.stopped, server.crashed,
// server.installed, server.install.failed), read from its status changes: the activity log, the
// webhooks and the tasks triggered by them all hear of a crash from here, whoever caused it.
import type { ServerManager } from "../servers/manager";
import type { Server } from "../servers/server";
import type { StatusData } from "../../core/live";

export type LifecycleEventName = "server.started" | "server.stopped" | "server.crashed" | "server.installed" | "server.install.failed";

export interface LifecycleEvent {
  serverId: string;
  event: LifecycleEventName;
  at: number;
  properties: Record<string, string>;
}

export type LifecycleListener = (event: LifecycleEvent) => void;

/** Calls `listener` with every lifecycle event of every server the manager holds. */
export function watchLifecycle(manager: ServerManager, listener: LifecycleListener): void {
  manager.onEachServer((server) => watchServer(server, listener));
}

function watchServer(server: Server, listener: LifecycleListener): void {
  let before = server.status();
  const emit = (event: LifecycleEventName, properties: Record<string, string> = {}) => listener({ serverId: server.id, event, at: Date.now(), properties });
  server.onStatus((after: StatusData) => {
    const was = before;
    before = after;
    const ready = after.running && !after.starting;
    if (ready && (!was.running || was.starting)) return emit("server.started");
    if (was.running && !after.running) {
      // A crash is recorded right after the state says stopped, in the same turn: it is read then.
      const stoppedAt = Date.now();
      queueMicrotask(() => {
        const crash = server.status().crash;
        if (crash && crash.phase === "run" && crash.at >= stoppedAt) emit("server.crashed", { cause: crash.cause, phase: crash.phase });
        else emit("server.stopped");
      });
      return;
    }
    if (was.installing && !after.installing) {
      if (server.lastInstallSucceeded()) return emit("server.installed");
      const crash = server.status().crash;
      emit("server.install.failed", crash?.phase === "install" ? { cause: crash.cause } : {});
    }
  });
}
