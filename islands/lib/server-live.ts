// One live connection per server and page,
// shared by the islands of the server page: the status dot, the control bar and the console
// hydrate separately but all talk through the one ServerLive of their server id. It wraps the
// reconnecting LiveClient, keeps the status the daemon reports, and, while the socket is not
// open, does the same things over plain HTTP (polling the console and the status meanwhile).
import { isPowerAction } from "../../core/contract/power-actions";
import { useEffect, useState } from "react";
import { ERROR_STATUS, type ErrorBody } from "../../core/errors";
import { CLOSE_SESSION_ENDED, CONSOLE_POLL_MS, isRefusal, type ConsoleData, type LiveMessage, type LiveRefusal, type StatData, type StatusData } from "../../core/live";
import { LiveClient, type LiveState } from "../../core/live/client";
import { KEEP_CHANGED } from "../../core/install";
import type { CrashState } from "../../core/crash/identify";
import { ApiError, api } from "./api";
import { reportError } from "../shell/report-error";
import { SESSION_TIMED_OUT_URL } from "../shell/session-renewal";
import { shellMessages } from "../shell/messages";
import { showToast } from "../shell/toasts";

/** "starting": the process runs but is not ready yet (pre-start steps, or its ready marker not seen). */
export type ServerStatus = "unknown" | "online" | "starting" | "offline";

export interface LiveView {
  /** "unknown" until the first report (and on the server render). */
  status: ServerStatus;
  installing: boolean;
  socket: LiveState;
  /** Reconnecting gave up (ErrSocketFailed): the page shows a warning. */
  failed: boolean;
  /** Why the server last stopped unasked (or its install failed), until its next start; null: none. */
  crash: CrashState | null;
}

export const INITIAL_VIEW: LiveView = { status: "unknown", installing: false, socket: "connecting", failed: false, crash: null };


/** After a power action sent over HTTP the status is polled this often for a while, so a restart's
 * short "not running" moment is seen even without the socket. */
export const FAST_STATUS_POLL_MS = 500;
export const FAST_STATUS_WINDOW_MS = 90_000;

type Handler = (message: LiveMessage<any, any>) => void;

export class ServerLive {
  view: LiveView = INITIAL_VIEW;
  readonly httpBase: string;
  private readonly socketUrl: string;
  private readonly client: LiveClient;
  private readonly listeners = new Set<() => void>();
  private readonly handlers = new Map<string, Set<Handler>>();
  /** Where the console continues from: the epoch of the last console text received. */
  private consoleEpoch: number | undefined;
  /** The node's last `players` message (sent once on connect, then on a change): an island that subscribes later starts from it. */
  lastPlayers: unknown = null;
  private replaying = false;
  private replayAgain = false;
  private statusInFlight = false;
  private pollTimer: ReturnType<typeof setInterval> | null = null;
  private fastTimer: ReturnType<typeof setInterval> | null = null;
  private fastUntil = 0;
  /** A polling streak that keeps failing is reported once, not every few seconds. */
  private pollFailing = false;

  constructor(readonly serverId: string) {
    const id = encodeURIComponent(serverId);
    this.httpBase = `${location.origin}/proxy/daemon/server/${id}`;
    this.socketUrl = `${location.protocol === "https:" ? "wss:" : "ws:"}//${location.host}/proxy/daemon/socket/${id}`;
    this.client = new LiveClient({
      connect: () => new WebSocket(this.socketUrl),
      onMessage: (message) => this.receive(message),
      onState: (state) => this.socketState(state),
      onFailed: (revokedBy) => this.fail(revokedBy),
    });
  }

  get isOpen(): boolean {
    return this.view.socket === "open";
  }

  /** Called on every change of `view`. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    this.updatePolling();
    return () => {
      this.listeners.delete(listener);
      this.updatePolling();
    };
  }

  /** Messages of one type, whether they came over the socket or over HTTP. */
  on(type: "status", handler: (message: LiveMessage<"status", StatusData>) => void): () => void;
  on(type: "stat", handler: (message: LiveMessage<"stat", StatData>) => void): () => void;
  on(type: "console", handler: (message: LiveMessage<"console", ConsoleData>) => void): () => void;
  on(type: "error", handler: (message: LiveMessage<"error", ErrorBody["error"]>) => void): () => void;
  on(type: string, handler: Handler): () => void;
  on(type: string, handler: Handler): () => void {
    const set = this.handlers.get(type) ?? new Set();
    set.add(handler);
    this.handlers.set(type, set);
    this.updatePolling();
    return () => {
      set.delete(handler);
      this.updatePolling();
    };
  }

  /**
   * Sends over the socket when it is open, else does the same over HTTP. Resolves to false when
   * the action failed (the failure has been reported to the user). Actions are never queued for
   * a later socket: a stop or kill must happen now, not whenever a reconnect succeeds.
   */
  async send(type: string, data?: Record<string, unknown>): Promise<boolean> {
    if (type === "replay") {
      const since = Number(data?.since);
      if (Number.isFinite(since)) this.consoleEpoch = since;
      if (this.isOpen) this.client.send("replay", { since: this.consoleEpoch ?? 0 });
      else void this.replayHttp();
      return true;
    }
    if (this.isOpen) {
      this.client.send(type, data);
      return true;
    }
    try {
      if (isPowerAction(type)) {
        // Install's choice to overwrite changed files travels as the node's query (core/install).
        const overwrite = type === "install" && data?.[KEEP_CHANGED] === false ? `&${KEEP_CHANGED}=false` : "";
        await this.request("POST", `/${type}?wait=false${overwrite}`);
        this.pollStatusFast();
      } else if (type === "console") {
        await this.request("POST", "/console", String(data?.command ?? ""));
      } else if (type === "stat") {
        this.dispatch({ type: "stat", data: await this.request<StatData>("GET", "/stats") });
      } else if (type === "status") {
        this.receive({ type: "status", data: await this.request<StatusData>("GET", "/status") });
      } else {
        // No HTTP twin (file actions have their own routes): it goes out when the socket opens.
        this.client.send(type, data);
      }
      return true;
    } catch (error) {
      await reportError(error);
      return false;
    }
  }

  /** Ends the connection (pages never need to; tests do). */
  close(): void {
    this.client.close();
    this.stopPolling();
    this.stopFast();
    if (connections.get(this.serverId) === this) connections.delete(this.serverId);
  }

  private receive(message: LiveMessage<string, any> | LiveRefusal): void {
    if (isRefusal(message)) {
      // A message this page sent was refused: the reason is shown, and the islands that wait
      // for an answer (the restart button) hear of it as "error".
      const status = ERROR_STATUS[message.error.code] ?? 400;
      void reportError(new ApiError(status, message, { method: "WS", url: this.socketUrl }));
      this.dispatch({ type: "error", data: message.error });
      return;
    }
    if (message.type === "status" && message.data) {
      const data = message.data as StatusData;
      // The same crash (its time) keeps its object, so the card does not redraw for every status.
      const crash = data.crash && data.crash.at === this.view.crash?.at ? this.view.crash : (data.crash ?? null);
      this.update({ status: data.starting ? "starting" : data.running ? "online" : "offline", installing: Boolean(data.installing), crash });
    } else if (message.type === "players") {
      this.lastPlayers = message.data ?? null;
    } else if (message.type === "console") {
      // Milliseconds: an HTTP answer's epochMs (its epoch is PufferPanel's seconds), else the socket's epoch.
      const data = message.data as ConsoleData | undefined;
      const epoch = Number(data?.epochMs ?? data?.epoch);
      if (Number.isFinite(epoch)) this.consoleEpoch = epoch;
    }
    this.dispatch(message);
  }

  private dispatch(message: LiveMessage<string, any>): void {
    for (const handler of this.handlers.get(message.type) ?? []) handler(message);
  }

  private update(patch: Partial<LiveView>): void {
    const next = { ...this.view, ...patch };
    if ((Object.keys(patch) as (keyof LiveView)[]).every((key) => next[key] === this.view[key])) return;
    this.view = next;
    for (const listener of this.listeners) listener();
  }

  private socketState(state: LiveState): void {
    this.update({ socket: state });
    if (state === "open") {
      this.stopFast();
      // Whatever was written while the socket was away comes back from where the console stopped.
      if (this.consoleEpoch !== undefined && this.count("console") > 0) this.client.send("replay", { since: this.consoleEpoch });
    }
    this.updatePolling();
  }

  private fail(revokedBy?: number): void {
    // The login ended while the page was open: to the login screen, as any 401 does.
    if (revokedBy === CLOSE_SESSION_ENDED) return location.assign(SESSION_TIMED_OUT_URL);
    this.update({ failed: true });
    void shellMessages().then((t) => showToast(t("errors.ErrSocketFailed")).classList.add("toast-warning"));
  }

  private count(type: string): number {
    return this.handlers.get(type)?.size ?? 0;
  }

  /** Polls over HTTP only while the socket is not open and someone is listening. */
  private updatePolling(): void {
    const wanted = !this.isOpen && (this.listeners.size > 0 || this.count("console") > 0 || this.count("status") > 0);
    if (wanted && !this.pollTimer) this.pollTimer = setInterval(() => this.poll(), CONSOLE_POLL_MS);
    else if (!wanted) this.stopPolling();
  }

  private poll(): void {
    if (this.isOpen) return this.stopPolling();
    if (this.count("console") > 0) void this.replayHttp();
    if (this.listeners.size > 0 || this.count("status") > 0) void this.statusHttp();
  }

  private stopPolling(): void {
    if (this.pollTimer) clearInterval(this.pollTimer);
    this.pollTimer = null;
  }

  private pollStatusFast(): void {
    this.fastUntil = Date.now() + FAST_STATUS_WINDOW_MS;
    this.fastTimer ??= setInterval(() => {
      if (this.isOpen || Date.now() > this.fastUntil) this.stopFast();
      else void this.statusHttp();
    }, FAST_STATUS_POLL_MS);
  }

  private stopFast(): void {
    if (this.fastTimer) clearInterval(this.fastTimer);
    this.fastTimer = null;
  }

  private async statusHttp(): Promise<void> {
    if (this.statusInFlight) return;
    this.statusInFlight = true;
    try {
      const data = await this.request<StatusData>("GET", "/status");
      if (!this.isOpen) this.receive({ type: "status", data });
      this.pollFailing = false;
    } catch (error) {
      await this.reportPollError(error);
    } finally {
      this.statusInFlight = false;
    }
  }

  /** One console replay over HTTP at a time, so two answers never overlap on screen. */
  private async replayHttp(): Promise<void> {
    if (this.consoleEpoch === undefined) return;
    if (this.replaying) {
      this.replayAgain = true;
      return;
    }
    this.replaying = true;
    const since = this.consoleEpoch;
    try {
      const data = await this.request<{ logs: string[]; epoch: number; epochMs: number }>("GET", `/console?time=${since}`);
      // The socket opened meanwhile (it replays by itself), or the console moved on: not ours to show.
      if (!this.isOpen && this.consoleEpoch === since) this.receive({ type: "console", data });
      this.pollFailing = false;
    } catch (error) {
      await this.reportPollError(error);
    } finally {
      this.replaying = false;
      if (this.replayAgain) {
        this.replayAgain = false;
        if (!this.isOpen) void this.replayHttp();
      }
    }
  }

  private async reportPollError(error: unknown): Promise<void> {
    if (this.pollFailing) return;
    this.pollFailing = true;
    await reportError(error);
  }

  private request<T>(method: string, path: string, text?: string): Promise<T> {
    return api<T>(method, this.httpBase + path, text, true);
  }
}

const connections = new Map<string, ServerLive>();

/** The page's connection for one server, opened on first use. */
export function serverLive(serverId: string): ServerLive {
  let live = connections.get(serverId);
  if (!live) {
    live = new ServerLive(serverId);
    connections.set(serverId, live);
  }
  return live;
}

/** The live view for an island; INITIAL_VIEW on the server and until hydrated. */
export function useLiveView(serverId: string): LiveView {
  const [view, setView] = useState(INITIAL_VIEW);
  useEffect(() => {
    const live = serverLive(serverId);
    setView(live.view);
    return live.subscribe(() => setView(live.view));
  }, [serverId]);
  return view;
}
