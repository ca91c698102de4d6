// The node `kiln panel` runs in-process: the same code as `kiln daemon`, on loopback, with its
// secret kept in <data>/node/secret (made on first start, readable by the owner only).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import type { KilnConfig } from "./config";
import { DEFAULT_DOCKER_SOCKET, DEFAULT_SOURCES, type DaemonConfig } from "../daemon/config";
import { DEFAULT_EXTRACT_LIMITS } from "../daemon/files/extract-limits";
import { startNode, type RunningNode } from "../daemon/node";
import { DEFAULT_ISOLATION } from "../daemon/environment/sandbox";

/**
 * `panelPort`: the port the panel really listens on (config.port may be 0, "any free port").
 * `curseforgeKey`: where the node reads CurseForge's key when an install needs it (the panel's
 * setting: one key for the panel's browser and its own node), else KILN_DAEMON_CURSEFORGE_KEY.
 */
export function localNodeConfig(config: KilnConfig, panelPort = config.port, curseforgeKey?: () => Promise<string | undefined>): DaemonConfig {
  const dataDir = join(config.dataDir, "node");
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return {
    host: "127.0.0.1",
    port: config.localNode.port,
    sftpPort: config.localNode.sftpPort,
    // The API is the panel's business only; SFTP is for users, where they reach the panel.
    sftpHost: config.host,
    dataDir,
    panelUrl: `http://${reachableHost(config.host)}:${panelPort}`,
    secret: readOrCreateSecret(join(dataDir, "secret")),
    sources: { ...DEFAULT_SOURCES, ...config.localNode.sources },
    dockerSocket: DEFAULT_DOCKER_SOCKET,
    extractLimits: DEFAULT_EXTRACT_LIMITS,
    // The panel's own folder (its database) must not show through a server's sandbox either.
    isolation: { ...DEFAULT_ISOLATION, hiddenPaths: [config.dataDir] },
    curseforgeKey: async () => (await curseforgeKey?.()) || process.env.KILN_DAEMON_CURSEFORGE_KEY || undefined,
  };
}

export async function startLocalNode(config: KilnConfig, panelPort = config.port, curseforgeKey?: () => Promise<string | undefined>): Promise<RunningNode & { secret: string }> {
  const nodeConfig = localNodeConfig(config, panelPort, curseforgeKey);
  return { ...(await startNode(nodeConfig)), secret: nodeConfig.secret };
}

function readOrCreateSecret(path: string): string {
  if (existsSync(path)) return readFileSync(path, "utf8").trim();
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(path, secret, { mode: 0o600 });
  return secret;
}

/** How the node reaches the panel's own listener (it checks SFTP logins there). */
function reachableHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}
