// Upgrading to a panel that keeps its own record of each task's saver (task_savers) does not stop
// the tasks saved before: the migration lists every server that exists then
// (task_saver_backfills), and the heartbeat's pass over a node that answers records, once, the
// saver its node names for each of those servers' tasks (services/tasks/saver-backfill). Here a
// task is made on a real node as an older panel made it (owner in the body), the server is left
// pending as the migration leaves it, and the node's check before a run passes after one pass.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { Database } from "bun:sqlite";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { eq, getTableName } from "drizzle-orm";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { openDatabase, schema } from "../db";
import { readMigrations } from "../db/migrate";
import { postgresMigrations } from "../db/postgres/migrations";
import { journal } from "../db/migrations";
import { PANEL_CALLS } from "../core/contract/panel-calls";
import { checkNode } from "../server/node-heartbeat";
import { tablesInOrder } from "../server/services/database/copy";
import { backfillTaskSavers } from "../server/services/tasks/saver-backfill";
import { freshPostgresDatabase, hasPostgres } from "./helpers/database";
import { jsonInit, userWithFlags, type PanelWithNode } from "./helpers/panel-node";
import { asNode, taskCheckingPanel, type TaskCheckingPanel } from "./helpers/task-checking-panel";

// The migrations before the backfill's, by name: later ones are added after it.
const SQLITE_BEFORE = journal.entries.findIndex((entry) => entry.tag === "0016_task_saver_backfills");
const POSTGRES_BEFORE = postgresMigrations.findIndex((migration) => migration.name === "0003_task_saver_backfills");

describe("the migration lists the servers that exist at upgrade, and no other", () => {
  const nodeRow = "insert into nodes (name, public_host, public_port, private_host, private_port, sftp_port, secret, created_at) values ('n', 'h', 1, 'h', 1, 2, 's', 0)";
  const serverRow = (id: string) => `insert into servers (id, name, node_id, created_at) values ('${id}', '${id}', 1, 0)`;

  test("SQLite", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-backfill-"));
    try {
      const path = join(dir, "kiln.db");
      // The database as the release before left it: every migration up to task_savers.
      const before = new Database(path, { create: true, strict: true });
      const internal = drizzle({ client: before }) as unknown as { dialect: { migrate(m: unknown, s: unknown, c: object): void }; session: unknown };
      internal.dialect.migrate(readMigrations().slice(0, SQLITE_BEFORE), internal.session, {});
      before.run(nodeRow);
      before.run(serverRow("0ld5erv1"));
      before.run(serverRow("0ld5erv2"));
      before.close();
      const db = await openDatabase(path);
      try {
        expect((await db.select().from(schema.taskSaverBackfills).all()).map((r) => r.serverId).sort()).toEqual(["0ld5erv1", "0ld5erv2"]);
        await db.$kiln.raw(serverRow("n3wserv1"));
        expect((await db.select().from(schema.taskSaverBackfills).all()).length).toBe(2);
        await db.$kiln.raw("delete from servers where id = '0ld5erv1'");
        expect((await db.select().from(schema.taskSaverBackfills).all()).map((r) => r.serverId)).toEqual(["0ld5erv2"]);
      } finally {
        await db.$kiln.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test.if(hasPostgres())("PostgreSQL", async () => {
    const url = await freshPostgresDatabase();
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query("create table kiln_migrations (name text primary key, hash text not null, applied_at bigint not null)");
      for (const { name, sql } of postgresMigrations.slice(0, POSTGRES_BEFORE)) {
        await client.query(sql);
        await client.query("insert into kiln_migrations (name, hash, applied_at) values ($1, '', 0)", [name]);
      }
      // A fresh database's first node is node 1, on either engine.
      await client.query(nodeRow);
      await client.query(serverRow("0ld5erv1"));
    } finally {
      await client.end();
    }
    const db = await openDatabase(url);
    try {
      expect((await db.select().from(schema.taskSaverBackfills).all()).map((r) => r.serverId)).toEqual(["0ld5erv1"]);
    } finally {
      await db.$kiln.close();
    }
  });

  test("kiln db migrate-to carries the servers still pending, after the servers they name", () => {
    const names = tablesInOrder().map((t) => getTableName(t));
    expect(names).toContain("task_saver_backfills");
    expect(names.indexOf("task_saver_backfills")).toBeGreaterThan(names.indexOf("servers"));
  });
});

let rig: TaskCheckingPanel;
let ctx: PanelWithNode;

beforeAll(async () => {
  rig = await taskCheckingPanel();
  ctx = rig.ctx;
});
afterAll(() => rig?.stop());

const nodeTasks = (serverId: string) => `/daemon/server/${serverId}/tasks`;
const saverRows = async (serverId: string) => await ctx.panel.db.select().from(schema.taskSavers).where(eq(schema.taskSavers.serverId, serverId)).all();
const pending = async (serverId: string) => (await ctx.panel.db.select().from(schema.taskSaverBackfills).where(eq(schema.taskSaverBackfills.serverId, serverId)).all()).length > 0;
/** The server as the migration leaves one that existed at upgrade. */
const existedAtUpgrade = (serverId: string) => ctx.panel.db.insert(schema.taskSaverBackfills).values({ serverId }).run();

describe("the heartbeat records the savers of tasks saved before the upgrade, once", () => {
  test("a user's task made before the upgrade: refused until the pass, then recorded as the user's, and its check passes", async () => {
    const serverId = await ctx.createServer("before-upgrade");
    const user = await userWithFlags(ctx, serverId, ["editServerData", "sendServerConsole", "manageWebhooks"]);
    const hook = await ctx.panel.request("/api/webhooks", { token: ctx.admin.token, ...jsonInit("POST", { url: "http://127.0.0.1:9/hook", secret: "a-secret-of-enough-length", allowInternal: true, serverId, events: ["node.deleted"] }) });
    expect(hook.status, await hook.clone().text()).toBe(201);
    const webhook = ((await hook.json()) as { id: number }).id;
    const steps = [{ type: "console", command: "say restarting" }, { type: "webhook", webhook, text: "restarting" }];
    const made = (await rig.node.json("POST", nodeTasks(serverId), { name: "nightly", cronSchedule: "0 4 * * *", operations: steps, owner: user.userId })) as { id: string };
    const check = () => asNode(rig, PANEL_CALLS.taskCheck, { serverId, task: made.id, owner: user.userId, operations: ["console", "webhook"], steps });
    expect((await check()).status).toBe(403);
    await existedAtUpgrade(serverId);
    await checkNode(ctx.panel.db, ctx.nodeId);
    expect(await saverRows(serverId)).toEqual([{ serverId, taskId: made.id, userId: user.userId, clientId: null, webhooks: [webhook], savedAt: expect.any(Number) }]);
    expect(await pending(serverId)).toBe(false);
    const passed = await check();
    expect(passed.status, await passed.clone().text()).toBe(204);
  });

  test("a task saved through the panel since keeps the panel's record; a client's task is recorded with its client, one not its owner's is not", async () => {
    const serverId = await ctx.createServer("mixed-upgrade");
    const user = await userWithFlags(ctx, serverId, ["editServerData", "sendServerConsole"]);
    const other = await userWithFlags(ctx, serverId, ["editServerData"]);
    const body = { name: "t", cronSchedule: null, operations: [{ type: "console", command: "say hi" }] };
    const viaPanel = await ctx.panel.request(`/proxy/daemon/server/${serverId}/tasks`, { token: user.token, ...jsonInit("POST", body) });
    expect(viaPanel.status).toBe(201);
    const savedSince = ((await viaPanel.json()) as { id: string }).id;
    // The node's file names the administrator for it now: the panel's own record stays.
    await rig.node.json("PUT", `${nodeTasks(serverId)}/${savedSince}`, { ...body, owner: ctx.admin.userId });
    for (const [clientId, userId] of [["client-of-user", user.userId], ["client-of-other", other.userId]] as const) {
      await ctx.panel.db.insert(schema.oauth2Clients).values({ clientId, userId, secretHash: "x", createdAt: new Date() }).run();
    }
    const byClient = (await rig.node.json("POST", nodeTasks(serverId), { ...body, owner: user.userId, client: "client-of-user" })) as { id: string };
    const borrowed = (await rig.node.json("POST", nodeTasks(serverId), { ...body, owner: user.userId, client: "client-of-other" })) as { id: string };
    const unknownClient = (await rig.node.json("POST", nodeTasks(serverId), { ...body, owner: user.userId, client: "no-such-client" })) as { id: string };
    await existedAtUpgrade(serverId);
    await checkNode(ctx.panel.db, ctx.nodeId);
    const rows = new Map((await saverRows(serverId)).map((r) => [r.taskId, r]));
    expect(rows.get(savedSince)).toMatchObject({ userId: user.userId, clientId: null });
    expect(rows.get(byClient.id)).toMatchObject({ userId: user.userId, clientId: "client-of-user" });
    expect(rows.has(borrowed.id)).toBe(false);
    expect(rows.has(unknownClient.id)).toBe(false);
    expect(rows.size).toBe(2);
    expect(await pending(serverId)).toBe(false);
  });

  test("a node that does not answer leaves its servers pending for the next pass", async () => {
    const serverId = await ctx.createServer("away-upgrade");
    const made = (await rig.node.json("POST", nodeTasks(serverId), { name: "t", cronSchedule: null, operations: [], owner: ctx.admin.userId })) as { id: string };
    await existedAtUpgrade(serverId);
    const node = (await ctx.panel.db.select().from(schema.nodes).where(eq(schema.nodes.id, ctx.nodeId)).get())!;
    // The same node at an address nothing listens on (port 9, discard, is closed here).
    await backfillTaskSavers(ctx.panel.db, { ...node, privatePort: 9 });
    expect(await pending(serverId)).toBe(true);
    expect(await saverRows(serverId)).toEqual([]);
    await backfillTaskSavers(ctx.panel.db, node);
    expect((await saverRows(serverId)).map((r) => r.taskId)).toEqual([made.id]);
    expect(await pending(serverId)).toBe(false);
  });
});
