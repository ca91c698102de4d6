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
  const node = await startNode(config);
  console.log(`kiln daemon: node listening on ${node.url} (data in ${config.dataDir})`);
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
