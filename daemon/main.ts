// kiln daemon: the composition root of a standalone node.
import { loadDaemonConfig, DaemonConfigError } from "./config";
import { startNode } from "./node";

export async function runDaemon(env: Record<string, string | undefined> = process.env): Promise<number | "running"> {
  let config;
  try {
    config = loadDaemonConfig(env);
  } catch (error) {
    if (!(error instanceof DaemonConfigError)) throw error;
    console.error(`kiln daemon: ${error.message}`);
    return 2;
  }
  let node;
  try {
    node = await startNode(config);
  } catch (error) {
    // A taken port or an unreadable host key: one line saying which, not a stack trace.
    console.error(`kiln daemon: ${(error as Error).message}`);
    return 1;
  }
  console.log(`kiln daemon: node listening on ${node.url} (data in ${config.dataDir})`);
  console.log(`kiln daemon: SFTP on port ${node.sftpPort} (host key ${node.sftpFingerprint})`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    await node.stop();
    process.exit(0);
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return "running";
}
