// The node's own ports (its API and SFTP) taken back from a server's process before the node
// listens. A server that shares the machine's network (a Docker server in network mode host, as
// PufferPanel's Docker templates ask) can bind any free port of the machine, and while the node
// is down (a restart, an upgrade) its ports are free: a server's process holding one would then
// answer the panel as the node (its calls and their tokens) or take SFTP logins and their
// passwords. So at start, a port of the node's held by a process running as a server's user (the
// isolation's uid range) is freed by ending every process of that user, and the node says so; a
// port held by anything else is left to fail the listen with its own message.
import { readdir, readFile } from "node:fs/promises";
import { isPortFree, portHolder } from "./port-holder";

/** How many times a port is freed before the node gives up and lets its listen fail. */
const ATTEMPTS = 10;

export async function reclaimOwnPort(port: number, serverUids: readonly [number, number], log: (line: string) => void): Promise<void> {
  if (port === 0) return;
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    if (await isPortFree(port, "tcp")) return;
    const holder = await portHolder(port, "tcp");
    const uid = holder === null ? null : await uidOf(holder.pid);
    if (uid === null || uid < serverUids[0] || uid > serverUids[1]) return;
    const ended = await endProcessesOf(uid);
    log(`kiln daemon: a server's process (${holder!.name}, pid ${holder!.pid}, user ${uid}) held the node's port ${port}: ended ${ended} process(es) of that server's user`);
    await Bun.sleep(50);
  }
}

async function uidOf(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "utf8").catch(() => "");
  const uid = /^Uid:\s+(\d+)/m.exec(status)?.[1];
  return uid === undefined ? null : Number(uid);
}

/** SIGKILL to every process whose real uid is `uid`; how many there were. */
async function endProcessesOf(uid: number): Promise<number> {
  let ended = 0;
  for (const name of await readdir("/proc").catch(() => [] as string[])) {
    if (!/^\d+$/.test(name)) continue;
    if ((await uidOf(Number(name))) !== uid) continue;
    try {
      process.kill(Number(name), "SIGKILL");
      ended++;
    } catch {
      // Gone already.
    }
  }
  return ended;
}
