// Attack: a node names a task's owner, and the panel believed it. Before a scheduled or triggered
// run the node asks the panel whether the task's owner may still do all of it, and a task's
// webhook step is reported by the node with the owner it names; the panel took that owner as
// given. A node taken over (it is a machine the panel reaches, not one it vouches for) named the
// administrator as owner: a plain user's task passed the check for steps the user may not run,
// and a step's text reached the administrator's panel-wide webhook endpoint. Here: the node asks,
// and reports, as a node does (a node token, over the panel's HTTP routes); the panel answers from
// its own record of who saved the task, refuses with the catalogue's ErrNoPermission a task it
// has no record of, and queues no delivery for any endpoint the recorded saver did not name.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, count, eq } from "drizzle-orm";
import { schema } from "../../db";
import { PANEL_CALLS } from "../../core/contract/panel-calls";
import { panelAuthorization } from "../../daemon/http/node-auth";
import { jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";

let rig: TaskCheckingPanel;
let ctx: PanelWithNode;

beforeAll(async () => {
  rig = await taskCheckingPanel();
  ctx = rig.ctx;
});
afterAll(() => rig.stop());

const admin = () => ctx.admin.token;
const tasksUrl = (serverId: string) => `/proxy/daemon/server/${serverId}/tasks`;

/** A call to the panel as the node makes it: a token signed with the node's secret for that one request. */
function asNode(path: string, body: unknown): Promise<Response> {
  return ctx.panel.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: panelAuthorization({ secret: rig.node.config.secret }, "POST", `http://panel${path}`) },
    body: JSON.stringify(body),
  });
}

async function saved(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** A panel-wide endpoint of the administrator's that hears no event these tests make (no node is deleted): only a step naming it reaches it. */
async function panelWideEndpoint(): Promise<number> {
  const made = await ctx.panel.request("/api/webhooks", { token: admin(), ...jsonInit("POST", { url: "http://127.0.0.1:9/hook", secret: "a-secret-of-enough-length", allowInternal: true, events: ["node.deleted"] }) });
  expect(made.status).toBe(201);
  return ((await made.json()) as { id: number }).id;
}

const queuedFor = async (webhookId: number) => (await ctx.panel.db.select({ n: count() }).from(schema.webhookDeliveries).where(eq(schema.webhookDeliveries.webhookId, webhookId)).get())!.n;
const saverRows = async (serverId: string) => await ctx.panel.db.select().from(schema.taskSavers).where(eq(schema.taskSavers.serverId, serverId)).all();

async function expectNoRecord(response: Response, taskId: string): Promise<void> {
  expect(response.status).toBe(403);
  const { error } = (await response.json()) as { error: { code: string; metadata: Record<string, unknown> } };
  expect(error.code).toBe("ErrNoPermission");
  expect(error.metadata).toMatchObject({ task: taskId });
  expect(String(error.metadata.reason)).toContain("no record of who saved the task");
}

describe("the check before a run: the saver is the panel's record, not the node's word", () => {
  test("a node naming the administrator as owner of a plain user's task: checked as the user, refused for a step the user may not run", async () => {
    const serverId = await ctx.createServer("owner-claimed");
    const user = await userWithFlags(ctx, serverId, ["editServerData", "sendServerConsole"]);
    const taskId = await saved(await ctx.panel.request(tasksUrl(serverId), { token: user.token, ...jsonInit("POST", { name: "chat", cronSchedule: "* * * * *", operations: [{ type: "console", command: "say hi" }] }) }));
    // The node's check of the task as saved passes: it is the user's, and the user may.
    expect((await asNode(PANEL_CALLS.taskCheck, { serverId, task: taskId, owner: user.userId, operations: ["console"], steps: [{ type: "console", command: "say hi" }] })).status).toBe(204);
    // A node taken over swaps the step for a command (administrators only) and names the administrator.
    const claimed = await asNode(PANEL_CALLS.taskCheck, { serverId, task: taskId, owner: ctx.admin.userId, operations: ["command"], steps: [{ type: "command", commands: ["id"] }] });
    expect(claimed.status).toBe(403);
    const { error } = (await claimed.json()) as { error: { code: string; metadata: Record<string, unknown> } };
    expect(error.code).toBe("ErrNoPermission");
    expect(String(error.metadata.reason)).toContain(`${user.email} no longer may`);
    // The record is unchanged: still the user's.
    expect((await saverRows(serverId)).map((r) => r.userId)).toEqual([user.userId]);
  });

  test("a task id the panel never saw, named as the administrator's (or anyone's), is refused with the catalogue's error", async () => {
    const serverId = await ctx.createServer("owner-unknown-task");
    // Made on the node without the panel (as a node of its own choosing would hold it).
    const made = (await rig.node.json("POST", `/daemon/server/${serverId}/tasks`, { name: "planted", cronSchedule: "* * * * *", operations: [{ type: "command", commands: ["id"] }], owner: ctx.admin.userId })) as { id: string };
    for (const owner of [ctx.admin.userId, 987654, undefined]) {
      await expectNoRecord(await asNode(PANEL_CALLS.taskCheck, { serverId, task: made.id, owner, operations: ["command"], steps: [{ type: "command", commands: ["id"] }] }), made.id);
    }
    // A node that names no task at all (one older than the panel's record) is refused alike.
    await expectNoRecord(await asNode(PANEL_CALLS.taskCheck, { serverId, owner: ctx.admin.userId, operations: ["command"] }), "");
    expect(await saverRows(serverId)).toEqual([]);
  });
});

describe("a webhook step: sent for the recorded saver, to an endpoint the saved task named, or not at all", () => {
  test("a node naming the administrator as owner of a plain user's task, or of a task the panel never saw, reaches no panel-wide endpoint", async () => {
    const serverId = await ctx.createServer("owner-webhook");
    const panelWide = await panelWideEndpoint();
    const user = await userWithFlags(ctx, serverId, ["editServerData", "sendServerConsole"]);
    const taskId = await saved(await ctx.panel.request(tasksUrl(serverId), { token: user.token, ...jsonInit("POST", { name: "chat", cronSchedule: null, operations: [{ type: "console", command: "say hi" }] }) }));
    const step = (task: string) => ({ serverId, event: "task.webhook", at: Date.now(), properties: { webhook: panelWide, text: "ATTACKER TEXT: log in at https://evil.example" }, actor: { type: "task", id: task, name: "chat", owner: ctx.admin.userId } });
    const reported = await asNode(PANEL_CALLS.events, { events: [step(taskId), step("feedbeef")] });
    expect(reported.status).toBe(200);
    expect(await queuedFor(panelWide)).toBe(0);
    // Nor is the event said on the administrator's behalf in the activity log.
    const logged = await ctx.panel.db.select({ onBehalfOf: schema.activity.onBehalfOf }).from(schema.activity).where(and(eq(schema.activity.serverId, serverId), eq(schema.activity.event, "task.webhook"))).all();
    expect(logged.length).toBe(2);
    expect(logged.map((r) => r.onBehalfOf)).not.toContain(ctx.admin.userId);
  });

  test("the administrator's own task: a node cannot send its text to another endpoint of theirs; the endpoint it names is reached", async () => {
    const serverId = await ctx.createServer("admin-webhook");
    const named = await panelWideEndpoint();
    const other = await panelWideEndpoint();
    const taskId = await saved(await ctx.panel.request(tasksUrl(serverId), { token: admin(), ...jsonInit("POST", { name: "announce", cronSchedule: null, operations: [{ type: "webhook", webhook: named, text: "restarting soon" }] }) }));
    const step = (webhook: number) => ({ serverId, event: "task.webhook", at: Date.now(), properties: { webhook, text: "ATTACKER TEXT" }, actor: { type: "task", id: taskId, name: "announce", owner: ctx.admin.userId } });
    expect((await asNode(PANEL_CALLS.events, { events: [step(other)] })).status).toBe(200);
    expect(await queuedFor(other)).toBe(0);
    // The step the administrator saved still reaches its endpoint.
    expect((await asNode(PANEL_CALLS.events, { events: [step(named)] })).status).toBe(200);
    expect(await queuedFor(named)).toBe(1);
  });
});

describe("the record goes with its task and its server", () => {
  test("deleted through the proxy, the task's record goes; deleted with its server, every record goes", async () => {
    const serverId = await ctx.createServer("owner-records");
    const body = { name: "t", cronSchedule: null, operations: [{ type: "console", command: "say hi" }] };
    const first = await saved(await ctx.panel.request(tasksUrl(serverId), { token: admin(), ...jsonInit("POST", body) }));
    const second = await saved(await ctx.panel.request(tasksUrl(serverId), { token: admin(), ...jsonInit("POST", body) }));
    expect((await saverRows(serverId)).map((r) => r.taskId).sort()).toEqual([first, second].sort());
    expect((await ctx.panel.request(`${tasksUrl(serverId)}/${first}`, { token: admin(), method: "DELETE" })).status).toBeLessThan(300);
    expect((await saverRows(serverId)).map((r) => r.taskId)).toEqual([second]);
    await expectNoRecord(await asNode(PANEL_CALLS.taskCheck, { serverId, task: first, owner: ctx.admin.userId, operations: ["console"] }), first);
    expect((await ctx.panel.request(`/api/servers/${serverId}`, { token: admin(), method: "DELETE" })).status).toBe(204);
    expect(await saverRows(serverId)).toEqual([]);
  });
});
