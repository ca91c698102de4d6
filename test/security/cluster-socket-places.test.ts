// A node keeps 20 live-socket places per server. Through the panel a user holds at most 5 of them,
// and users who are not administrators 15 together, so a reader cannot lock the administrators
// out of the console. Those shares were counted in each panel process's memory: behind a
// round-robin balancer a reader held 5 through each panel, and four readers (or one reader
// through four panels) took all 20 places: an administrator's console was refused. The shares are
// now counted in the database. Two real panel processes on one PostgreSQL database, a real node.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { MAX_SOCKETS_PER_SERVER } from "../../core/live/limits";
import { ADMIN_SOCKETS, MAX_SOCKETS_PER_USER } from "../../server/live-proxy/socket-places";
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

  /** A user who may only read the server's console; their session. */
  const reader = async (name: string): Promise<string> => {
    const password = "a-readers-long-password";
    expect((await fetch(`${a.base}/api/users`, jsonCall("POST", { email: `${name}@example.com`, username: name, password }, admin))).status).toBe(201);
    expect((await fetch(`${a.base}/api/servers/${serverId}/user/${name}%40example.com`, jsonCall("PUT", { viewServer: true, viewServerConsole: true }, admin))).status).toBeLessThan(300);
    return await sessionAt(b.base, { email: `${name}@example.com`, password });
  };

  /**
   * A console socket through `panel` once the node's first status came through it (the panel joins
   * a socket to the node only after its place was counted); null when refused (the refusal's body,
   * then its close).
   */
  const openSocket = async (panel: PanelProcess, session: string): Promise<WebSocket | null> => {
    const ws = new WebSocket(`${panel.base.replace("http", "ws")}/proxy/daemon/socket/${serverId}`, { headers: { cookie: `kiln=${session}`, origin: panel.base } } as unknown as string[]);
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
