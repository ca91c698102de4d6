// kiln local-node: the panel's own node in a process of its own (KILN_LOCAL_NODE=process), started
// by `kiln panel` with an IPC channel (server/local-node-process.ts) and nothing else: its
// configuration arrives over the channel, and when the channel closes (the panel stopped, or
// died) the node stops its servers and exits, as it does on SIGTERM.
import { startNode, type RunningNode } from "../../daemon/node";
import type { FromLocalNode, ToLocalNode } from "../local-node-messages";

export function runLocalNodeChild(): number | "running" {
  const send = process.send?.bind(process);
  if (!send) {
    console.error("kiln local-node: this command is run by `kiln panel` (KILN_LOCAL_NODE=process), not by hand; a node on its own is `kiln daemon`");
    return 2;
  }
  const tell = (message: FromLocalNode) => send(message);
  const waitingForKey = new Map<number, (key: string | undefined) => void>();
  let asked = 0;
  const curseforgeKey = () =>
    new Promise<string | undefined>((resolve) => {
      const id = ++asked;
      waitingForKey.set(id, resolve);
      tell({ type: "curseforge-key", id });
    });

  let node: RunningNode | null = null;
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await node?.stop();
    process.exit(0);
  };
  process.on("message", (message: ToLocalNode) => {
    if (message.type === "curseforge-key") {
      waitingForKey.get(message.id)?.(message.key ?? undefined);
      waitingForKey.delete(message.id);
    } else if (message.type === "start" && !node && !stopping) {
      startNode({ ...message.config, curseforgeKey }).then(
        (running) => {
          node = running;
          tell({ type: "listening", url: running.url, port: running.port, sftpPort: running.sftpPort, sftpFingerprint: running.sftpFingerprint });
        },
        (error: Error) => {
          // A taken port or an unreadable host key: the panel says which, and ends this process.
          tell({ type: "failed", message: error.message });
        },
      );
    }
  });
  process.on("disconnect", stop);
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  return "running";
}
