// A panel served on a real port with a real node that asks it about SFTP logins, and the real
// OpenSSH `sftp` client (through sshpass for the password) to drive them.
import { randomBytes } from "node:crypto";
import { readdirSync, rmSync, writeFileSync } from "node:fs";
import { afterAll, beforeAll } from "bun:test";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { sftpUsername } from "../../core/sftp/username";
import { DEFAULT_DOCKER_SOCKET, DEFAULT_SOURCES, type DaemonConfig } from "../../daemon/config";
import { DEFAULT_EXTRACT_LIMITS } from "../../daemon/files/extract-limits";
import { startNode, type RunningNode } from "../../daemon/node";
import { servePanel } from "../../server/serve";
import { putTemplate } from "../../server/services/templates";
import { createUser } from "../../server/services/users";
import { LoginThrottle } from "../../server/services/auth/throttle";
import { testPanel, loginAs, type TestPanel } from "./app";
import { echoTemplate } from "./node";
import { nodeCaller, type NodeCaller } from "./node-caller";
import { collectOutput } from "./output";
import { tempDir } from "./process";
import { partAvailable } from "./require-part";
import { jsonInit } from "./panel-node";

export const hasSftpClient = () =>
  partAvailable("the OpenSSH sftp client and sshpass", () => Bun.which("sftp") !== null && Bun.which("sshpass") !== null && Bun.which("ssh-keyscan") !== null);

export interface SftpRig {
  panel: TestPanel;
  panelUrl: string;
  node: RunningNode;
  config: DaemonConfig;
  daemon: NodeCaller;
  nodeId: number;
  admin: { token: string; userId: number; email: string };
  createServer(name: string): Promise<string>;
  /** Stops the node and starts it again on the same data folder (same ports when they are free). */
  restartNode(): Promise<void>;
  /** A path inside a server's folder on the node (the folder itself without `path`). */
  folder(serverId: string, ...path: string[]): string;
  /** Takes the panel's listener down (the node's login checks get no answer) or back up on its port. */
  setPanelUp(up: boolean): Promise<void>;
  stop(): Promise<void>;
}

/** `sftpLimits`: the node's SFTP caps, for a test that fills them with a few connections. */
export async function sftpRig(sftpLimits?: DaemonConfig["sftpLimits"]): Promise<SftpRig> {
  const panel = await testPanel();
  let http = servePanel(panel.app, { port: 0, hostname: "127.0.0.1" });
  const panelPort = http.port!;
  const panelUrl = `http://127.0.0.1:${panelPort}`;
  const config: DaemonConfig = {
    host: "127.0.0.1",
    port: 0,
    sftpPort: 0,
    dataDir: tempDir("kiln-sftp-node-"),
    panelUrl,
    secret: randomBytes(24).toString("base64url"),
    sources: DEFAULT_SOURCES,
    dockerSocket: DEFAULT_DOCKER_SOCKET,
    extractLimits: DEFAULT_EXTRACT_LIMITS,
    sftpLimits,
  };
  const lines: string[] = [];
  let node = await startNode(config, { log: (line) => lines.push(line), stopTimeoutMs: 5000 });
  const row = await panel.db
    .insert(schema.nodes)
    .values({ name: "sftp-node", publicHost: "{ip}", publicPort: node.port, privateHost: "127.0.0.1", privatePort: node.port, sftpPort: node.sftpPort, secret: config.secret, createdAt: new Date() })
    .returning()
    .get();
  await putTemplate(panel.db, "echo", echoTemplate());
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const rig: SftpRig = {
    panel,
    panelUrl,
    node,
    config,
    daemon: nodeCaller(node.url, config.secret),
    nodeId: row.id,
    admin,
    async createServer(name) {
      const res = await panel.request("/api/servers", { token: admin.token, ...jsonInit("POST", { name, node: row.id, template: "echo", environment: { type: "standard" } }) });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
      return (await res.json()).id;
    },
    async restartNode() {
      await node.stop();
      node = await startNode({ ...config, port: node.port, sftpPort: node.sftpPort }, { log: (line) => lines.push(line), stopTimeoutMs: 5000 });
      rig.node = node;
      rig.daemon = nodeCaller(node.url, config.secret);
    },
    folder: (serverId, ...path) => join(rig.node.manager.store.folder(serverId), ...path),
    async setPanelUp(up) {
      if (up) http = servePanel(panel.app, { port: panelPort, hostname: "127.0.0.1" });
      else await http.stop(true);
    },
    async stop() {
      await node.stop();
      await http.stop(true);
    },
  };
  return rig;
}

export interface SftpResult {
  code: number;
  out: string;
  err: string;
}

const SSH_OPTIONS = ["-oBatchMode=no", "-oStrictHostKeyChecking=no", "-oUserKnownHostsFile=/dev/null", "-oPubkeyAuthentication=no", "-oLogLevel=ERROR", "-oConnectTimeout=10"];

function sftpCommand(port: number, email: string, serverId: string, password: string, batch: string): string[] {
  return ["sshpass", "-p", password, "sftp", ...SSH_OPTIONS, "-P", String(port), "-b", batch, `${sftpUsername(email, serverId)}@127.0.0.1`];
}

/**
 * Runs a batch of sftp commands (prefix one with "-" to go on when it fails) and waits for the
 * client. Asynchronous on purpose: the panel and the node answer from this same process.
 */
export async function sftpBatch(port: number, login: { email: string; serverId: string; password: string }, commands: string[], cwd = tempDir("kiln-sftp-client-")): Promise<SftpResult> {
  const batch = join(cwd, "batch.txt");
  writeFileSync(batch, `${commands.join("\n")}\n`);
  const proc = Bun.spawn(sftpCommand(port, login.email, login.serverId, login.password, batch), { cwd, stdout: "pipe", stderr: "pipe", stdin: "ignore" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  return { code, out, err };
}

export interface OpenSftp {
  proc: Subprocess<"pipe", "pipe", "pipe">;
  /** Sends one command line. */
  send(command: string): void;
  /** Output so far. */
  output(): string;
  /**
   * True when the server ended the session within `ms`. The client only notices when it next
   * talks (it sits waiting for a command), so: ssh's "Received disconnect" line, then a command
   * that must fail and make the client exit.
   */
  endedWithin(ms: number): Promise<boolean>;
}

/** An sftp client that stays connected, reading commands as they are sent; ready once logged in. */
export async function openSftp(port: number, login: { email: string; serverId: string; password: string }): Promise<OpenSftp> {
  const proc = Bun.spawn(sftpCommand(port, login.email, login.serverId, login.password, "-"), { stdout: "pipe", stderr: "pipe", stdin: "pipe" });
  const text = collectOutput(proc);
  const session: OpenSftp = {
    proc,
    send(command) {
      proc.stdin.write(`${command}\n`);
      proc.stdin.flush();
    },
    output: text,
    async endedWithin(ms) {
      const deadline = Date.now() + ms;
      while (!text().includes("Received disconnect") && proc.exitCode === null) {
        if (Date.now() > deadline) return false;
        await Bun.sleep(25);
      }
      // "ls" needs the server ("pwd" does not: the client remembers the folder).
      if (proc.exitCode === null) session.send("ls");
      const code = await Promise.race([proc.exited, Bun.sleep(5000).then(() => null)]);
      if (code === null) proc.kill();
      return code !== null && code !== 0;
    },
  };
  session.send("pwd");
  const deadline = Date.now() + 15_000;
  while (!text().includes("Remote working directory")) {
    if (proc.exitCode !== null || Date.now() > deadline) {
      proc.kill();
      throw new Error(`sftp did not log in:\n${text()}`);
    }
    await Bun.sleep(25);
  }
  return session;
}

/** One server on an sftpRig and an administrator who may log in to it over SFTP. */
export interface SftpServer {
  rig: SftpRig;
  id: string;
  /** the server's folder on the node */
  root: string;
  login: { email: string; serverId: string; password: string };
}

/**
 * For a test file: (when the sftp client is there) an sftpRig with one server named `name` and an
 * administrator `username` (password "password123") before the tests, handed to `use`; stopped after.
 */
export function sftpServerForFile(name: string, username: string, use: (made: SftpServer) => void | Promise<void>): void {
  let rig: SftpRig | undefined;
  beforeAll(async () => {
    if (!hasSftpClient()) return;
    rig = await sftpRig();
    const id = await rig.createServer(name);
    const email = `${username}@example.com`;
    await createUser(rig.panel.db, { email, username, password: "password123", scopes: [SCOPES.admin] });
    await use({ rig, id, root: rig.folder(id), login: { email, serverId: id, password: "password123" } });
  }, 30_000);
  afterAll(async () => rig?.stop());
}

/** Empties a server's folder (and forgets failed logins) before a test: each begins from a folder it fills itself. */
export function freshFolder(made: SftpServer): void {
  made.rig.panel.deps.throttle = new LoginThrottle();
  for (const name of readdirSync(made.root)) rmSync(join(made.root, name), { recursive: true, force: true });
}
