// The one place that turns a server's command into the process the node really spawns. With
// bubblewrap the command runs in its own mount, PID, IPC and UTS namespaces (its network namespace
// is the server's own, entered before bubblewrap by nsenter: ./network) and sees only the system folders and the node's shared binaries,
// read-only, and its own server folder, writable; the node's data folder (every other server, the
// definitions, the secret), its config and the panel's database are simply not there, and the
// daemon is not in its PID namespace, so it can neither signal nor trace it. When the node runs as
// root, the command also runs as the server's own uid (setpriv, inside the sandbox: bubblewrap
// needs root, or user namespaces, to build it).
// Its /tmp and /dev/shm are its own: empty tmpfs mounts owned by its uid, sized to its memory
// limit (DEFAULT_TMP_BYTES without one) and, being memory, charged to its memory cgroup; they
// vanish with the sandbox when the server stops.
// Every stage that runs as root before the drop to the server's uid (the limits' cgroup join,
// the network namespace entry, bubblewrap, the chown of /tmp, setpriv) runs with ROOT_STAGE_ENV
// and programs named by absolute path: the server's own variables (LD_LIBRARY_PATH="${rootDir}",
// a PATH into its folder) would otherwise load or run the server's files as root. They reach the
// command after the drop (dropToUser), carried in the environment, never on a command line.
import { existsSync, lstatSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { constants, tmpdir } from "node:os";
import { join, sep } from "node:path";
import { KilnError } from "../../core/errors";
import type { ServerUser } from "./server-user";
import { DEFAULT_NETWORK_RANGE } from "./network/addresses";
import type { NetworkSupport } from "./network/node-network";
import { isHostFolder, isWithin } from "./host-paths";

export type IsolationMode = "auto" | "required";

export interface IsolationSettings {
  /** "required": servers that cannot be sandboxed do not start; "auto": they start with a warning. */
  mode: IsolationMode;
  /** The bubblewrap program (a name looked up in PATH, or a path). */
  bwrapPath: string;
  /** The uids (and gids) servers get when the node runs as root, both ends included. */
  uidRange: [number, number];
  /** More folders the sandbox must hide should they lie under a system folder it shows. */
  hiddenPaths: string[];
  /** The network tools (names looked up in the system folders, or paths) and the servers' address range (an "a.b.0.0/16"). */
  ipPath: string;
  nftPath: string;
  networkRange: string;
}

/**
 * uids systemd and distributions leave alone: above the container range systemd-nspawn uses
 * (524288–1879048191) and the usual /etc/subuid blocks, below 2^31 (signedness trouble).
 */
export const DEFAULT_ISOLATION: IsolationSettings = { mode: "auto", bwrapPath: "bwrap", uidRange: [2_000_000_000, 2_000_099_999], hiddenPaths: [], ipPath: "ip", nftPath: "nft", networkRange: DEFAULT_NETWORK_RANGE };

/** What this node can do, decided once when it starts. */
export interface Isolation {
  mode: IsolationMode;
  /** bubblewrap works here. */
  sandbox: boolean;
  /** Why it does not: bubblewrap is not there, or it cannot build a sandbox here. */
  problem: "missing" | "unusable" | null;
  /** The same in English, for the node's log. */
  reason: string | null;
  /** What bubblewrap said when it could not build a sandbox (for the console's message). */
  detail?: string;
  bwrapPath: string;
  binariesDir: string;
  /** Folders to cover with an empty tmpfs when a system folder the sandbox shows holds them. */
  hidden: string[];
  /** Whether servers get networks of their own (daemon/environment/network); absent: not probed (they share the node's). */
  network?: NetworkSupport;
}

export interface SpawnTarget {
  argv: string[];
  env: Record<string, string>;
  cwd: string;
  /** Set when the command must run as another user and no sandbox switches to it. */
  uid?: number;
  gid?: number;
  /** Processes between the one spawned and the command (bubblewrap and its PID 1), for signals. */
  wrappers: number;
}

export interface ServerBox {
  serverDir: string;
  /** The server's own user; null when the node is not root (processes keep the node's user). */
  user: ServerUser | null;
  /** The size of its /tmp and of its /dev/shm; DEFAULT_TMP_BYTES when not given. */
  tmpBytes?: number;
}

/** Shown read-only (those that exist); a symlink (a merged /usr) is recreated as the same symlink. */
const SYSTEM_FOLDERS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc"];
/** The sandbox's PID 1 (bubblewrap's reaper) and the outer bubblewrap stand above the command. */
const SANDBOX_WRAPPERS = 2;
/** /tmp and /dev/shm of a server without a memory limit (each). */
export const DEFAULT_TMP_BYTES = 256 * 1024 * 1024;

/** Where programs run as root are looked for: system folders only, never the server's PATH. */
export const ROOT_STAGE_ENV: Record<string, string> = { PATH: "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin" };

/** A system program by absolute path (its name when it is not installed: the spawn then says so). */
export function systemProgram(name: string): string {
  return Bun.which(name, { PATH: ROOT_STAGE_ENV.PATH }) ?? name;
}

/** Where the server's variables travel through the root stages, each as "NAME=value": names no program reads. */
export const CARRIED_PREFIX = "KILN_ENV_";

/**
 * Run as the server's user: gathers KILN_ENV_0, KILN_ENV_1… into env -i's arguments and becomes
 * the command with exactly those variables. Each value is expanded inside quotes and never read
 * as shell text. env lives only until it execs the command, so its arguments are seen for an instant.
 */
const TO_SERVER_ENV = String.raw`i=0; while eval "[ -n \"\${KILN_ENV_$i+set}\" ]"; do eval "set -- \"\$KILN_ENV_$i\" \"\$@\""; i=$((i + 1)); done; exec @ENV@ -i "$@"`;

/**
 * The tail that becomes the server's user and then runs `argv` with the server's own `env`:
 * setpriv drops to the uid with no capabilities or new privileges, then the server's variables
 * replace the root stages' environment. They travel in the environment under names no program
 * reads (CARRIED_PREFIX), never on a command line: a process's command line is readable by every
 * local user (/proc/<pid>/cmdline), and bubblewrap, whose command holds this tail, runs as long as
 * the server; its environment is readable by the node alone.
 */
export function dropToUser(user: ServerUser, env: Record<string, string>, argv: string[]): { argv: string[]; env: Record<string, string> } {
  const { uid, gid } = user;
  const carried = Object.fromEntries(Object.entries(env).map(([name, value], i) => [`${CARRIED_PREFIX}${i}`, `${name}=${value}`]));
  const script = TO_SERVER_ENV.replace("@ENV@", systemProgram("env"));
  return {
    argv: [systemProgram("setpriv"), `--reuid=${uid}`, `--regid=${gid}`, "--clear-groups", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--", systemProgram("sh"), "-c", script, "kiln-env", ...argv],
    env: { ...ROOT_STAGE_ENV, ...carried },
  };
}

/**
 * `prefix` (programs that run as root and end in exec) put before a target. A target that would
 * have switched user through the spawn itself switches after the prefix instead, and one that
 * carried the server's variables gets them after that switch only.
 */
export function behindRootStages(target: SpawnTarget, prefix: string[]): SpawnTarget {
  if (prefix.length === 0) return target;
  if (target.uid === undefined) return { ...target, argv: [...prefix, ...target.argv] };
  const user = { uid: target.uid, gid: target.gid ?? target.uid };
  const drop = dropToUser(user, target.env, target.argv);
  return { ...target, argv: [...prefix, ...drop.argv], env: drop.env, uid: undefined, gid: undefined };
}

/**
 * The spawn for `argv`: inside the sandbox when there is one; else, in "auto" mode, as is (as the
 * server's uid when root); in "required" mode not at all (ErrIsolationUnavailable).
 * `terminal`: the process has its own pty as its terminal, so it keeps its session.
 */
export function sandboxed(argv: string[], env: Record<string, string>, cwd: string, box: ServerBox, isolation: Isolation, terminal = false): SpawnTarget {
  if (!isolation.sandbox) {
    if (isolation.mode === "required") throw new KilnError("ErrIsolationUnavailable", undefined, `isolation is required but ${isolation.reason}`);
    return { argv, env, cwd, uid: box.user?.uid, gid: box.user?.gid, wrappers: 0 };
  }
  const shown = SYSTEM_FOLDERS.filter((folder) => existsSync(folder));
  const args = [isolation.bwrapPath.includes("/") ? isolation.bwrapPath : systemProgram(isolation.bwrapPath), "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--die-with-parent"];
  // Its own session, so it cannot push keystrokes into a terminal of the daemon's (TIOCSTI).
  if (!terminal) args.push("--new-session");
  for (const folder of shown) {
    if (lstatSync(folder).isSymbolicLink()) args.push("--symlink", realpathSync(folder).slice(1), folder);
    else args.push("--ro-bind", folder, folder);
  }
  args.push(...resolverArgs(isolation.network?.available === true));
  const size = String(box.tmpBytes ?? DEFAULT_TMP_BYTES);
  args.push("--proc", "/proc", "--dev", "/dev", "--perms", "0700", "--size", size, "--tmpfs", "/tmp", "--perms", "0700", "--size", size, "--tmpfs", "/dev/shm");
  const covered = isolation.hidden.filter((path) => shown.some((folder) => isWithin(path, folder)) && isHostFolder(path));
  for (const path of covered) args.push("--tmpfs", path);
  const bound = existsSync(isolation.binariesDir) ? [isolation.binariesDir, box.serverDir] : [box.serverDir];
  // The folders leading to the bound ones are made here, open to pass through: bubblewrap would
  // copy the real ones' modes, and the node's data folder is closed to other users.
  for (const folder of passage(bound, shown, covered)) args.push("--perms", "0755", "--dir", folder);
  if (bound.length === 2) args.push("--ro-bind", isolation.binariesDir, isolation.binariesDir);
  args.push("--bind", box.serverDir, box.serverDir, "--chdir", cwd, "--");
  if (!box.user) return { argv: [...args, ...argv], env, cwd: box.serverDir, wrappers: SANDBOX_WRAPPERS };
  // Still root in here: /tmp and /dev/shm become the server's, then the drop.
  const own = [systemProgram("sh"), "-c", `${systemProgram("chown")} ${box.user.uid}:${box.user.gid} /tmp /dev/shm && exec "$@"`, "kiln-tmp"];
  const drop = dropToUser(box.user, env, argv);
  return { argv: [...args, ...own, ...drop.argv], env: drop.env, cwd: box.serverDir, wrappers: SANDBOX_WRAPPERS };
}

/** systemd-resolved makes /etc/resolv.conf a link into /run, which the sandbox does not show. */
function resolverArgs(ownNetwork: boolean): string[] {
  try {
    const target = realpathSync("/etc/resolv.conf");
    // A server in a network of its own cannot reach a resolver on the node's loopback (systemd-
    // resolved's 127.0.0.53): it reads the resolver's upstream servers instead, where there is such a list.
    if (ownNetwork && onlyLoopbackResolvers(target) && existsSync(UPSTREAM_RESOLVERS)) return ["--ro-bind", UPSTREAM_RESOLVERS, target];
    return target.startsWith("/etc/") ? [] : ["--ro-bind", target, target];
  } catch {
    return [];
  }
}

/** systemd-resolved's list of the servers it asks. */
const UPSTREAM_RESOLVERS = "/run/systemd/resolve/resolv.conf";

function onlyLoopbackResolvers(file: string): boolean {
  const servers = [...readFileSync(file, "utf8").matchAll(/^\s*nameserver\s+(\S+)/gm)].map((m) => m[1]!);
  return servers.length > 0 && servers.every((server) => server.startsWith("127.") || server === "::1");
}

/**
 * The ancestors of `paths`, top first, that the sandbox must create: not those a system folder
 * shows as they are (unless a tmpfs covers them), nor /tmp and the covering tmpfs themselves.
 */
function passage(paths: string[], shown: string[], covered: string[]): string[] {
  const folders = new Set<string>();
  for (const path of paths) {
    const parts = path.split(sep).filter(Boolean);
    for (let i = 1; i < parts.length; i++) {
      const folder = sep + parts.slice(0, i).join(sep);
      if (folder === "/tmp" || covered.includes(folder)) continue;
      if (shown.some((system) => isWithin(folder, system)) && !covered.some((tmpfs) => isWithin(folder, tmpfs))) continue;
      folders.add(folder);
    }
  }
  return [...folders];
}


/**
 * How a sandboxed process ended: bubblewrap reports a command killed by signal N as exit code
 * 128 + N, which is turned back into the signal.
 */
export function sandboxExit(code: number | null, signal: string | null, wrappers: number): { code: number | null; signal: string | null } {
  if (wrappers === 0 || signal || code === null || code <= 128) return { code, signal };
  const name = Object.entries(constants.signals).find(([, number]) => number === code - 128)?.[0];
  return name ? { code: null, signal: name } : { code, signal };
}

/** Tries bubblewrap once, the way servers will use it, so a node knows at start what it can do. */
export function probeIsolation(settings: IsolationSettings, dataDir: string, binariesDir: string): Isolation {
  // /etc/kiln: where Kiln's config files (and so the node secret) are documented to live.
  const hidden = [dataDir, "/etc/kiln", ...settings.hiddenPaths];
  const base: Isolation = { mode: settings.mode, sandbox: true, problem: null, reason: null, bwrapPath: settings.bwrapPath, binariesDir, hidden };
  const user = process.getuid?.() === 0 ? { uid: settings.uidRange[0], gid: settings.uidRange[0] } : null;
  const folder = mkdtempSync(join(tmpdir(), "kiln-probe-"));
  try {
    const target = sandboxed(["true"], { PATH: "/usr/bin:/bin" }, folder, { serverDir: folder, user }, base);
    const result = Bun.spawnSync(target.argv, { cwd: target.cwd, env: target.env, stdout: "ignore", stderr: "pipe" });
    if (result.exitCode === 0) return base;
    const why = new TextDecoder().decode(result.stderr).trim().split("\n").pop() || `exit code ${result.exitCode}`;
    return { ...base, sandbox: false, problem: "unusable", reason: `bubblewrap cannot build a sandbox here (${why})`, detail: why };
  } catch {
    return { ...base, sandbox: false, problem: "missing", reason: "bubblewrap is not installed" };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** What the node's status answer says of it (the panel's node page warns when it is not sandboxed). */
export function isolationStatus(isolation: Isolation): { mode: IsolationMode; sandboxed: boolean; problem: Isolation["problem"]; network: boolean } {
  return { mode: isolation.mode, sandboxed: isolation.sandbox, problem: isolation.problem, network: isolation.network?.available ?? false };
}
