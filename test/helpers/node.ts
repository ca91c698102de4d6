// A real node for tests: the daemon's server manager, API and socket on a free loopback port,
// with a temporary data folder and a fresh secret. Servers it runs are real processes.
import type { NodeEvent } from "../../daemon/events/reporter";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { DEFAULT_DOCKER_SOCKET, DEFAULT_SOURCES, type DaemonConfig, type SourceUrls } from "../../daemon/config";
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from "../../daemon/files/extract-limits";
import { startNode, type RunningNode } from "../../daemon/node";
import { DEFAULT_ISOLATION, type IsolationSettings } from "../../daemon/environment/sandbox";
import type { TemplateInput } from "../../core/definition";
import type { LiveMessage } from "../../core/live";
import type { Clock } from "../../daemon/tasks/clock";
import type { TaskCheck } from "../../daemon/tasks/scheduler";
import { tempDir } from "./process";
import { nodeCaller } from "./node-caller";
import type { UploadPace } from "../../daemon/http/paced-body";

export interface TestNode {
  node: RunningNode;
  config: DaemonConfig;
  /** What the node reported for its panel (lifecycle, SFTP changes, backups), unless it reports to a real one. */
  events: NodeEvent[];
  /** Calls the daemon API with a valid token; `body` objects are sent as JSON, strings as text. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  json<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  /** The authorization header of a fresh node token for one call made by hand: its method and full URL. */
  nodeHeaders(method: string, url: string): Record<string, string>;
  /** fetch with a fresh node token for exactly this request added to its headers. */
  fetch(url: string, init?: RequestInit): Promise<Response>;
  /** Opens the server's socket and collects what arrives. */
  socket(id: string): Promise<TestSocket>;
  /** A path inside a server's folder on this node (the folder itself without `path`). */
  folder(serverId: string, ...path: string[]): string;
  /** Stops this node; `restart` starts another on the same data folder and port. */
  stop(): Promise<void>;
  restart(): Promise<TestNode>;
}

/** What a socket receives: `{type, data}`, or `{error}` (no type) refusing a message it sent. */
export type SocketMessage = Partial<LiveMessage<string, any>> & { error?: any };

export interface TestSocket {
  ws: WebSocket;
  messages: SocketMessage[];
  /** Sends `{type, ...fields}`, the fields beside the type. */
  send(type: string, fields?: Record<string, unknown>): void;
  /** Resolves with the first message (already received or coming) matching `test`. */
  next(test: (m: SocketMessage) => boolean, timeoutMs?: number): Promise<SocketMessage>;
  /** All console text received so far. */
  consoleText(): string;
  close(): void;
}

export interface TestNodeOptions {
  dataDir?: string;
  secret?: string;
  /** The node's id on its panel (config "id"): tokens naming another node are refused. */
  id?: number;
  sources?: Partial<SourceUrls>;
  stopTimeoutMs?: number;
  port?: number;
  dockerSocket?: string;
  /** The node config's extractMaxBytes/extractMaxEntries (the defaults when left out). */
  extractLimits?: ExtractLimits;
  /** The task scheduler's clock and its check of scheduled runs (the panel's, by default at a dead address). */
  clock?: Clock;
  checkTask?: TaskCheck;
  /** How server processes are fenced in; the node's defaults (DEFAULT_ISOLATION) for what is not given. */
  isolation?: Partial<IsolationSettings>;
  /** The node's CurseForge API key (config curseforgeKey), for the curseforge step. */
  curseforgeKey?: string;
  /** How often a running server's folder is measured against its disk space (the config's diskCheckSeconds). */
  diskCheckMs?: number;
  /** How often a running server is asked who plays (the config's querySeconds); the node's 15 s when not given. */
  queryIntervalMs?: number;
  /** The panel the node calls (SFTP logins, task checks, events); a dead address when not given. */
  panelUrl?: string;
  /** Send events to the panel at panelUrl over HTTP, as a real node does; else they are kept in `events`. */
  reportToPanel?: boolean;
  /** The pace request bodies must keep (the node's UPLOAD_PACE when not given). */
  uploadPace?: UploadPace;
}

export async function startTestNode(options: TestNodeOptions = {}): Promise<TestNode> {
  const config: DaemonConfig = {
    host: "127.0.0.1",
    port: options.port ?? 0,
    sftpPort: 0,
    dataDir: options.dataDir ?? tempDir("kiln-node-"),
    panelUrl: options.panelUrl ?? "http://127.0.0.1:1",
    secret: options.secret ?? randomBytes(24).toString("base64url"),
    id: options.id,
    sources: { ...DEFAULT_SOURCES, ...options.sources },
    dockerSocket: options.dockerSocket ?? DEFAULT_DOCKER_SOCKET,
    extractLimits: options.extractLimits ?? DEFAULT_EXTRACT_LIMITS,
    isolation: { ...DEFAULT_ISOLATION, ...options.isolation },
    diskCheckMs: options.diskCheckMs,
    queryIntervalMs: options.queryIntervalMs,
    curseforgeKey: options.curseforgeKey,
  };
  const lines: string[] = [];
  const events: NodeEvent[] = [];
  const reportEvent = options.reportToPanel ? undefined : (event: NodeEvent) => void events.push(event);
  const node = await startNode(config, { log: (line) => lines.push(line), stopTimeoutMs: options.stopTimeoutMs ?? 5000, clock: options.clock, checkTask: options.checkTask, reportEvent, uploadPace: options.uploadPace });
  const { headers, call, json } = nodeCaller(node.url, config.secret);
  const self: TestNode = {
    node,
    config,
    events,
    call,
    json,
    nodeHeaders: headers,
    fetch: (url, init = {}) => {
      const signed = new Headers(init.headers);
      for (const [name, value] of Object.entries(headers(init.method ?? "GET", url))) signed.set(name, value);
      return fetch(url, { ...init, headers: signed });
    },
    async socket(id) {
      const socketUrl = `${node.url.replace("http", "ws")}/daemon/socket/${id}`;
      const ws = new WebSocket(socketUrl, { headers: headers("GET", socketUrl) } as any);
      return openSocket(ws);
    },
    folder: (serverId, ...path) => join(node.manager.store.folder(serverId), ...path),
    stop: () => node.stop(),
    async restart() {
      await node.stop();
      return startTestNode({ ...options, dataDir: config.dataDir, secret: config.secret, port: node.port });
    },
  };
  return self;
}

function openSocket(ws: WebSocket): Promise<TestSocket> {
  const messages: SocketMessage[] = [];
  const waiters: Array<() => void> = [];
  ws.onmessage = (event) => {
    messages.push(JSON.parse(String(event.data)));
    for (const wake of waiters.splice(0)) wake();
  };
  const socket: TestSocket = {
    ws,
    messages,
    send: (type, fields) => ws.send(JSON.stringify({ ...fields, type })),
    async next(test, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = messages.find(test);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching socket message; got ${JSON.stringify(messages).slice(-2000)}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), Bun.sleep(50)]);
      }
    },
    consoleText: () =>
      messages
        .filter((m) => m.type === "console")
        .map((m) => (Array.isArray(m.data.logs) ? m.data.logs.join("") : m.data.logs))
        .join(""),
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(socket);
    ws.onerror = () => reject(new Error("socket failed to open"));
  });
}

/** The echo template: install writes motd.txt, run echoes what it reads. */
export function echoTemplate(overrides: Partial<TemplateInput["run"]> = {}, environment: TemplateInput["environment"] = { type: "standard" }): TemplateInput {
  return {
    name: "echo",
    display: "Echo test",
    type: "other",
    install: [{ type: "writefile", target: "motd.txt", text: "hello ${greeting}" }],
    run: {
      command: "sh -c 'cat motd.txt; echo; echo \"env $GREETING\"; while read l; do echo \"got $l\"; [ \"$l\" = quit ] && exit 0; done'",
      workingDirectory: "",
      stop: "quit",
      pre: [],
      post: [],
      environmentVars: { GREETING: "${greeting}" },
      autostart: false,
      autorestart: false,
      autorecover: false,
      ...overrides,
    },
    data: { greeting: { display: "Greeting", desc: "", type: "string", value: "world", required: true, userEdit: true } },
    environment,
    supportedEnvironments: [{ type: "standard" }, { type: "tty" }, { type: "docker", image: "kiln/generic" }],
    requirements: {},
  };
}

/** Polls until `check` is true (for states that change in the background). */
export async function eventually(check: () => boolean | Promise<boolean>, timeoutMs = 5000, what = "condition"): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(25);
  }
}

/** Writes `content` at `path` in a server's folder through the node's upload route (as a user would). */
export async function uploadFile(node: TestNode, id: string, path: string, content: string): Promise<void> {
  const form = new FormData();
  form.append("file", new Blob([content]), "upload");
  const response = await node.fetch(`${node.node.url}/daemon/server/${id}/file/${path}`, { method: "PUT", body: form });
  if (response.status !== 200) throw new Error(`upload of ${path} answered ${response.status}`);
}
