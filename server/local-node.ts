// The node `kiln panel` runs in-process: the same code as `kiln daemon`, on loopback, with its
// secret kept in <data>/node/secret (made on first start, readable by the owner only).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { KilnConfig } from "./config";
import { DEFAULT_DOCKER_SOCKET, DEFAULT_SOURCES, type DaemonConfig } from "../daemon/config";
import { startNode, type RunningNode } from "../daemon/node";

export function localNodeConfig(config: KilnConfig): DaemonConfig {
  const dataDir = join(config.dataDir, "node");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    host: "127.0.0.1",
    port: config.localNode.port,
    sftpPort: config.localNode.sftpPort,
    dataDir,
    panelUrl: `http://127.0.0.1:${config.port}`,
    secret: readOrCreateSecret(join(dataDir, "secret")),
    sources: { ...DEFAULT_SOURCES, ...config.localNode.sources },
    dockerSocket: DEFAULT_DOCKER_SOCKET,
  };
}

export async function startLocalNode(config: KilnConfig): Promise<RunningNode & { secret: string }> {
  const nodeConfig = localNodeConfig(config);
  return { ...(await startNode(nodeConfig)), secret: nodeConfig.secret };
}

function readOrCreateSecret(path: string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
}
