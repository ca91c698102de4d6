// Runs restic against one repository. Credentials reach restic only through its environment
// (RESTIC_PASSWORD_FILE, AWS_*) and files only the node may read, never through argv, which any
// process on the host can list. A failure is ErrBackupFailed with a fixed reason chosen by what
// restic said (./restic-failure: restic's words name the target's URL, host and resolver, which a
// server's users may not learn); the whole of what it said goes to the node's log.
//
// A backup of a server's folder (backupFolder) runs restic in a view of its own (./backup-view)
// with the repository's password in its environment, and is watched (./progress-watch): one that
// gets nowhere is ended. restic is ended with SIGINT, on which it removes its lock from the
// repository (on SIGTERM restic 0.14 leaves it, and the next forget finds the repository locked);
// one that does not end then is killed, and its lock removed by `restic unlock` (stale locks only).
import { closeSync, readFileSync } from "node:fs";
import type { Subprocess } from "bun";
import { KilnError } from "../../core/errors";
import { failureReason } from "./restic-failure";
import { checkView, relayCommand, viewArgs } from "./backup-view";
import { ProgressWatch, type StallLimits } from "./progress-watch";

export interface RepositoryAccess {
  /** The restic executable. */
  bin: string;
  /** RESTIC_REPOSITORY, RESTIC_PASSWORD_FILE, RESTIC_CACHE_DIR and the target's own variables. */
  env: Record<string, string>;
  /** Options every command gets (the sftp backend's ssh command: key and known-hosts files, no secret). */
  options: string[];
  log: (line: string) => void;
  /** What a backup's restic needs in its view (./backup-view); without it, backups run without one. */
  view?: RepositoryView;
}

export interface RepositoryView {
  /** Folders restic writes: the own-disk repository, the cache, its scratch folder (TMPDIR). */
  writable: string[];
  /** Files restic reads: an S3 target's CA certificate. */
  readable: string[];
  /** restic reaches the target itself (S3). */
  network: boolean;
  /** An SFTP target: the ssh command, run outside the view and relayed to restic. */
  ssh?: string[];
  /** restic's temporary files, and where the view is tried out. */
  scratch: string;
  /** Never shown (the node's data folder), should a system folder hold it. */
  hidden: string[];
}

export interface RunOptions {
  cwd?: string;
  /** Each JSON line restic prints on stdout (`--json` progress and summary). */
  onJson?: (message: Record<string, unknown>) => void;
  signal?: AbortSignal;
  /** What restic reads on stdin. */
  input?: string;
}

export interface FolderBackup {
  /** The server's folder: restic's working folder, backed up as ".". */
  folder: string;
  /** Files the arguments name that restic must read (the exclude file). */
  readable: string[];
  onJson?: (message: Record<string, unknown>) => void;
  signal?: AbortSignal;
  /** When a backup that gets nowhere is ended. */
  stall: StallLimits;
}

/** How long restic gets to end (and remove its lock) after SIGINT before it is killed. */
const END_GRACE_MS = 10_000;

/** A run under way: the process spawned (bubblewrap, for a backup in its view) and restic's own pid. */
interface Started {
  proc: Subprocess<"ignore" | Uint8Array, "pipe", "pipe">;
  /** restic's pid, once known. */
  pid(): number | null;
  /** Whether `proc` is bubblewrap (restic its child), not restic. */
  wrapped?: boolean;
}

export class Restic {
  /** Said once per node: backups run without their view here. */
  private static toldNoView = false;

  constructor(private readonly access: RepositoryAccess) {}

  /** Starts restic with `args`; the caller reads stdout. `input` is its stdin (`backup --stdin`). */
  spawn(args: string[], cwd?: string, input?: string) {
    return Bun.spawn([this.access.bin, ...this.access.options, ...args], { cwd, env: this.access.env, stdin: input === undefined ? "ignore" : new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  }

  /** Runs restic to its end; resolves with stdout's text, or throws ErrBackupFailed. */
  async run(args: string[], options: RunOptions = {}): Promise<string> {
    const proc = this.spawn(args, options.cwd, options.input);
    return this.follow({ proc, pid: () => proc.pid }, args[0] ?? "", options);
  }

  /**
   * `restic backup <args>` of a server's folder: in restic's view when the node can build one
   * (else as run does, said once in the node's log), ended when it gets nowhere (ErrBackupFailed
   * saying so, after restic removed its lock).
   */
  async backupFolder(args: string[], backup: FolderBackup): Promise<string> {
    const view = this.access.view;
    const check = view ? await checkView(this.access.bin, view.scratch) : { bwrap: null, problem: "no view is set for this repository" };
    if (!check.bwrap || !view) {
      if (!Restic.toldNoView) this.access.log(`kiln daemon: backups read servers' folders without a view of their own: ${check.problem}; what they hand back is still judged by owner (docs/backups.md)`);
      Restic.toldNoView = true;
      const proc = Bun.spawn([this.access.bin, ...this.access.options, "backup", ...args], { cwd: backup.folder, env: this.access.env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
      return this.follow({ proc, pid: () => proc.pid }, "backup", backup);
    }
    const needs = { bin: this.access.bin, folder: backup.folder, readable: [...view.readable, ...backup.readable], writable: view.writable, network: view.network, relay: view.ssh !== undefined, hidden: view.hidden };
    const options = view.ssh ? ["-o", csvField(`sftp.command=${relayCommand().map(quote).join(" ")}`)] : this.access.options;
    const { RESTIC_PASSWORD_FILE: passwordFile, ...env } = this.access.env;
    // The password comes in the environment (no /proc in the view): no file of the node's is there.
    if (passwordFile) env.RESTIC_PASSWORD = goTrimSpace(readFileSync(passwordFile, "utf8"));
    env.TMPDIR = view.scratch;
    const argv = [...viewArgs(check.bwrap, needs), this.access.bin, ...options, "backup", ...args];
    const proc = Bun.spawn(argv, { cwd: backup.folder, env, stdio: view.ssh ? ["ignore", "pipe", "pipe", "pipe"] : ["ignore", "pipe", "pipe"] }) as Started["proc"];
    let ssh: Subprocess | null = null;
    if (view.ssh) {
      // ssh runs here, outside the view, with its key; restic's relay reaches it through fd 3.
      const socket = proc.stdio[3] as unknown as number;
      try {
        const sshEnv = { PATH: this.access.env.PATH ?? "/usr/bin:/bin", HOME: this.access.env.HOME ?? "/" };
        const [program = "ssh", ...rest] = view.ssh;
        ssh = Bun.spawn([Bun.which(program, { PATH: sshEnv.PATH }) ?? program, ...rest], { env: sshEnv, stdin: socket, stdout: socket, stderr: "pipe" });
        const said = ssh.stderr as ReadableStream<Uint8Array>;
        void new Response(said).text().then((text) => text.trim() && this.access.log(`kiln daemon: ssh of a backup said: ${text.trim()}`));
      } finally {
        closeSync(socket);
      }
    }
    let child: number | null = null;
    const pid = () => (child ??= childOf(proc.pid));
    try {
      return await this.follow({ proc, pid, wrapped: true }, "backup", backup);
    } finally {
      ssh?.kill("SIGTERM");
    }
  }

  /**
   * Reads a started run to its end: stdout (JSON lines to `onJson`), stderr for the failure; an
   * abort, or with `stall` a run that gets nowhere, ends restic (endRun).
   */
  private async follow(started: Started, command: string, options: RunOptions & { stall?: StallLimits }): Promise<string> {
    const { proc, pid } = started;
    let stalled = 0;
    let ending: Promise<void> | null = null;
    const end = () => void (ending ??= this.endRun(started));
    options.signal?.addEventListener("abort", end, { once: true });
    const watch = options.stall
      ? new ProgressWatch(options.stall, pid, (idleMs) => {
          stalled = idleMs;
          this.access.log(`kiln daemon: a backup made no progress for ${Math.round(idleMs / 1000)} s (restic waits on something in the server's folder, a named pipe say): ended`);
          end();
        })
      : null;
    const stderr = readText(proc.stderr, (bytes) => watch?.output(bytes), true);
    let out = "";
    try {
      out = await readLines(proc.stdout, options.onJson || watch ? (json) => (watch?.status(json), options.onJson?.(json)) : undefined, (bytes) => watch?.output(bytes));
      const code = await proc.exited;
      if (ending) await ending;
      if (stalled) throw new KilnError("ErrBackupFailed", { reason: `restic made no progress for ${Math.round(stalled / 1000)} s: something in the server's folder cannot be read (a named pipe, say)` });
      if (code !== 0) this.failed(command, code, await stderr);
    } finally {
      watch?.stop();
      options.signal?.removeEventListener("abort", end);
    }
    return out;
  }

  /** Ends a run: SIGINT to restic (it removes its lock), then, if it is still there, a kill and `restic unlock`. */
  private async endRun({ proc, pid, wrapped }: Started): Promise<void> {
    // bubblewrap starts restic at once; a signal to bubblewrap itself would leave restic running.
    for (let waited = 0; wrapped && pid() === null && proc.exitCode === null && waited < 2000; waited += 50) await Bun.sleep(50);
    const target = pid() ?? proc.pid;
    try {
      process.kill(target, "SIGINT");
    } catch {
      // gone already
    }
    const ended = await Promise.race([proc.exited.then(() => true), Bun.sleep(END_GRACE_MS).then(() => false)]);
    if (ended) return;
    for (const one of new Set([target, proc.pid])) {
      try {
        process.kill(one, "SIGKILL");
      } catch {
        // gone already
      }
    }
    await proc.exited;
    this.access.log("kiln daemon: restic did not end on SIGINT and was killed; removing its lock");
    await this.run(["unlock"]).catch(() => undefined);
  }

  /** A run that ended with `code`: logged whole, thrown as ErrBackupFailed with a reason that names no target (./restic-failure). */
  failed(command: string, code: number, stderr: string): never {
    this.access.log(`kiln daemon: restic ${command} failed (exit ${code}): ${stderr.trim()}`);
    throw new KilnError("ErrBackupFailed", { reason: failureReason(command, code, stderr) });
  }

  /** Runs restic and parses its JSON answer. */
  async json<T>(args: string[]): Promise<T> {
    const text = await this.run([...args, "--json"]);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new KilnError("ErrBackupFailed", { reason: "restic answered something that is not JSON" });
    }
  }
}

/** The process bubblewrap started (restic), once it is there; null before. */
function childOf(pid: number): number | null {
  try {
    const first = readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim().split(/\s+/)[0];
    return first ? Number(first) : null;
  } catch {
    return null;
  }
}

/**
 * A stream as text, each chunk's size told as it comes. With `tail`, only its end is kept (the
 * last words are what a failure says, and a backup's stderr may hold an error per file).
 */
async function readText(stream: ReadableStream<Uint8Array>, seen: (bytes: number) => void, tail = false): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  for await (const chunk of stream) {
    seen(chunk.byteLength);
    text += decoder.decode(chunk, { stream: true });
    if (tail && text.length > 1 << 20) text = text.slice(-(1 << 19));
  }
  return text + decoder.decode();
}

/** stdout as text; with `onJson`, each line that is JSON is handed over as it comes (and not kept). */
async function readLines(stream: ReadableStream<Uint8Array>, onJson?: RunOptions["onJson"], seen: (bytes: number) => void = () => undefined): Promise<string> {
  if (!onJson) return readText(stream, seen);
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
    seen(chunk.byteLength);
    pending += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = pending.indexOf("\n")) >= 0) {
      const line = pending.slice(0, end).trim();
      pending = pending.slice(end + 1);
      if (line.startsWith("{")) {
        try {
          onJson(JSON.parse(line));
        } catch {
          // a line restic cut short: progress only
        }
      }
    }
  }
  // restic's last line (the summary) may come without a line break.
  if (pending.trim().startsWith("{")) {
    try {
      onJson(JSON.parse(pending));
    } catch {
      // not a whole message
    }
  }
  return pending;
}

/** Go's strings.TrimSpace, as restic reads a password file: the same password from the environment. */
function goTrimSpace(text: string): string {
  return text.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, "");
}

/** An option's value as restic's -o reads it (a CSV field: quoted when it holds a quote, a comma or a line break). */
function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** A word for restic's command splitter: quoted when it holds a space. */
export function quote(word: string): string {
  return /[\s"']/.test(word) ? `"${word.replace(/(["\\])/g, "\\$1")}"` : word;
}
