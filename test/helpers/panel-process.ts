// Real `kiln panel` processes on one database (PostgreSQL for several at once), as the tests of
// several panels behind one address start them.
import { KILN, freePort, startKiln, tempDir } from "./process";
import { openDatabase, schema, type Db } from "../../db";
import { freshPostgresDatabase } from "./database";
import { echoTemplate, startTestNode, type TestNode, type TestNodeOptions } from "./node";

/** The first administrator of these panels. */
export const PANEL_ADMIN = { email: "admin@example.com", password: "a-long-password" };

export interface PanelProcess {
  base: string;
  /** The panel's instance name, as its start line and /readyz give it. */
  id: string;
  proc: { kill(signal?: string | number): void; exited: Promise<number> };
}

/** A panel on the database at `url` (`--no-local-node` unless `args` say otherwise). */
export async function startPanelProcess(url: string, env: Record<string, string> = {}, args = ["--no-local-node"]): Promise<PanelProcess> {
  const port = await freePort();
  const started = await startKiln([...KILN, "panel", ...args], { KILN_DATA: tempDir("kiln-many-"), KILN_DATABASE_URL: url, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_ADMIN_EMAIL: PANEL_ADMIN.email, KILN_ADMIN_PASSWORD: PANEL_ADMIN.password, ...env }, /panel listening on .* \(panel (\S+)\)/);
  return { base: `http://127.0.0.1:${port}`, id: started.match[1]!, proc: started.proc };
}

/** Ends the panels at once (kill -9) and waits for them to be gone. */
export async function killPanels(panels: PanelProcess[]): Promise<void> {
  for (const panel of panels) panel.proc.kill("SIGKILL");
  await Promise.all(panels.map((panel) => panel.proc.exited));
}

/** Bearer-authenticated JSON request options. */
export const jsonCall = (method: string, body: unknown, session: string) => ({ method, headers: { authorization: `Bearer ${session}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

/** Logs in through the panel at `base` and answers the session token. */
export async function sessionAt(base: string, who: { email: string; password: string } = PANEL_ADMIN): Promise<string> {
  const answer = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(who) });
  const { session } = (await answer.json()) as { session?: string };
  if (!session) throw new Error(`the login of ${who.email} at ${base} answered ${answer.status}`);
  return session;
}

/** Files `node` in the panels' database (as an administrator adding it would); its id. */
export async function fileNode(db: Db, node: TestNode): Promise<number> {
  const { id } = await db.insert(schema.nodes).values({ name: "shared", publicHost: "127.0.0.1", publicPort: node.node.port, privateHost: "127.0.0.1", privatePort: node.node.port, sftpPort: 1, secret: node.config.secret, createdAt: new Date() }).returning({ id: schema.nodes.id }).get();
  return id;
}

export interface TwoPanels {
  db: Db;
  a: PanelProcess;
  b: PanelProcess;
  node: TestNode;
  /** The first administrator's session at `a`. */
  admin: string;
  /** An echo server made through `a` on the node. */
  serverId: string;
  stop(): Promise<void>;
}

/** Two panels (with `panelEnv` added to their environment) on a fresh PostgreSQL database, one node (started with `nodeOptions`), and one echo server named `name`. */
export async function twoPanelsWithServer(name: string, nodeOptions: TestNodeOptions = {}, panelEnv: Record<string, string> = {}): Promise<TwoPanels> {
  const url = await freshPostgresDatabase();
  const db = await openDatabase(url);
  const node = await startTestNode(nodeOptions);
  const nodeId = await fileNode(db, node);
  const [a, b] = await Promise.all([startPanelProcess(url, panelEnv), startPanelProcess(url, panelEnv)]);
  const admin = await sessionAt(a.base);
  const template = await fetch(`${a.base}/api/templates/echo`, jsonCall("PUT", echoTemplate(), admin));
  if (!template.ok) throw new Error(`the echo template answered ${template.status}`);
  const made = await fetch(`${a.base}/api/servers`, jsonCall("POST", { name, node: nodeId, template: "echo", environment: { type: "standard" } }, admin));
  if (made.status !== 201) throw new Error(`making the server answered ${made.status}`);
  const serverId = ((await made.json()) as { id: string }).id;
  return {
    db,
    a,
    b,
    node,
    admin,
    serverId,
    async stop() {
      await killPanels([a, b]);
      await node.stop();
      await db.$kiln.close();
    },
  };
}
