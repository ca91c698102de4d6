// What the daemon benchmarks share: `kiln daemon` as a real, separate process on a free loopback
// port with a temporary data folder, API calls and sockets signed with its node secret, and the
// daemon's own memory and CPU read from /proc. Linux only (/proc).
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import type { TemplateInput } from "../../core/definition";
import { DAEMON_MARKER } from "../../core/live";
import { nodeCaller } from "../../test/helpers/node-caller";
import { freePort, startKiln, tempDir } from "../../test/helpers/process";
import { descendants, type ProcId } from "../../test/helpers/process-tree";
import { kilnCommand } from "./kiln";
import { median } from "./figures";

export interface Daemon {
  pid: number;
  /** http://127.0.0.1:<port> */
  base: string;
  secret: string;
  dataDir: string;
  /** Calls the daemon API with a fresh node token; objects are sent as JSON, strings as text. */
  call(method: string, path: string, body?: unknown): Promise<Response>;
  /** Like call, but throws on an error status and returns the parsed body. */
  json<T = any>(method: string, path: string, body?: unknown): Promise<T>;
  socket(serverId: string): Promise<ConsoleSocket>;
  /** SIGTERM (the daemon stops the host processes it runs), SIGKILL after `graceMs`, then ends leftovers. */
  stop(graceMs?: number): Promise<{ code: number | null; leftovers: number }>;
}

const live = new Set<Daemon>();
let exitHooked = false;

/** Starts `kiln daemon` (the checkout or KILN_BENCH_EXE, see ./kiln) and waits until it listens. */
export async function startDaemon(): Promise<Daemon> {
  const port = await freePort();
  const secret = randomBytes(24).toString("base64url");
  const dataDir = tempDir("kiln-bench-daemon-");
  const { proc, match } = await startKiln(
    kilnCommand("daemon"),
    { KILN_DAEMON_SECRET: secret, KILN_DAEMON_HOST: "127.0.0.1", KILN_DAEMON_PORT: String(port), KILN_DAEMON_SFTP_PORT: "0", KILN_DAEMON_DATA: dataDir },
    /node listening on (\S+)/,
  );
  const base = match[1]!;
  const { headers, call, json } = nodeCaller(base, secret);
  let stopped: ReturnType<Daemon["stop"]> | null = null;
  const daemon: Daemon = {
    pid: proc.pid,
    base,
    secret,
    dataDir,
    call,
    json,
    socket: (serverId) => {
      const url = `${base.replace(/^http/, "ws")}/daemon/socket/${serverId}`;
      return openConsoleSocket(url, headers("GET", url));
    },
    stop(graceMs = 15_000) {
      stopped ??= (async () => {
        // Host processes run in their own process groups; remember them in case the daemon
        // has to be killed and cannot stop them itself.
        const children = descendants(proc.pid);
        proc.kill("SIGTERM");
        const code = await Promise.race([proc.exited, Bun.sleep(graceMs).then(() => null)]);
        if (code === null) {
          proc.kill("SIGKILL");
          await proc.exited;
        }
        let leftovers = 0;
        for (const child of children) if (killIfSame(child)) leftovers++;
        rmSync(dataDir, { recursive: true, force: true });
        live.delete(daemon);
        return { code, leftovers };
      })();
      return stopped;
    },
  };
  live.add(daemon);
  if (!exitHooked) {
    exitHooked = true;
    // An interrupted benchmark must not leave daemons (and their servers) behind.
    for (const signal of ["SIGINT", "SIGTERM"] as const) {
      process.on(signal, async () => {
        await Promise.all([...live].map((d) => d.stop(3000)));
        process.exit(130);
      });
    }
  }
  return daemon;
}

/** A definition for a server that runs `command` (no install steps). */
export function definition(command: string, environment: TemplateInput["environment"] = { type: "standard" }): TemplateInput {
  return { name: "bench", display: "Bench", type: "other", run: { command }, environment };
}

/** Reads lines and answers "got <line>": quiet until spoken to. */
export const QUIET_COMMAND = `sh -c 'while read l; do echo "got $l"; done'`;

// ---------------------------------------------------------------------------------------------
// Socket client

/** A socket client that counts console output instead of keeping it, so a flood costs it little. */
export interface ConsoleSocket {
  ws: WebSocket;
  /** UTF-8 bytes of console text received. */
  consoleBytes: number;
  consoleMessages: number;
  /** "error" messages the daemon answered with (a refused message, a rate limit). */
  errors: unknown[];
  /** Called for every console message with its text and arrival time (performance.now()). */
  onConsole(listener: (text: string, at: number) => void): () => void;
  /** Resolves with the arrival time (performance.now()) of the console message holding `needle`. */
  waitFor(needle: string, timeoutMs?: number): Promise<number>;
  send(type: string, data?: unknown): void;
  close(): void;
}

export function openConsoleSocket(url: string, headers: Record<string, string>): Promise<ConsoleSocket> {
  const ws = new WebSocket(url, { headers } as any);
  const listeners = new Set<(text: string, at: number) => void>();
  const needles = new Map<string, (at: number) => void>();
  let tail = "";
  const socket: ConsoleSocket = {
    ws,
    consoleBytes: 0,
    consoleMessages: 0,
    errors: [],
    onConsole(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    waitFor(needle, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          needles.delete(needle);
          reject(new Error(`no "${needle}" on the socket within ${timeoutMs} ms`));
        }, timeoutMs);
        needles.set(needle, (at) => {
          clearTimeout(timer);
          resolve(at);
        });
      });
    },
    send: (type, data) => ws.send(JSON.stringify(data === undefined ? { type } : { type, data })),
    close: () => ws.close(),
  };
  ws.onmessage = (event) => {
    const at = performance.now();
    const message = JSON.parse(String(event.data));
    if (message.type === "error") socket.errors.push(message.data);
    if (message.type !== "console") return;
    const logs = message.data?.logs;
    const text: string = Array.isArray(logs) ? logs.join("") : String(logs ?? "");
    socket.consoleBytes += Buffer.byteLength(text);
    socket.consoleMessages++;
    for (const listener of listeners) listener(text, at);
    if (needles.size > 0) {
      // A line may be split across two messages; look at the end of the previous one too.
      const window = tail + text;
      for (const [needle, found] of needles) {
        if (window.includes(needle)) {
          needles.delete(needle);
          found(at);
        }
      }
    }
    tail = text.slice(-256);
  };
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(socket);
    ws.onerror = () => reject(new Error(`socket ${url} failed to open`));
  });
}

/** Whether console text holds the daemon's "output was dropped" (throttle) or "not sent" (slow client) notes. */
export function consoleNotes(text: string): { dropped: number; skipped: number } {
  let dropped = 0;
  let skipped = 0;
  for (const m of text.matchAll(new RegExp(`${escape(DAEMON_MARKER)}(\\d+) bytes of output were (dropped|not sent)`, "g"))) {
    if (m[2] === "dropped") dropped += Number(m[1]);
    else skipped += Number(m[1]);
  }
  return { dropped, skipped };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

// ---------------------------------------------------------------------------------------------
// /proc

/** Resident memory of one process (not its children), in bytes, with its anonymous and file-backed parts. */
export interface RssReading {
  rss: number;
  anon: number;
  file: number;
}

export function readRss(pid: number | number[]): RssReading {
  // Several processes (a panel and its node's own process): their sums, shared pages counted in each.
  const sum: RssReading = { rss: 0, anon: 0, file: 0 };
  for (const one of [pid].flat()) {
    const status = readFileSync(`/proc/${one}/status`, "utf8");
    const kb = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0) * 1024;
    sum.rss += kb("VmRSS");
    sum.anon += kb("RssAnon");
    sum.file += kb("RssFile") + kb("RssShmem");
  }
  return sum;
}

/** After `waitMs` for the process to settle, the median of five readings 200 ms apart. */
export async function settledRss(pid: number | number[], waitMs: number): Promise<RssReading> {
  await Bun.sleep(waitMs);
  const readings: RssReading[] = [];
  for (let i = 0; i < 5; i++) {
    readings.push(readRss(pid));
    await Bun.sleep(200);
  }
  return { rss: median(readings.map((r) => r.rss)), anon: median(readings.map((r) => r.anon)), file: median(readings.map((r) => r.file)) };
}

/** How long "idle" waits after the first request, and how often it is asked meanwhile. */
export const IDLE_AFTER_MS = 15_000;
const IDLE_POLL_MS = 5000;

/**
 * The idle memory of the idle benches: settledRss IDLE_AFTER_MS after the first request, with
 * `poll` called every 5 s meanwhile (a panel asking a node for its state, a page asking for the
 * server list, both more often than they do), so "idle" holds whatever those answers touch,
 * however recently. A failed poll is not the measurement's concern.
 */
export async function idleRss(pid: number | number[], poll: () => Promise<unknown>): Promise<RssReading> {
  const polling = setInterval(() => void poll().catch(() => undefined), IDLE_POLL_MS);
  try {
    return await settledRss(pid, IDLE_AFTER_MS);
  } finally {
    clearInterval(polling);
  }
}

/** Clock ticks per second for /proc/<pid>/stat times. */
export const CLK_TCK = (() => {
  const out = Bun.spawnSync(["getconf", "CLK_TCK"]).stdout.toString().trim();
  return Number(out) > 0 ? Number(out) : 100;
})();

/** CPU time the process itself used (user + system), in seconds. */
export function readCpuSeconds(pid: number): number {
  const fields = statFields(pid);
  // After "pid (comm)": state is field 3, utime 14 and stime 15 (1-based), so 11 and 12 here.
  return (Number(fields[11]) + Number(fields[12])) / CLK_TCK;
}

/** CPU time the whole machine spent busy (all cores, every state but idle and iowait), in seconds. */
export function readMachineBusySeconds(): number {
  const [, ...ticks] = readFileSync("/proc/stat", "utf8").split("\n")[0]!.trim().split(/\s+/);
  const values = ticks.map(Number);
  const total = values.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - values[3]! - values[4]!) / CLK_TCK;
}

/** Samples a process's CPU (percent of one core) and RSS (with its anonymous part) every `intervalMs` until stopped. */
export function sampleProcess(pid: number, intervalMs = 500) {
  const samples: { at: number; cpuPercent: number; rss: number; anon: number }[] = [];
  const startCpu = readCpuSeconds(pid);
  const startAt = performance.now();
  let lastCpu = startCpu;
  let lastAt = startAt;
  const timer = setInterval(() => {
    const cpu = readCpuSeconds(pid);
    const at = performance.now();
    const { rss, anon } = readRss(pid);
    samples.push({ at: at - startAt, cpuPercent: ((cpu - lastCpu) / ((at - lastAt) / 1000)) * 100, rss, anon });
    lastCpu = cpu;
    lastAt = at;
  }, intervalMs);
  return {
    samples,
    /** Stops sampling; the average covers the whole time since the sampler started. */
    stop() {
      clearInterval(timer);
      const seconds = (performance.now() - startAt) / 1000;
      return { averageCpuPercent: ((readCpuSeconds(pid) - startCpu) / seconds) * 100, seconds };
    },
  };
}

function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
}

/** SIGKILLs a process we started, only if that pid still belongs to it (same start time). */
function killIfSame(child: ProcId): boolean {
  try {
    if (!existsSync(`/proc/${child.pid}`)) return false;
    const fields = statFields(child.pid);
    if (fields[19] !== child.start || fields[0] === "Z") return false;
    process.kill(child.pid, "SIGKILL");
    return true;
  } catch {
    return false;
  }
}
