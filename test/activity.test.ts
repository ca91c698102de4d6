// The activity log answers "who did this" through every door: logins (password, refused), the
// socket (a console command, a power action), SFTP (a file written, renamed and deleted, reported
// by the real node over its event channel), the API; shown on the Activity page, a server's
// Activity tab and the account page; exported as CSV; kept within its retention settings.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { schema } from "../db";
import { loginAs, HTML } from "./helpers/app";
import { eventually } from "./helpers/node";
import { jsonInit, servedPanelWithServer, type ServedPanel } from "./helpers/panel-node";
import { hasSftpClient, sftpBatch, sftpRig, type SftpRig } from "./helpers/sftp";
import { pruneActivity } from "../server/services/activity/retention";
import { recordEvent } from "../server/services/activity/record";
import { SYSTEM } from "../server/services/activity/actor";
import { writeSettings } from "../server/services/settings";

const rowsOf = async (db: ServedPanel["ctx"]["panel"]["db"], event: string) => await db.select().from(schema.activity).where(eq(schema.activity.event, event)).orderBy(schema.activity.id).all();

describe("logins, the socket door, the pages", () => {
  let rig: ServedPanel;
  beforeAll(async () => {
    rig = await servedPanelWithServer("logged");
  });
  afterAll(() => rig.stop());
  const db = () => rig.ctx.panel.db;

  test("a login and a refused one are recorded with the name tried and the address, never the password", async () => {
    const user = await loginAs(db(), []);
    const base = `http://127.0.0.1:${rig.server.port}`;
    const wrong = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email: user.email, password: "not-my-password" }) });
    expect(wrong.status).toBe(400);
    const right = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email: user.email, password: "password123" }) });
    expect(right.status).toBe(200);
    const failed = (await rowsOf(db(), "user.login.failed")).at(-1)!;
    expect(failed).toMatchObject({ actorType: "system", subject: String(user.userId), ip: "127.0.0.1" });
    expect(JSON.parse(failed.properties)).toEqual({ username: user.email, reason: "ErrInvalidCredentials" });
    const ok = (await rowsOf(db(), "user.login")).at(-1)!;
    expect(ok).toMatchObject({ actorType: "user", actorId: String(user.userId), ip: "127.0.0.1" });
    expect(JSON.stringify(await db().select().from(schema.activity).all())).not.toContain("not-my-password");
    // The account page lists both, with the address: the owner sees who tried.
    const page = await rig.ctx.page("/account", user.token);
    expect(page.html).toContain('data-testid="account-logins"');
    expect(page.html).toContain("user.login.failed");
    expect(page.html).toContain("127.0.0.1");
  });

  test("a console command and a power action sent over the socket are recorded as the sender's", async () => {
    const base = `ws://127.0.0.1:${rig.server.port}`;
    const ws = new WebSocket(`${base}/proxy/daemon/socket/${rig.id}`, { headers: { cookie: `kiln=${rig.ctx.admin.token}`, host: `127.0.0.1:${rig.server.port}` } } as any);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = reject;
    });
    ws.send(JSON.stringify({ type: "start" }));
    await eventually(async () => ((await (await rig.node.call("GET", `/daemon/server/${rig.id}/status`)).json()) as { running: boolean }).running, 10_000, "the start");
    ws.send(JSON.stringify({ type: "console", command: "give me diamonds" }));
    await eventually(async () => (await rowsOf(db(), "server.console.command")).length > 0, 5000, "the command's row");
    ws.close();
    expect((await rowsOf(db(), "server.power.start")).at(-1)).toMatchObject({ serverId: rig.id, actorId: String(rig.ctx.admin.userId) });
    expect(JSON.parse((await rowsOf(db(), "server.console.command")).at(-1)!.properties)).toEqual({ command: "give me diamonds" });
  });

  test("the Activity page filters by event and server and pages; the export is CSV of the same filter", async () => {
    const page = await rig.ctx.page(`/activity?event=server.*&server=${rig.id}`, rig.ctx.admin.token);
    expect(page.status).toBe(200);
    expect(page.html).toContain('data-event="server.console.command"');
    expect(page.html).not.toContain('data-event="user.login"');
    const csv = await rig.ctx.panel.request(`/api/activity?format=csv&event=server.console.command`, { token: rig.ctx.admin.token });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text()).trim().split("\r\n");
    expect(lines[0]).toBe("id,at,event,actorType,actorId,actorName,serverId,subject,ip,properties");
    expect(lines.slice(1).every((line) => line.includes("server.console.command"))).toBe(true);
    const api = (await (await rig.ctx.panel.request(`/api/servers/${rig.id}/activity?limit=1&page=1`, { token: rig.ctx.admin.token })).json()) as { events: unknown[]; paging: { total: number; size: number } };
    expect(api.events).toHaveLength(1);
    expect(api.paging.total).toBeGreaterThan(1);
  });

  test("the server's Activity tab shows its rows to holders of viewActivity", async () => {
    const reader = await loginAs(db(), []);
    await rig.ctx.panel.request(`/api/servers/${rig.id}/user/${encodeURIComponent(reader.email)}`, { token: rig.ctx.admin.token, ...jsonInit("PUT", { viewActivity: true }) });
    const tab = await rig.ctx.panel.request(`/server/${rig.id}?tab=activity`, { token: reader.token, headers: HTML });
    const html = await tab.text();
    expect(html).toContain('data-testid="server-activity"');
    expect(html).toContain("give me diamonds");
  });
});

describe.skipIf(!hasSftpClient())("the SFTP door", () => {
  let rig: SftpRig;
  beforeAll(async () => {
    rig = await sftpRig();
  });
  afterAll(() => rig.stop());

  test("a file written, renamed and deleted over SFTP: each recorded with the user who did it", async () => {
    const id = await rig.createServer("sftp-logged");
    const login = { email: rig.admin.email, serverId: id, password: "password123" };
    const result = await sftpBatch(rig.node.sftpPort, login, ["put /etc/hostname plans.txt", "rename plans.txt old-plans.txt", "rm old-plans.txt", "mkdir maps"]);
    expect(result.code, result.err).toBe(0);
    const db = rig.panel.db;
    const about = async (event: string) => await db.select().from(schema.activity).where(and(eq(schema.activity.event, event), eq(schema.activity.serverId, id))).all();
    await eventually(async () => (await about("server.file.delete")).length > 0 && (await about("server.file.write")).length >= 2, 5000, "the node's report");
    expect((await about("server.sftp.login"))[0]).toMatchObject({ actorType: "user", actorId: String(rig.admin.userId), ip: "127.0.0.1" });
    expect((await about("server.file.write")).map((r) => JSON.parse(r.properties))).toEqual([{ path: "plans.txt", via: "sftp" }, { path: "maps", folder: true, via: "sftp" }]);
    expect(JSON.parse((await about("server.file.rename"))[0]!.properties)).toEqual({ from: "plans.txt", to: "old-plans.txt", via: "sftp" });
    expect((await about("server.file.delete"))[0]).toMatchObject({ actorType: "user", actorId: String(rig.admin.userId) });
  }, 30_000);
});

describe("retention", () => {
  let rig: ServedPanel;
  beforeAll(async () => {
    rig = await servedPanelWithServer("kept");
  });
  afterAll(() => rig.stop());

  test("rows older than the retention go, then the oldest beyond the maximum; newer ones stay", async () => {
    const db = rig.ctx.panel.db;
    const now = Date.now();
    await db.delete(schema.activity).run();
    for (let i = 0; i < 5; i++) await recordEvent(db, "node.changed", { actor: SYSTEM, at: now - 100 * 86_400_000, properties: { name: `old${i}` } });
    for (let i = 0; i < 1200; i++) await recordEvent(db, "node.changed", { actor: SYSTEM, at: now - i, properties: { name: `new${i}` } });
    await writeSettings(db, { scopes: ["servers.admin"] }, { "panel.activity.retentionDays": "90", "panel.activity.maxRows": "1000" }, { themes: [] });
    await pruneActivity(db, () => false, now);
    const left = await db.select().from(schema.activity).all();
    expect(left.length).toBe(1000);
    expect(left.every((r) => r.at > now - 90 * 86_400_000)).toBe(true);
    // The newest rows are the ones kept (the settings change itself is the newest of all).
    expect(left.some((r) => r.event === "settings.changed")).toBe(true);
  });

  test("the settings refuse a retention outside their bounds", async () => {
    const res = await rig.ctx.panel.request("/api/settings", { token: rig.ctx.admin.token, ...jsonInit("POST", { "panel.activity.retentionDays": "0" }), headers: { "content-type": "application/json", origin: "http://localhost" } });
    expect(res.status).toBe(400);
  });
});
