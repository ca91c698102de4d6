// Starts a node: the server manager, the API and the socket channel on one listener. Used by
// `kiln daemon` and, for the local node, by `kiln panel`.
import { join } from "node:path";
import type Dockerode from "dockerode";
import type { DaemonConfig } from "./config";
import { ServerManager } from "./servers/manager";
import { Channel, type SocketData } from "./channel/channel";
import { createDaemonApp } from "./app";
import { dockerClient, engineAnswers } from "./environment/docker";

/** How long a stop may take before the server is killed. */
export const STOP_TIMEOUT_MS = 60_000;

export interface RunningNode {
  url: string;
  port: number;
  manager: ServerManager;
  stop(): Promise<void>;
}

export interface NodeOptions {
  log?: (line: string) => void;
  stopTimeoutMs?: number;
}

export async function startNode(config: DaemonConfig, options: NodeOptions = {}): Promise<RunningNode> {
  const log = options.log ?? ((line: string) => console.log(line));
  let docker: Dockerode | null = null;
  const getDocker = () => (docker ??= dockerClient(config.dockerSocket));
  const manager = new ServerManager({
    dataDir: config.dataDir,
    binariesDir: join(config.dataDir, "binaries"),
    sources: config.sources,
    docker: getDocker,
    stopTimeoutMs: options.stopTimeoutMs ?? STOP_TIMEOUT_MS,
    log,
  });
  await manager.boot();
  const channel = new Channel(manager);
  const app = createDaemonApp({ secret: config.secret, manager, channel, dockerAvailable: () => engineAnswers(config.dockerSocket) });
  const server = Bun.serve<SocketData>({ hostname: config.host, port: config.port, fetch: app.fetch, websocket: channel.handlers, idleTimeout: 0 });
  const host = config.host === "0.0.0.0" ? "127.0.0.1" : config.host;
  return {
    url: `http://${host}:${server.port}`,
    port: server.port!,
    manager,
    async stop() {
      await server.stop(true);
      await manager.shutdown();
    },
  };
}
