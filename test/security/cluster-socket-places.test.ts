// A node keeps 20 live-socket places per server. Through the panel a user holds at most 5 of them,
// the server's co-users 10 together and its owner 5 of their own, so readers cannot lock the
// administrators, nor the owner, out of the console. Those shares were counted in each panel process's memory: behind a
// round-robin balancer a reader held 5 through each panel, and four readers (or one reader
// through four panels) took all 20 places: an administrator's console was refused. The shares are
// now counted in the database, the owner's apart from the co-users'. Two real panel processes on
// one PostgreSQL database, a real node.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_SOCKETS_PER_SERVER } from "../../core/live/limits";
import { ADMIN_SOCKETS, CO_USER_SOCKETS, MAX_SOCKETS_PER_USER, OWNER_SOCKETS } from "../../server/live-proxy/socket-places";
import { hasPostgres } from "../helpers/database";
import { jsonCall, killPanels, sessionAt, twoPanelsWithServer, type PanelProcess, type TwoPanels } from "../helpers/panel-process";
import { eventually } from "../helpers/node";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { GONE_AFTER_MS } from "../../server/services/cluster/instance";

let rig: TwoPanels;
let a: PanelProcess;
let b: PanelProcess;
let admin: string;
let serverId: string;
const sockets: WebSocket[] = [];

describe.if(hasPostgres())("two panels on one PostgreSQL database: a server's live sockets", () => {
  beforeAll(async () => {
    // The sweep every second instead of every 30 s: the killed panel's rows go within a second of its liveness ending.
    rig = await twoPanelsWithServer("watched", {}, { KILN_SOCKET_SWEEP_SECONDS: "1" });
    ({ a, b, admin, serverId } = rig);
  }, 60_000);
  afterAll(async () => {
    for (const ws of sockets) ws.close();
    await rig?.stop();
  });

  const password = "a-readers-long-password";
  /** A plain account (not an administrator); its session. */
  const account = async (name: string): Promise<string> => {
    expect((await fetch(`${a.base}/api/users`, jsonCall("POST", { email: `${name}@example.com`, username: name, password }, admin))).status).toBe(201);
    return await sessionAt(b.base, { email: `${name}@example.com`, password });
  };
  /** A user who may only read the server's console; their session. */
  const reader = async (name: string, server = serverId): Promise<string> => {
    const session = await account(name);
    expect((await fetch(`${a.base}/api/servers/${server}/user/${name}%40example.com`, jsonCall("PUT", { viewServer: true, viewServerConsole: true }, admin))).status).toBeLessThan(300);
    return session;
  };

  /**
   * A console socket through `panel` once the node's first status came through it (the panel joins
   * a socket to the node only after its place was counted); null when refused (the refusal's body,
   * then its close).
   */
  const openSocket = async (panel: PanelProcess, session: string, server = serverId): Promise<WebSocket | null> => {
    const ws = new WebSocket(`${panel.base.replace("http", "ws")}/proxy/daemon/socket/${server}`, { headers: { cookie: `kiln=${session}`, origin: panel.base } } as unknown as string[]);
    sockets.push(ws);
    const counted = await new Promise<boolean>((resolve) => {
      ws.onmessage = (event) => resolve((JSON.parse(String(event.data)) as { type?: string }).type === "status");
      ws.onclose = () => resolve(false);
    });
    return counted && ws.readyState === WebSocket.OPEN ? ws : null;
  };

  test("a reader holds one share through both panels, and readers together never take the administrators' places", async () => {
    const first = await reader("first");
    let held = 0;
    for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await openSocket(a, first)) held++;
    expect(held).toBe(MAX_SOCKETS_PER_USER);
    // Through the other panel: no more.
    for (let i = 0; i < 2; i++) expect(await openSocket(b, first)).toBeNull();
    // More readers, spread over both panels: together they hold the co-users' places, no more.
    for (const name of ["second", "third", "fourth"]) {
      const session = await reader(name);
      for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await openSocket([a, b][i % 2]!, session)) held++;
    }
    expect(held).toBe(CO_USER_SOCKETS);
    // The administrators' places are there, through either panel.
    let admins = 0;
    for (let i = 0; i < ADMIN_SOCKETS; i++) if (await openSocket([b, a][i % 2]!, admin)) admins++;
    expect(admins).toBe(ADMIN_SOCKETS);
  }, 60_000);

  test("a server owned by a plain account: its readers over both panels leave the owner's places, and the administrators'", async () => {
    const owner = await account("owner");
    const { nodeId } = (await rig.db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, serverId)).get())!;
    const made = await fetch(`${a.base}/api/servers`, jsonCall("POST", { name: "owned", node: nodeId, template: "echo", environment: { type: "standard" }, user: "owner@example.com" }, admin));
    expect(made.status).toBe(201);
    const owned = ((await made.json()) as { id: string }).id;
    let theirs = 0;
    for (const name of ["viewer1", "viewer2", "viewer3"]) {
      const session = await reader(name, owned);
      for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await openSocket([a, b][i % 2]!, session, owned)) theirs++;
    }
    let owners = 0;
    for (let i = 0; i < OWNER_SOCKETS + 1; i++) if (await openSocket([b, a][i % 2]!, owner, owned)) owners++;
    let admins = 0;
    for (let i = 0; i < ADMIN_SOCKETS; i++) if (await openSocket([a, b][i % 2]!, admin, owned)) admins++;
    expect([theirs, owners, admins]).toEqual([CO_USER_SOCKETS, OWNER_SOCKETS, ADMIN_SOCKETS]);
    expect(theirs + owners + admins).toBe(MAX_SOCKETS_PER_SERVER);
  }, 90_000);

  test("the rows of a panel killed with its sockets open go without another socket opening on the server", async () => {
    // A socket's row has no expiry (its panel's liveness ends it): a panel killed with sockets
    // open left its rows until a socket opened on the same server again, and for a server never
    // opened again (or deleted) for ever. They go now at the next sweep, opening or not.
    const rowsOf = async (panel: PanelProcess) => (await rig.db.select({ key: schema.oneTimeValues.key }).from(schema.oneTimeValues).where(eq(schema.oneTimeValues.kind, "socket")).all()).filter(({ key }) => key.split("|")[2] === panel.id).length;
    expect(await rowsOf(a)).toBeGreaterThan(0);
    await killPanels([a]);
    await eventually(async () => (await rowsOf(a)) === 0, GONE_AFTER_MS + 70_000, "the killed panel's socket rows to go");
    // The other panel's sockets are still counted.
    expect(await rowsOf(b)).toBeGreaterThan(0);
  }, GONE_AFTER_MS + 90_000);
});
