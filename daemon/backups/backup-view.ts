// What restic sees while it reads a server's folder for a backup. It runs as the node (root),
// outside the server's sandbox, and opens every file by its path: a server that swaps a folder of
// its own for a link between restic's look at the folder and its open of a file inside
// (renameat2 RENAME_EXCHANGE in a loop) had restic read whatever the link led to on the host.
// So restic runs in a mount namespace of its own (bubblewrap), in which the host is not there:
//
// - the system's programs and libraries (/usr and the /bin, /lib… links or folders), read-only,
//   as the server's own sandbox shows them, /usr/local and the node's data folder covered by
//   an empty tmpfs should they lie there; a minimal /dev;
// - the server's folder, read-only, at its own path (restic's working folder);
// - what the target needs and nothing else: the own-disk repository's folder, restic's cache
//   and a scratch folder for its temporary files (read-write); the exclude file and an S3
//   target's CA certificate (read-only); for S3 only, the network and the resolver's and the
//   system's certificate files from /etc. An SFTP target's ssh runs outside (./restic), with its
//   key, and reaches restic through a socket (fd 3) that sh and cat relay inside;
// - no /proc, no /etc otherwise, no credential file: the repository's password and an S3 key
//   come in restic's environment.
//
// A link the server swaps in therefore leads nowhere restic could read something that is not the
// server's own or the repository's own (encrypted) data. As root, restic keeps one capability,
// CAP_DAC_READ_SEARCH (to read the server's files), and no other. Whatever lands in a snapshot
// is still judged before it is handed back (./handed-back): this is the second fence, not the only one.
import { existsSync, lstatSync, mkdtempSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { join } from "node:path";
import { systemProgram } from "../environment/sandbox";
import { isHostFolder, isWithin } from "../environment/host-paths";

export interface ViewNeeds {
  /** The restic executable. */
  bin: string;
  /** The server's folder: shown read-only at its own path, restic's working folder. */
  folder: string;
  /** Files restic reads (the exclude file, a CA certificate): shown read-only at their paths. */
  readable: string[];
  /** Folders restic writes (the own-disk repository, its cache, its scratch folder). */
  writable: string[];
  /** Whether restic reaches the target over the network itself (S3). */
  network: boolean;
  /** Whether sh and cat relay an SFTP connection made outside (fd 3). */
  relay: boolean;
  /** Folders never shown, even where a system folder holds them (the node's data folder). */
  hidden: string[];
}

/** Shown read-only when they exist; a link (a merged /usr) is made again as the same link. */
const SYSTEM_FOLDERS = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32"];
/** Covered when shown: the administrator's own programs and files, not the system's. */
const LOCAL_FOLDERS = ["/usr/local"];
/** What a restic that talks to S3 itself reads of /etc: the resolver's files and the system's certificates. */
const NETWORK_FILES = ["/etc/resolv.conf", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf", "/etc/gai.conf", "/etc/ssl/certs", "/etc/ssl/cert.pem", "/etc/ssl/ca-bundle.pem", "/etc/pki/tls/certs", "/etc/pki/ca-trust/extracted"];

/**
 * The relay inside, as restic's sftp.command: what restic writes goes to fd 3 (the socket to ssh
 * outside), what comes from there goes back to restic.
 */
export function relayCommand(): string[] {
  const cat = systemProgram("cat");
  return [systemProgram("sh"), "-c", `${cat} <&3 & exec ${cat} >&3`];
}

/** bubblewrap's arguments, up to and with "--", for a restic that reads `needs.folder`. */
export function viewArgs(bwrap: string, needs: ViewNeeds): string[] {
  const args = [bwrap, "--unshare-ipc", "--unshare-cgroup-try"];
  if (!needs.network) args.push("--unshare-net");
  // As root (no user namespace): reading any file of the server's is all restic may do beyond its own.
  if (process.getuid?.() === 0) args.push("--cap-drop", "ALL", "--cap-add", "CAP_DAC_READ_SEARCH");
  const shown = SYSTEM_FOLDERS.filter((folder) => existsSync(folder));
  for (const folder of shown) {
    if (lstatSync(folder).isSymbolicLink()) args.push("--symlink", readlinkSync(folder), folder);
    else args.push("--ro-bind", folder, folder);
  }
  const realShown = shown.filter((folder) => !lstatSync(folder).isSymbolicLink());
  const covered = [...LOCAL_FOLDERS, ...needs.hidden].filter((path) => realShown.some((folder) => isWithin(path, folder)) && isHostFolder(path));
  for (const path of covered) args.push("--tmpfs", path);
  args.push("--dev", "/dev");
  if (needs.network) for (const path of NETWORK_FILES.filter((p) => existsSync(p))) args.push("--ro-bind", path, path);
  // The programs themselves where the system folders shown do not hold them (a covered
  // /usr/local, the node's binaries folder).
  for (const program of needs.relay ? [needs.bin, systemProgram("sh"), systemProgram("cat")] : [needs.bin]) {
    const real = realpathSync(program);
    const seen = (path: string) => realShown.some((folder) => isWithin(path, folder)) && !covered.some((tmpfs) => isWithin(path, tmpfs));
    if (!seen(program) || !seen(real)) args.push("--ro-bind", real, program);
  }
  for (const file of needs.readable) args.push("--ro-bind", file, file);
  for (const folder of needs.writable) args.push("--bind", folder, folder);
  args.push("--ro-bind", needs.folder, needs.folder, "--chdir", needs.folder, "--");
  return args;
}

export type ViewCheck = { bwrap: string; problem: null } | { bwrap: null; problem: string };

const checked = new Map<string, Promise<ViewCheck>>();

/**
 * Whether restic runs in its view on this node: bubblewrap is there and can build one (as root,
 * or with user namespaces), checked once per restic executable by running `restic version` in a
 * view of an empty folder under `scratch`.
 */
export function checkView(bin: string, scratch: string): Promise<ViewCheck> {
  let check = checked.get(bin);
  if (!check) checked.set(bin, (check = probe(bin, scratch)));
  return check;
}

async function probe(bin: string, scratch: string): Promise<ViewCheck> {
  const bwrap = systemProgram("bwrap");
  if (!bwrap.startsWith("/")) return { bwrap: null, problem: "bubblewrap is not installed" };
  const folder = mkdtempSync(join(scratch, "view-probe-"));
  try {
    const argv = [...viewArgs(bwrap, { bin, folder, readable: [], writable: [], network: false, relay: false, hidden: [] }), bin, "version"];
    const proc = Bun.spawn(argv, { cwd: folder, env: { PATH: "/usr/bin:/bin" }, stdin: "ignore", stdout: "ignore", stderr: "pipe" });
    const timer = setTimeout(() => proc.kill("SIGKILL"), 30_000);
    const [code, said] = await Promise.all([proc.exited, new Response(proc.stderr).text()]).finally(() => clearTimeout(timer));
    if (code === 0) return { bwrap, problem: null };
    return { bwrap: null, problem: `bubblewrap cannot build restic's view here (${said.trim().split("\n").pop() || `exit code ${code}`})` };
  } catch (error) {
    return { bwrap: null, problem: `bubblewrap cannot build restic's view here (${(error as Error).message})` };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

