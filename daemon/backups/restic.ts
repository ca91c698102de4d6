// Runs restic against one repository. Credentials reach restic only through its environment
// (RESTIC_PASSWORD_FILE, AWS_*) and files only the node may read, never through argv, which any
// process on the host can list. A failure is ErrBackupFailed with restic's last words, cleared of
// host paths; the whole of what it said goes to the node's log.
import { KilnError } from "../../core/errors";
import { withoutHostPaths } from "../http/errors";

export interface RepositoryAccess {
  /** The restic executable. */
  bin: string;
  /** RESTIC_REPOSITORY, RESTIC_PASSWORD_FILE, RESTIC_CACHE_DIR and the target's own variables. */
  env: Record<string, string>;
  /** Options every command gets (the sftp backend's ssh command: key and known-hosts files, no secret). */
  options: string[];
  log: (line: string) => void;
}

export interface RunOptions {
  cwd?: string;
  /** Each JSON line restic prints on stdout (`--json` progress and summary). */
  onJson?: (message: Record<string, unknown>) => void;
  signal?: AbortSignal;
  /** What restic reads on stdin. */
  input?: string;
}

/** What restic said on stderr that a person can read: its last non-empty line. */
function lastWords(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  return withoutHostPaths(lines.at(-1) ?? "restic failed").slice(0, 300);
}

export class Restic {
  constructor(private readonly access: RepositoryAccess) {}

  /** Starts restic with `args`; the caller reads stdout. `input` is its stdin (`backup --stdin`). */
  spawn(args: string[], cwd?: string, input?: string) {
    return Bun.spawn([this.access.bin, ...this.access.options, ...args], { cwd, env: this.access.env, stdin: input === undefined ? "ignore" : new TextEncoder().encode(input), stdout: "pipe", stderr: "pipe" });
  }

  /** Runs restic to its end; resolves with stdout's text, or throws ErrBackupFailed. */
  async run(args: string[], options: RunOptions = {}): Promise<string> {
    const proc = this.spawn(args, options.cwd, options.input);
    const kill = () => proc.kill("SIGTERM");
    options.signal?.addEventListener("abort", kill, { once: true });
    const stderr = new Response(proc.stderr).text();
    let out = "";
    try {
      out = await readLines(proc.stdout, options.onJson);
      const code = await proc.exited;
      if (code !== 0) this.failed(args[0] ?? "", code, await stderr);
    } finally {
      options.signal?.removeEventListener("abort", kill);
    }
    return out;
  }

  /** A run that ended with `code`: logged whole, thrown as ErrBackupFailed with restic's last words. */
  failed(command: string, code: number, stderr: string): never {
    this.access.log(`kiln daemon: restic ${command} failed (exit ${code}): ${stderr.trim()}`);
    throw new KilnError("ErrBackupFailed", { reason: lastWords(stderr) });
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

/** stdout as text; with `onJson`, each line that is JSON is handed over as it comes (and not kept). */
async function readLines(stream: ReadableStream<Uint8Array>, onJson?: RunOptions["onJson"]): Promise<string> {
  if (!onJson) return new Response(stream).text();
  const decoder = new TextDecoder();
  let pending = "";
  for await (const chunk of stream) {
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
