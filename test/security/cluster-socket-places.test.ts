// A node keeps 20 live-socket places per server. Through the panel a user holds at most 5 of them,
// and users who are not administrators 15 together, so a reader cannot lock the administrators
// out of the console. Those shares were counted in each panel process's memory: behind a
// round-robin balancer a reader held 5 through each panel, and four readers (or one reader
// through four panels) took all 20 places: an administrator's console was refused. The shares are
// now counted in the database. Two real panel processes on one PostgreSQL database, a real node.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { openDatabase, schema, type Db } from "../../db";
import { MAX_SOCKETS_PER_SERVER } from "../../core/live/limits";
import { ADMIN_SOCKETS, MAX_SOCKETS_PER_USER } from "../../server/live-proxy/socket-places";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { jsonCall, killPanels, sessionAt, startPanelProcess, type PanelProcess } from "../helpers/panel-process";

let db: Db;
let a: PanelProcess;
let b: PanelProcess;
let node: TestNode;
let admin: string;
let serverId: string;
const sockets: WebSocket[] = [];

describe.if(hasPostgres())("two panels on one PostgreSQL database: a server's live sockets", () => {
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    db = await openDatabase(url);
    node = await startTestNode();
    await db.insert(schema.nodes).values({ name: "shared", publicHost: "127.0.0.1", publicPort: node.node.port, privateHost: "127.0.0.1", privatePort: node.node.port, sftpPort: 1, secret: node.config.secret, createdAt: new Date() }).run();
    [a, b] = await Promise.all([startPanelProcess(url), startPanelProcess(url)]);
    admin = await sessionAt(a.base);
    expect((await fetch(`${a.base}/api/templates/echo`, jsonCall("PUT", echoTemplate(), admin))).ok).toBe(true);
    const nodeId = (await db.select({ id: schema.nodes.id }).from(schema.nodes).get())!.id;
    const made = await fetch(`${a.base}/api/servers`, jsonCall("POST", { name: "watched", node: nodeId, template: "echo", environment: { type: "standard" } }, admin));
    expect(made.status).toBe(201);
    serverId = ((await made.json()) as { id: string }).id;
  }, 60_000);
  afterAll(async () => {
    for (const ws of sockets) ws.close();
    await killPanels([a, b].filter(Boolean));
    await node?.stop();
    await db?.$kiln.close();
  });

  /** A user who may only read the server's console; their session. */
  const reader = async (name: string): Promise<string> => {
    const password = "a-readers-long-password";
    expect((await fetch(`${a.base}/api/users`, jsonCall("POST", { email: `${name}@example.com`, username: name, password }, admin))).status).toBe(201);
    expect((await fetch(`${a.base}/api/servers/${serverId}/user/${name}%40example.com`, jsonCall("PUT", { viewServer: true, viewServerConsole: true }, admin))).status).toBeLessThan(300);
    return await sessionAt(b.base, { email: `${name}@example.com`, password });
  };

  /** A console socket through `panel`, still open a moment after it opened (a refusal closes it at once); null when refused. */
  const openSocket = async (panel: PanelProcess, session: string): Promise<WebSocket | null> => {
    const ws = new WebSocket(`${panel.base.replace("http", "ws")}/proxy/daemon/socket/${serverId}`, { headers: { cookie: `kiln=${session}`, origin: panel.base } } as unknown as string[]);
    sockets.push(ws);
    const opened = await new Promise<boolean>((resolve) => {
      ws.onopen = () => resolve(true);
      ws.onclose = () => resolve(false);
    });
    if (opened) await Bun.sleep(500);
    return opened && ws.readyState === WebSocket.OPEN ? ws : null;
  };

  test("a reader holds one share through both panels, and readers together never take the administrators' places", async () => {
    const first = await reader("first");
    let held = 0;
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await openSocket(a, first)) held++;
    expect(held).toBe(MAX_SOCKETS_PER_USER);
    // Through the other panel: no more.
    for (let i = 0; i < 2; i++) expect(await openSocket(b, first)).toBeNull();
    // More readers, spread over both panels: together they hold the shared places, no more.
    for (const name of ["second", "third", "fourth"]) {
      const session = await reader(name);
      for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await openSocket([a, b][i % 2]!, session)) held++;
    }
    expect(held).toBe(MAX_SOCKETS_PER_SERVER - ADMIN_SOCKETS);
    // The administrators' places are there, through either panel.
    let admins = 0;
    for (let i = 0; i < ADMIN_SOCKETS; i++) if (await openSocket([b, a][i % 2]!, admin)) admins++;
    expect(admins).toBe(ADMIN_SOCKETS);
  }, 60_000);
});
