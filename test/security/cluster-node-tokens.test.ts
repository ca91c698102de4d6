// A node's calls to the panel (its events, SFTP logins, scheduled-task checks) each carry a token
// signed for that one request and good once. The body is not signed: whoever catches a token on
// its way (a node reaching the panel over plain HTTP) may send it again with a body of their own,
// and only the "good once" stops them. Each panel process kept the nonces it had seen in its own
// memory, so behind a balancer a token already used at one panel was taken again by the other:
// forged activity entries for the node's servers (and the webhooks they reach). The nonce is now
// written to the database, so a token is good once across every panel. Two real panel processes
// on one PostgreSQL database.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase, schema, type Db } from "../../db";
import { signNodeToken } from "../../core/node-token";
import { PANEL_CALLS } from "../../core/contract/panel-calls";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { killPanels, startPanelProcess, type PanelProcess } from "../helpers/panel-process";

const SECRET = "a-node-secret-of-some-length-0123456789";
let db: Db;
let a: PanelProcess;
let b: PanelProcess;
let nodeId: number;

describe.if(hasPostgres())("two panels on one PostgreSQL database: a node's token", () => {
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    db = await openDatabase(url);
    [a, b] = await Promise.all([startPanelProcess(url), startPanelProcess(url)]);
    [{ id: nodeId }] = await db.insert(schema.nodes).values({ name: "far", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: SECRET, createdAt: new Date() }).returning({ id: schema.nodes.id }).all() as [{ id: number }];
    await db.insert(schema.servers).values({ id: "0dd0beef", name: "held", nodeId, createdAt: new Date() }).run();
  }, 60_000);
  afterAll(async () => {
    await killPanels([a, b].filter(Boolean));
    await db?.$kiln.close();
  });

  const report = (base: string, token: string, event: string) =>
    fetch(`${base}${PANEL_CALLS.events}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify({ events: [{ serverId: "0dd0beef", event, at: Date.now() }] }) });
  const recorded = async (event: string) => (await db.select({ id: schema.activity.id }).from(schema.activity).where(eq(schema.activity.event, event)).all()).length;

  test("a token used at one panel is refused at the other, with another body: nothing recorded twice", async () => {
    const token = signNodeToken(SECRET, { direction: "to-panel", nodeId, method: "POST", target: PANEL_CALLS.events });
    const first = await report(a.base, token, "server.started");
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ recorded: 1 });
    // Caught on the way and sent again, to the other panel, saying the server crashed.
    const replayed = await report(b.base, token, "server.crashed");
    expect(replayed.status).toBe(401);
    expect(((await replayed.json()) as { error: { code: string } }).error.code).toBe("ErrInvalidCredentials");
    // And to the first panel, as before.
    expect((await report(a.base, token, "server.crashed")).status).toBe(401);
    expect(await recorded("server.started")).toBe(1);
    expect(await recorded("server.crashed")).toBe(0);
    // A fresh token is taken by either panel.
    for (const base of [b.base, a.base]) expect((await report(base, signNodeToken(SECRET, { direction: "to-panel", nodeId, method: "POST", target: PANEL_CALLS.events }), "server.stopped")).status).toBe(200);
    expect(await recorded("server.stopped")).toBe(2);
  });
});
