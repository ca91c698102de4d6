// Before a server that shares the node's network starts (a host process, the sandbox, a docker
// container publishing on the host), each port its variables name must be free on this machine:
// a server started onto a port another program holds fails later with a bind error of its own,
// or worse, half works. So each port is bound once on every IPv4 address and let go at once;
// when that fails because the port is in use, the program holding it is found through /proc
// (its socket's inode in /proc/net, then the process with that socket among its descriptors)
// and named, so whoever reads the refusal knows what to stop.
import { createServer } from "node:net";
import { createSocket } from "node:dgram";
import { readFile, readdir, readlink } from "node:fs/promises";
import { KilnError } from "../../core/errors";
import type { ServerPorts } from "../../core/definition/server-ports";

export type PortProtocol = "tcp" | "udp";

export interface PortHolder {
  pid: number;
  /** The program's name as the kernel keeps it (/proc/<pid>/comm, at most 15 characters). */
  name: string;
}

/** How many processes a search looks through at most, so a machine with very many cannot hold a start up. */
const MAX_PIDS = 5000;

/** TCP sockets in LISTEN hold a port against a new listener; connections left in TIME_WAIT do not. */
const TCP_LISTEN = "0A";

/**
 * Throws ErrPortInUse (naming the port, its protocol and the program holding it) at the first
 * port that cannot be bound, or ErrPortInUseUnnamed when nothing this node may look at holds it
 * (another user's process, a /proc the node may not read).
 */
export async function assertPortsFree(ports: ServerPorts): Promise<void> {
  const wanted: Array<[number, PortProtocol]> = [...ports.tcp.map((p) => [p, "tcp"] as [number, PortProtocol]), ...ports.udp.map((p) => [p, "udp"] as [number, PortProtocol])];
  for (const [port, protocol] of wanted) {
    if (await bindable(port, protocol)) continue;
    const holder = await portHolder(port, protocol);
    if (holder) throw new KilnError("ErrPortInUse", { port, protocol, process: `${holder.name} (pid ${holder.pid})` }, `port ${port}/${protocol} is in use on this node by ${holder.name} (pid ${holder.pid})`);
    // The holder may have let go while it was looked for: then the port is free after all.
    if (await bindable(port, protocol)) continue;
    throw new KilnError("ErrPortInUseUnnamed", { port, protocol }, `port ${port}/${protocol} is in use on this node by a program the node cannot identify (another user's, or one hidden from it)`);
  }
}

/**
 * False only when the port is in use. Any other refusal (a port below 1024 for a node that is not
 * root, which docker's proxy may still publish) is for the server's own start to meet.
 */
/** Whether the port can be bound on this machine now (it is let go at once). */
export const isPortFree = (port: number, protocol: PortProtocol): Promise<boolean> => bindable(port, protocol);

async function bindable(port: number, protocol: PortProtocol): Promise<boolean> {
  const code = await (protocol === "tcp" ? tryTcp(port) : tryUdp(port));
  return code !== "EADDRINUSE";
}

function tryTcp(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
    server.listen({ port, host: "0.0.0.0", exclusive: true }, () => server.close(() => resolve(null)));
  });
}

function tryUdp(port: number): Promise<string | null> {
  return new Promise((resolve) => {
    const socket = createSocket("udp4");
    socket.once("error", (error: NodeJS.ErrnoException) => {
      socket.close();
      resolve(error.code ?? "error");
    });
    socket.bind({ port, address: "0.0.0.0", exclusive: true }, () => socket.close(() => resolve(null)));
  });
}

/** The process holding `port` (a TCP listener, or any UDP socket bound to it), or null when none this node may see does. */
export async function portHolder(port: number, protocol: PortProtocol): Promise<PortHolder | null> {
  const inodes = await socketInodes(port, protocol);
  if (inodes.size === 0) return null;
  const pids = (await readdir("/proc").catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)).slice(0, MAX_PIDS);
  for (const pid of pids) {
    if (!(await holdsSocket(pid, inodes))) continue;
    const name = await readFile(`/proc/${pid}/comm`, "utf8").catch(() => null);
    if (name !== null) return { pid: Number(pid), name: printable(name) };
  }
  return null;
}

/** The inodes of the sockets on `port` that /proc/net lists (IPv4 and IPv6 tables). */
async function socketInodes(port: number, protocol: PortProtocol): Promise<Set<string>> {
  const inodes = new Set<string>();
  for (const table of [protocol, `${protocol}6`]) {
    const text = await readFile(`/proc/net/${table}`, "utf8").catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
      const fields = line.trim().split(/\s+/);
      const [local, state, inode] = [fields[1], fields[3], fields[9]];
      if (!local || !inode || inode === "0") continue;
      if (parseInt(local.slice(local.lastIndexOf(":") + 1), 16) !== port) continue;
      if (protocol === "tcp" && state !== TCP_LISTEN) continue;
      inodes.add(inode);
    }
  }
  return inodes;
}

/** True when one of the process's descriptors is one of the sockets; a process the node may not look into holds nothing it can see. */
async function holdsSocket(pid: string, inodes: Set<string>): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) {
    const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => "");
    const match = /^socket:\[(\d+)\]$/.exec(target);
    if (match && inodes.has(match[1]!)) return true;
  }
  return false;
}

/** A process names itself: what it chose is shown as plain text, without control characters. */
function printable(comm: string): string {
  return comm.replace(/[\u0000-\u001f\u007f]/g, "").trim() || "?";
}
