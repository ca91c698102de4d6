// Attack: the upgrade's one-time record of who saved each earlier task (services/tasks/
// saver-backfill) takes a node's word, so a node must not be able to use it beyond that: to name
// the administrator as the saver of a task on a server made after the upgrade, or to have an
// account that does not exist recorded (a later account given that id would inherit the task).
// Here the node is a real node whose task file names those owners, as a node taken over would
// write it; the heartbeat's pass over it records nothing for them, and their checks before a run
// stay refused with the catalogue's ErrNoPermission. And a node's answer is bounded: no more tasks
// than a server may hold are read, and a body that never ends is given up on, the server left
// pending.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { PANEL_CALLS } from "../../core/contract/panel-calls";
import { MAX_SERVER_TASKS_BYTES, MAX_TASKS_PER_SERVER } from "../../core/tasks";
import { nodeProof, NODE_PROOF_PATH } from "../../core/node-token";
import { SCOPES } from "../../core/scopes";
import { checkNode } from "../../server/node-heartbeat";
import { backfillTaskSavers } from "../../server/services/tasks/saver-backfill";
import { loginAs, testPanel } from "../helpers/app";
import type { PanelWithNode } from "../helpers/panel-node";
import { asNode, taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

let rig: TaskCheckingPanel;
let ctx: PanelWithNode;

beforeAll(async () => {
  rig = await taskCheckingPanel();
  ctx = rig.ctx;
});
afterAll(() => rig?.stop());

const steps = [{ type: "command", commands: ["id"] }];
const saverRows = async (serverId: string) => await ctx.panel.db.select().from(schema.taskSavers).where(eq(schema.taskSavers.serverId, serverId)).all();
const pendingRows = async (serverId: string) => await ctx.panel.db.select().from(schema.taskSaverBackfills).where(eq(schema.taskSaverBackfills.serverId, serverId)).all();
/** A task written into the node's file without the panel, naming `owner`. */
const planted = async (serverId: string, owner: unknown) => ((await rig.node.json("POST", `/daemon/server/${serverId}/tasks`, { name: "planted", cronSchedule: "* * * * *", operations: steps, owner })) as { id: string }).id;

async function expectRefused(serverId: string, task: string, owner: unknown): Promise<void> {
  const response = await asNode(rig, PANEL_CALLS.taskCheck, { serverId, task, owner, operations: ["command"], steps });
  expect(response.status).toBe(403);
  const { error } = (await response.json()) as { error: { code: string; metadata: Record<string, unknown> } };
  expect(error.code).toBe("ErrNoPermission");
  expect(String(error.metadata.reason)).toContain("no record of who saved the task");
}

describe("the upgrade's record of earlier tasks' savers takes nothing else from a node", () => {
  test("a server made after the upgrade: its node naming the administrator as a task's owner is never recorded", async () => {
    const serverId = await ctx.createServer("after-upgrade");
    expect(await pendingRows(serverId)).toEqual([]);
    const task = await planted(serverId, ctx.admin.userId);
    await checkNode(ctx.panel.db, ctx.nodeId);
    await checkNode(ctx.panel.db, ctx.nodeId);
    expect(await saverRows(serverId)).toEqual([]);
    await expectRefused(serverId, task, ctx.admin.userId);
  });

  test("a server that existed at upgrade: a task naming an account that does not exist is not recorded, and the server is not asked again", async () => {
    const serverId = await ctx.createServer("ghost-owner");
    const ghost = await planted(serverId, 987654);
    await ctx.panel.db.insert(schema.taskSaverBackfills).values({ serverId }).run();
    await checkNode(ctx.panel.db, ctx.nodeId);
    expect(await saverRows(serverId)).toEqual([]);
    expect(await pendingRows(serverId)).toEqual([]);
    await expectRefused(serverId, ghost, 987654);
    // Planted after the one pass, naming the administrator: never recorded either.
    const later = await planted(serverId, ctx.admin.userId);
    await checkNode(ctx.panel.db, ctx.nodeId);
    expect(await saverRows(serverId)).toEqual([]);
    await expectRefused(serverId, later, ctx.admin.userId);
  });
});

describe("a node's task list is read within bounds", () => {
  const SECRET = "hostile-node-secret-0123456789abcdef";
  const SERVER_ID = "0badc0de";
  /** What the listener answers a server's task list with. */
  let answer: () => Response = () => Response.json({ tasks: {} });
  let sent = 0;

  test("more tasks than a server may hold: only that many are recorded; a body past the bound: nothing, and the server stays pending", async () => {
    const panel = await testPanel();
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const hostile = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch(request) {
        const url = new URL(request.url);
        if (url.pathname === NODE_PROOF_PATH) return Response.json({ proof: nodeProof(SECRET, Number(url.searchParams.get("node")), url.searchParams.get("challenge") ?? "") });
        return answer();
      },
    });
    try {
      const node = await panel.db.insert(schema.nodes).values({ name: "hostile", publicHost: "127.0.0.1", publicPort: hostile.port!, privateHost: "127.0.0.1", privatePort: hostile.port!, sftpPort: 5657, secret: SECRET, createdAt: new Date() }).returning().get();
      await panel.db.insert(schema.servers).values({ id: SERVER_ID, name: "on the hostile node", nodeId: node.id, createdAt: new Date() }).run();
      const pending = () => panel.db.insert(schema.taskSaverBackfills).values({ serverId: SERVER_ID }).run();
      const rows = async () => await panel.db.select().from(schema.taskSavers).where(eq(schema.taskSavers.serverId, SERVER_ID)).all();

      // A body that never ends: read up to the bound, then given up on.
      const chunk = new Uint8Array(64 * 1024).fill(0x20);
      answer = () => {
        sent = 0;
        let first = true;
        const body = new ReadableStream<Uint8Array>({
          pull(controller) {
            if (first) {
              first = false;
              controller.enqueue(new TextEncoder().encode('{"tasks":{"a":{"owner":1,"name":"'));
              return;
            }
            sent += chunk.byteLength;
            controller.enqueue(chunk);
          },
        });
        return new Response(body, { headers: { "content-type": "application/json" } });
      };
      await pending();
      await backfillTaskSavers(panel.db, node);
      expect(await rows()).toEqual([]);
      expect((await panel.db.select().from(schema.taskSaverBackfills).all()).length).toBe(1);
      // What the node pushed: the bound (twice a server's tasks), plus what loopback sockets' buffers hold.
      expect(sent).toBeLessThan(2 * MAX_SERVER_TASKS_BYTES + 16 * 1024 * 1024);

      // A list longer than a server may hold: the first MAX_TASKS_PER_SERVER only.
      const tasks = Object.fromEntries(Array.from({ length: MAX_TASKS_PER_SERVER + 50 }, (_, i) => [`t${i}`, { name: "x", owner: admin.userId, operations: [] }]));
      answer = () => Response.json({ tasks });
      await backfillTaskSavers(panel.db, node);
      expect((await rows()).length).toBe(MAX_TASKS_PER_SERVER);
      expect(await panel.db.select().from(schema.taskSaverBackfills).all()).toEqual([]);
    } finally {
      hostile.stop(true);
    }
  });
});
