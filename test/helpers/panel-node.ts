// A test panel wired to a real test node: the node's row carries the node's port and secret, and
// the echo template is stored, so servers can be created through the panel's API.
import { afterAll, beforeAll, beforeEach } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, HTML, type TestPanel } from "./app";
import { startTestNode, echoTemplate, type TestNode, type TestNodeOptions } from "./node";
import { putTemplate } from "../../server/services/templates";
import { SCOPES, type ServerFlag } from "../../core/scopes";
import { servePanel } from "../../server/serve";
import { writeFiles } from "./file-tree";

export interface PanelWithNode {
  panel: TestPanel;
  node: TestNode;
  nodeId: number;
  admin: { token: string; userId: number; email: string };
  /** Creates a server from the echo template as the admin and returns its id. */
  createServer(name: string, body?: Record<string, unknown>): Promise<string>;
  /** A new user given exactly these flags on the server (through the API, as the admin). */
  userWith(serverId: string, flags: Record<string, boolean>): Promise<{ token: string; userId: number; email: string }>;
  /** A page as a browser asks for it: its status and HTML. */
  page(path: string, token: string, headers?: Record<string, string>): Promise<{ status: number; html: string }>;
}

/** A plain HTML form post, as a browser without script sends it. */
export const formInit = (fields: Record<string, string>) => ({ method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() });

export const jsonInit = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

export async function panelWithNode(node?: TestNode): Promise<PanelWithNode> {
  const panel = await testPanel();
  const running = node ?? (await startTestNode());
  const row = await panel.db
    .insert(schema.nodes)
    .values({ name: "test-node", publicHost: "{ip}", publicPort: running.node.port, privateHost: "127.0.0.1", privatePort: running.node.port, sftpPort: 5657, secret: running.config.secret, createdAt: new Date() })
    .returning()
    .get();
  await putTemplate(panel.db, "echo", { ...echoTemplate(), data: { ...echoTemplate().data, port: { display: "Port", type: "integer", value: 25565, required: true, userEdit: false } } });
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  return {
    panel,
    node: running,
    nodeId: row.id,
    admin,
    async createServer(name, body = {}) {
      const res = await panel.request("/api/servers", { token: admin.token, ...jsonInit("POST", { name, node: row.id, template: "echo", environment: { type: "standard" }, ...body }) });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
      return (await res.json()).id;
    },
    async userWith(serverId, flags) {
      const user = await loginAs(panel.db, []);
      const res = await panel.request(`/api/servers/${serverId}/user/${encodeURIComponent(user.email)}`, { token: admin.token, ...jsonInit("PUT", flags) });
      if (res.status >= 300) throw new Error(`sharing failed: ${res.status} ${await res.text()}`);
      return user;
    },
    async page(path, token, headers = {}) {
      const res = await panel.request(path, { token, headers: { ...HTML, ...headers } });
      return { status: res.status, html: await res.text() };
    },
  };
}

/** The authorization header of a token for an OAuth2 client the administrator bound to `serverId`. */
export async function boundClient(ctx: PanelWithNode, serverId: string): Promise<Record<string, string>> {
  const client = await (await ctx.panel.request(`/api/servers/${serverId}/oauth2`, { token: ctx.admin.token, ...jsonInit("POST", { name: "bot", password: "password123" }) })).json();
  const answer = await ctx.panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}` });
  return { authorization: `Bearer ${(await answer.json()).access_token}` };
}

/** Gives the user exactly `flags` on the server (every other flag off), through the API as the admin would. */
export async function grantFlags(ctx: PanelWithNode, serverId: string, email: string, flags: readonly ServerFlag[]): Promise<void> {
  const response = await ctx.panel.request(`/api/servers/${serverId}/user/${encodeURIComponent(email)}`, { token: ctx.admin.token, ...jsonInit("PUT", Object.fromEntries(flags.map((flag) => [flag, true]))) });
  if (response.status >= 300) throw new Error(`granting failed: ${response.status} ${await response.text()}`);
}

/** A new user holding exactly `flags` on the server. */
export async function userWithFlags(ctx: PanelWithNode, serverId: string, flags: readonly ServerFlag[]) {
  const user = await loginAs(ctx.panel.db, []);
  await grantFlags(ctx, serverId, user.email, flags);
  return user;
}

export async function setNodePort(panel: TestPanel, nodeId: number, port: number): Promise<void> {
  await panel.db.update(schema.nodes).set({ privatePort: port }).where(eq(schema.nodes.id, nodeId)).run();
}

/** For a test file: one node for all its tests (stopped after them), and a fresh panel wired to it before each test. */
export function panelPerTest(use: (ctx: PanelWithNode) => void): void {
  let node: TestNode | undefined;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node?.stop());
  beforeEach(async () => use(await panelWithNode(node)));
}

/**
 * For a test file or describe block: one node (started with `options`) and a panel wired to it,
 * made before its tests and handed to `use`; the node stopped after them.
 */
export function panelForAll(use: (ctx: PanelWithNode) => void, options: TestNodeOptions = {}): void {
  let node: TestNode | undefined;
  beforeAll(async () => {
    node = await startTestNode(options);
    use(await panelWithNode(node));
  });
  afterAll(() => node?.stop());
}

export interface PanelWithServer {
  ctx: PanelWithNode;
  /** a server made from the echo template */
  id: string;
  /** its folder on the node */
  folder: string;
}

/**
 * For a test file: (unless `enabled` is false) panelForAll, and one server whose folder holds
 * `files` (path → content), handed to `use` before the tests.
 */
export function panelWithServerForFile(name: string, files: Record<string, string>, use: (made: PanelWithServer) => void, enabled = true): void {
  if (!enabled) return;
  let ctx: PanelWithNode;
  panelForAll((made) => (ctx = made));
  beforeAll(async () => {
    const id = await ctx.createServer(name);
    const folder = ctx.node.folder(id);
    writeFiles(folder, files);
    use({ ctx, id, folder });
  });
}

export interface ServedPanel {
  node: TestNode;
  ctx: PanelWithNode;
  /** the panel over real HTTP, with the live-socket proxy (sockets need a real server) */
  server: ReturnType<typeof servePanel>;
  /** a server made from the echo template */
  id: string;
  stop(): Promise<void>;
}

/** A panel and a test node, the panel served on a free loopback port, and one server to use. */
export async function servedPanelWithServer(name: string): Promise<ServedPanel> {
  const node = await startTestNode();
  const ctx = await panelWithNode(node);
  const server = servePanel(ctx.panel.app, { port: 0, hostname: "127.0.0.1" });
  const id = await ctx.createServer(name);
  return {
    node,
    ctx,
    server,
    id,
    async stop() {
      await node.call("POST", `/daemon/server/${id}/kill`).catch(() => undefined);
      server.stop(true);
      await node.stop();
    },
  };
}

/** For a test file or describe block: servedPanelWithServer(name) before its tests, handed to `use`; stopped after them. */
export function servedPanelForAll(name: string, use: (rig: ServedPanel) => void): void {
  let rig: ServedPanel | undefined;
  beforeAll(async () => {
    rig = await servedPanelWithServer(name);
    use(rig);
  });
  afterAll(() => rig?.stop());
}

/** Registers a node that runs elsewhere (another test node, a `kiln daemon` process) on the panel; answers its id. */
export async function addNodeRow(panel: TestPanel, name: string, port: number, secret: string): Promise<number> {
  return (await panel.db.insert(schema.nodes).values({ name, publicHost: "127.0.0.1", publicPort: port, privateHost: "127.0.0.1", privatePort: port, sftpPort: 1, secret, createdAt: new Date() }).returning().get()).id;
}

export interface TwoNodes {
  ctx: PanelWithNode;
  /** the second real node, registered as "node-b" */
  second: TestNode;
  nodeB: number;
}

/** For a test file: a panel wired to a real node (panelWithNode) and a second real node as "node-b", both stopped after the file. */
export function panelWithTwoNodes(use: (made: TwoNodes) => void): void {
  let made: TwoNodes | undefined;
  beforeAll(async () => {
    const ctx = await panelWithNode();
    const second = await startTestNode();
    made = { ctx, second, nodeB: await addNodeRow(ctx.panel, "node-b", second.node.port, second.config.secret) };
    use(made);
  });
  afterAll(async () => {
    await made?.ctx.node.stop();
    await made?.second.stop();
  });
}
