// The local node in a process of its own (KILN_LOCAL_NODE=process, or "ownProcess" in the config
// file's localNode): the same node, configured as the in-process one (local-node.ts), started as
// `kiln local-node` with an IPC channel. Why: the panel is one event loop, and under a flood of
// page requests a console line waited behind them three times (the node reading the pipe, the
// node's socket frame, the panel's proxy); in its own process the node's two turns no longer
// queue behind the panel's answers (docs/benchmarks.md, "A flood of anonymous pages"). The cost:
// the node's own runtime (about 19 MB more at idle) and uploads and downloads over loopback
// instead of an in-process call. The panel restarts a node that dies, waiting longer after each
// quick death, and stops it (its servers first) when it stops; a panel that dies closes the
// channel, and the node then stops on its own.
import type { Subprocess } from "bun";
import type { KilnConfig } from "./config";
import { localNodeConfig } from "./local-node";
import { thisKiln } from "./kiln-executable";
import type { FromLocalNode, LocalNodeAddress, ToLocalNode, WireNodeConfig } from "./local-node-messages";

export interface LocalNodeProcess extends LocalNodeAddress {
  secret: string;
  pid: number;
  stop(): Promise<void>;
}

/** The waits before a restart: doubled after each death within RESTART_RESET_MS of its start. */
const FIRST_RESTART_MS = 1000;
const LONGEST_RESTART_MS = 30_000;
const RESTART_RESET_MS = 60_000;
/** How long a stopping node may take to stop its servers before it is killed. */
const STOP_GRACE_MS = 60_000;

interface Started {
  proc: Subprocess;
  address: LocalNodeAddress;
}

export async function startLocalNodeProcess(
  config: KilnConfig,
  panelPort: number,
  curseforgeKey: () => Promise<string | undefined>,
  /** After a restart: the node's new address (its ports may have changed). */
  restarted: (node: LocalNodeProcess) => Promise<void>,
): Promise<LocalNodeProcess> {
  const { curseforgeKey: keyFor, ...wire } = localNodeConfig(config, panelPort, curseforgeKey);
  const key = async () => (typeof keyFor === "function" ? keyFor() : keyFor);
  let current = await spawnNode(wire, key);
  let stopping = false;
  let wait = FIRST_RESTART_MS;

  const node: LocalNodeProcess = {
    ...current.address,
    secret: wire.secret,
    pid: current.proc.pid,
    async stop() {
      stopping = true;
      const { proc } = current;
      proc.kill("SIGTERM");
      const stopped = await Promise.race([proc.exited.then(() => true), Bun.sleep(STOP_GRACE_MS).then(() => false)]);
      if (!stopped) {
        proc.kill("SIGKILL");
        await proc.exited;
      }
    },
  };

  const watch = (started: Started, at: number) => {
    void started.proc.exited.then(async (code) => {
      if (stopping) return;
      wait = Date.now() - at > RESTART_RESET_MS ? FIRST_RESTART_MS : wait;
      console.error(`kiln: the local node's process ended (${code ?? "killed"}); starting it again in ${wait / 1000} s`);
      for (;;) {
        await Bun.sleep(wait);
        wait = Math.min(wait * 2, LONGEST_RESTART_MS);
        if (stopping) return;
        // The same port again if it is free, so the node's address stays what the panel knows.
        const again = await spawnNode({ ...wire, port: started.address.port }, key).catch(() => spawnNode(wire, key)).catch((error: Error) => {
          console.error(`kiln: the local node could not start again: ${error.message}`);
          return null;
        });
        if (!again) continue;
        if (stopping) return void again.proc.kill("SIGTERM");
        current = again;
        Object.assign(node, again.address, { pid: again.proc.pid });
        console.log(`kiln: local node listening on ${again.address.url} again (process ${again.proc.pid})`);
        // The panel goes on if the row cannot be written now; the heartbeat says the node is away.
        await restarted(node).catch((error: Error) => console.error(`kiln: the local node's new address could not be recorded: ${error.message}`));
        watch(again, Date.now());
        return;
      }
    });
  };
  watch(current, Date.now());
  return node;
}

/** Starts `kiln local-node` and answers once it listens; a node that cannot start is ended. */
function spawnNode(config: WireNodeConfig, curseforgeKey: () => Promise<string | undefined>): Promise<Started> {
  return new Promise((resolve, reject) => {
    let listening = false;
    const proc: Subprocess = Bun.spawn([...thisKiln(), "local-node"], {
      stdin: "ignore",
      stdout: "inherit",
      stderr: "inherit",
      ipc(message: FromLocalNode) {
        if (message.type === "listening") {
          listening = true;
          const { type: _, ...address } = message;
          resolve({ proc, address });
        } else if (message.type === "failed") {
          proc.kill("SIGKILL");
          reject(new Error(message.message));
        } else if (message.type === "curseforge-key") {
          const answer = (key: string | undefined) => {
            // A node that ended meanwhile has no channel left to answer on.
            if (!proc.killed && proc.exitCode === null) proc.send({ type: "curseforge-key", id: message.id, key: key ?? null } satisfies ToLocalNode);
          };
          void curseforgeKey().then(answer, () => answer(undefined));
        }
      },
    });
    void proc.exited.then((code) => {
      if (!listening) reject(new Error(`its process ended before listening (${code})`));
    });
    proc.send({ type: "start", config } satisfies ToLocalNode);
  });
}
