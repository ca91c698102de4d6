// Attack: co-users shut a server's owner out of their own console. The panel kept 5 of a server's
// 20 live-socket places for administrators and let everyone else, the owner included, share the
// other 15: three accounts the owner shared the server with as Viewers (console read only) opened
// 5 sockets each and the owner's console was refused (429) for as long as they kept them open.
// Now the owner's sockets count against a share of their own (OWNER_SOCKETS), apart from the
// co-users' (CO_USER_SOCKETS), so co-users together never take the owner's places nor the
// administrators'. Real node, real panel, real sockets; the rows of another panel's sockets count
// the same way (the shares are counted in the database).
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { and, eq, like } from "drizzle-orm";
import { MAX_SOCKETS_PER_SERVER } from "../../core/live/limits";
import { schema } from "../../db";
import { ADMIN_SOCKETS, CO_USER_SOCKETS, MAX_SOCKETS_PER_USER, OWNER_SOCKETS } from "../../server/live-proxy/socket-places";
import { loginAs } from "../helpers/app";
import { eventually } from "../helpers/node";
import { servedPanelWithServer, userWithFlags, type ServedPanel } from "../helpers/panel-node";

/** Another panel process, as panel_instances names it. */
const ELSEWHERE = "elsewhere:1:abcdef";

describe("a server owned by an account that is not an administrator", () => {
  let rig: ServedPanel;
  let owner: { token: string; userId: number; email: string };
  let id: string;
  beforeAll(async () => {
    rig = await servedPanelWithServer("socket-owner-rig");
    owner = await loginAs(rig.ctx.panel.db, []);
    id = await rig.ctx.createServer("owned", { user: owner.email });
  }, 60_000);
  afterAll(() => rig?.stop());
  const opened: WebSocket[] = [];
  afterEach(async () => {
    const closing = opened.splice(0).filter((ws) => ws.readyState !== WebSocket.CLOSED);
    await Promise.all(closing.map((ws) => new Promise((resolve) => (ws.addEventListener("close", resolve), ws.close()))));
    await rig.ctx.panel.db.delete(schema.panelInstances).where(eq(schema.panelInstances.id, ELSEWHERE)).run();
  });

  const origin = () => `http://127.0.0.1:${rig.server.port}`;
  /** A console socket once the node's first status came through it (its place counted); null when refused. */
  function open(token: string): Promise<WebSocket | null> {
    const ws = new WebSocket(`ws://127.0.0.1:${rig.server.port}/proxy/daemon/socket/${id}`, { headers: { cookie: `kiln=${token}`, origin: origin() } } as any);
    opened.push(ws);
    const frames: string[] = [];
    ws.onmessage = (e) => frames.push(String(e.data));
    return new Promise((resolve) => {
      ws.onerror = () => resolve(null);
      ws.onclose = () => resolve(null);
      ws.onopen = () => void eventually(() => frames.some((f) => f.startsWith('{"type":"status"')), 5000, "status").then(() => resolve(ws), () => resolve(null));
    });
  }
  /** An upgrade by hand, so a refusal's status and body can be read. */
  const upgrade = (token: string) =>
    fetch(`${origin()}/proxy/daemon/socket/${id}`, {
      headers: { cookie: `kiln=${token}`, origin: origin(), host: `127.0.0.1:${rig.server.port}`, upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
    });
  const held = async (token: string, count: number) => (await Promise.all(Array.from({ length: count }, () => open(token)))).filter(Boolean).length;

  test("three Viewers holding every socket they may open leave the owner's console open, and the administrators'", async () => {
    expect(OWNER_SOCKETS + CO_USER_SOCKETS + ADMIN_SOCKETS).toBe(MAX_SOCKETS_PER_SERVER);
    const viewers = await Promise.all([0, 1, 2].map(() => userWithFlags(rig.ctx, id, ["viewServerConsole"])));
    let theirs = 0;
    for (const viewer of viewers) for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await open(viewer.token)) theirs++;
    const ownersOwn = await held(owner.token, OWNER_SOCKETS);
    console.log(`three Viewers hold ${theirs} of ${MAX_SOCKETS_PER_SERVER} sockets; the owner got ${ownersOwn} of ${OWNER_SOCKETS}`);
    // The owner's whole share, then no more (their own bound still holds).
    expect(ownersOwn).toBe(OWNER_SOCKETS);
    expect((await upgrade(owner.token)).status).toBe(429);
    expect(theirs).toBe(CO_USER_SOCKETS);
    // A co-user past the co-users' share is refused, with the catalogue's error.
    const refused = await upgrade(viewers[2]!.token);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("ErrTooManyRequests");
    // And the administrators' places are still there: every one of the node's places is in use now.
    expect(await held(rig.ctx.admin.token, ADMIN_SOCKETS)).toBe(ADMIN_SOCKETS);
  }, 60_000);

  test("the owner's sockets take none of the co-users' places: the owner first, the co-users still hold theirs", async () => {
    expect(await held(owner.token, OWNER_SOCKETS)).toBe(OWNER_SOCKETS);
    const viewers = await Promise.all([0, 1, 2].map(() => userWithFlags(rig.ctx, id, ["viewServerConsole"])));
    let theirs = 0;
    for (const viewer of viewers) for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) if (await open(viewer.token)) theirs++;
    expect(theirs).toBe(CO_USER_SOCKETS);
  }, 60_000);

  test("co-users' sockets held through another panel count too, and still leave the owner's places", async () => {
    // Another live panel process holding co-users' sockets on this server: its rows in the database.
    const db = rig.ctx.panel.db;
    const now = Date.now();
    await db.insert(schema.panelInstances).values({ id: ELSEWHERE, host: "elsewhere", pid: 1, localNode: false, startedAt: now, seenAt: now }).run();
    const viewers = await Promise.all([0, 1].map(() => userWithFlags(rig.ctx, id, ["viewServerConsole"])));
    const rows = viewers.flatMap((viewer) => Array.from({ length: MAX_SOCKETS_PER_USER }, (_, i) => ({ kind: "socket", key: `${id}|user:${viewer.userId}|${ELSEWHERE}|r${viewer.userId}x${i}`, value: "", expiresAt: Number.MAX_SAFE_INTEGER })));
    expect(rows.length).toBe(CO_USER_SOCKETS);
    await db.insert(schema.oneTimeValues).values(rows).run();
    try {
      const third = await userWithFlags(rig.ctx, id, ["viewServerConsole"]);
      expect((await upgrade(third.token)).status).toBe(429);
      expect(await held(owner.token, OWNER_SOCKETS)).toBe(OWNER_SOCKETS);
    } finally {
      await db.delete(schema.oneTimeValues).where(and(eq(schema.oneTimeValues.kind, "socket"), like(schema.oneTimeValues.key, `%|${ELSEWHERE}|%`))).run();
    }
  }, 60_000);
});
