// Attack: a task as a way around an OAuth2 client's limits. A client an administrator bound to
// one server carries no panel-wide scope: it cannot read or test the panel-wide webhooks
// (GET /api/webhooks/:id answers 404). It saved a task on its server whose webhook step named one
// of them, and running it sent text of its choosing to the administrators' endpoint, since the
// step was checked against the task's owner, the administrator. And a leaked client's scheduled
// task kept running after the client was deleted: the node keeps only the owner, and the panel's
// check before a run asked only about them. Here: the step is refused when saved, by every door
// (the JSON API's POST and PUT, the tasks tab's plain form), seen as the saving caller sees the
// endpoint; the step is checked again when it runs, as the client that saved the task sees it;
// and a deleted client's task is not run on schedule (the node asks the panel over HTTP, as a
// remote node does, and writes the reason on the console as for a user deleted).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { StoredTask } from "../../core/tasks";
import { nodeCredentials } from "../../daemon/config";
import { PanelReporter } from "../../daemon/events/reporter";
import { panelTaskCheck } from "../../daemon/tasks/panel-check";
import { WebhookWorker } from "../../server/services/webhooks/worker";
import { FakeClock } from "../helpers/fake-clock";
import { eventually } from "../helpers/node";
import { boundClient, formInit, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { taskCheckingPanel, type TaskCheckingPanel } from "../helpers/task-checking-panel";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

const clock = new FakeClock(new Date(2026, 10, 23, 12, 0, 30).getTime());
let rig: TaskCheckingPanel;
let ctx: PanelWithNode;
let receiver: Receiver;
let worker: WebhookWorker;
/** The panel over HTTP, for the node's reports and for asking its check directly. */
let served: ReturnType<typeof Bun.serve>;
let reporter: PanelReporter;
let forward: ReturnType<typeof setInterval>;

beforeAll(async () => {
  rig = await taskCheckingPanel({ clock });
  ctx = rig.ctx;
  receiver = startReceiver();
  worker = new WebhookWorker(ctx.panel.db, { panelPort: 1 }, { delaysMs: [100, 200], giveUpAfterMs: 60_000 });
  worker.start();
  served = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (r) => ctx.panel.app.fetch(r) });
  // The node's reports (a webhook step among them) reach the panel as a real node's do.
  reporter = new PanelReporter(`http://127.0.0.1:${served.port}`, nodeCredentials(ctx.node.config), () => undefined);
  let forwarded = 0;
  forward = setInterval(() => {
    for (const event of ctx.node.events.slice(forwarded)) reporter.report(event);
    forwarded = ctx.node.events.length;
  }, 20);
});
afterAll(async () => {
  clearInterval(forward);
  reporter.stop();
  served.stop(true);
  worker.stop();
  receiver.stop();
  await rig.stop();
});

type Headers = Record<string, string>;
const as = (headers: Headers, method: string, path: string, body?: unknown) => ctx.panel.request(path, { ...jsonInit(method, body), headers: { ...headers, "content-type": "application/json" } });
const admin = (): Headers => ({ authorization: `Bearer ${ctx.admin.token}` });
const tasksUrl = (serverId: string) => `/proxy/daemon/server/${serverId}/tasks`;
const stored = async (serverId: string) => ((await ctx.node.json("GET", `/daemon/server/${serverId}/tasks`)) as { tasks: Record<string, StoredTask & { nextRun: number | null }> }).tasks;
const consoleText = async (serverId: string) => ((await ctx.node.json("GET", `/daemon/server/${serverId}/console`)).logs as string[]).join("");
const delivered = (text: string) => receiver.received.some((r) => r.headers["kiln-event"] === "task.webhook" && r.body.includes(text));

/** A client the administrator binds to the server: its token's headers, and its id (to delete it). */
async function serverClient(serverId: string): Promise<{ headers: Headers; clientId: string }> {
  const listed = async () => ((await (await as(admin(), "GET", `/api/servers/${serverId}/oauth2`)).json()) as { client_id: string }[]).map((c) => c.client_id);
  const before = await listed();
  const headers = await boundClient(ctx, serverId);
  const clientId = (await listed()).find((id) => !before.includes(id))!;
  return { headers, clientId };
}

/** A client of the administrator's whole account. */
async function accountClient(): Promise<{ headers: Headers; clientId: string }> {
  const made = (await (await as(admin(), "POST", "/api/self/oauth2", { name: "script", description: "", password: "password123" })).json()) as { id: string; secret: string };
  const answer = await ctx.panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${made.id}&client_secret=${made.secret}` });
  return { headers: { authorization: `Bearer ${((await answer.json()) as { access_token: string }).access_token}` }, clientId: made.id };
}

async function webhook(body: Record<string, unknown>): Promise<number> {
  const made = await as(admin(), "POST", "/api/webhooks", { url: receiver.url, secret: "a-secret-of-enough-length", allowInternal: true, events: ["user.created"], ...body });
  expect(made.status).toBe(201);
  return ((await made.json()) as { id: number }).id;
}

async function saved(response: Response): Promise<string> {
  expect(response.status, await response.clone().text()).toBe(201);
  return ((await response.json()) as { id: string }).id;
}

/** What the panel answers the node's check before a scheduled run of the task: null to run it, else the reason. */
async function verdict(serverId: string, taskId: string): Promise<string | null> {
  const task = (await stored(serverId))[taskId]!;
  return await panelTaskCheck(`http://127.0.0.1:${served.port}`, nodeCredentials(ctx.node.config))(serverId, task, taskId);
}

/** Refused as GET /api/webhooks/:id answers the same caller: the catalogue's ErrNotFound for that endpoint. */
async function expectUnseen(response: Response, headers: Headers, hookId: number): Promise<void> {
  const seen = await as(headers, "GET", `/api/webhooks/${hookId}`);
  expect(response.status).toBe(seen.status);
  expect(response.status).toBe(404);
  const { error } = (await response.json()) as { error: { code: string; metadata: Record<string, unknown> } };
  expect(error).toMatchObject({ code: "ErrNotFound", metadata: { id: hookId } });
  expect(((await seen.json()) as { error: { code: string } }).error.code).toBe(error.code);
}

describe("saving: a webhook step names an endpoint the saving caller may use, as that caller sees it", () => {
  test("a server-bound client of an administrator: a panel-wide endpoint is refused (POST and PUT), nothing stored; its server's own is fine", async () => {
    const serverId = await ctx.createServer("bound-bot-server");
    const panelWide = await webhook({});
    const own = await webhook({ serverId });
    const { headers } = await serverClient(serverId);
    const step = (id: number) => [{ type: "webhook", webhook: id, text: "ATTACKER TEXT: log in at https://evil.example" }];
    const harmless = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "harmless", cronSchedule: null, operations: [{ type: "sleep", seconds: 1 }] }));
    const before = await stored(serverId);
    await expectUnseen(await as(headers, "POST", tasksUrl(serverId), { name: "t", cronSchedule: null, operations: step(panelWide) }), headers, panelWide);
    // After a harmless step too, and in a replacement of the client's own task.
    await expectUnseen(await as(headers, "POST", tasksUrl(serverId), { name: "t", cronSchedule: null, operations: [{ type: "sleep", seconds: 1 }, ...step(panelWide)] }), headers, panelWide);
    await expectUnseen(await as(headers, "PUT", `${tasksUrl(serverId)}/${harmless}`, { name: "t", cronSchedule: null, operations: step(panelWide) }), headers, panelWide);
    // An endpoint that does not exist answers the same.
    await expectUnseen(await as(headers, "POST", tasksUrl(serverId), { name: "t", cronSchedule: null, operations: step(panelWide + 1000) }), headers, panelWide + 1000);
    expect(await stored(serverId)).toEqual(before);
    // Its own server's endpoint: saved, and delivered when run.
    const fine = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "own", cronSchedule: null, operations: [{ type: "webhook", webhook: own, text: "bound bot to its own endpoint" }] }));
    expect((await as(headers, "POST", `${tasksUrl(serverId)}/${fine}/run`)).status).toBe(202);
    await eventually(() => delivered("bound bot to its own endpoint"), 8000, "the bound client's delivery to its server's endpoint");
  });

  test("a user managing one server's webhooks, by the tasks tab's plain form and the JSON API: a panel-wide endpoint and another server's are refused", async () => {
    const serverId = await ctx.createServer("webhook-user-server");
    const otherId = await ctx.createServer("webhook-user-other");
    const user = await userWithFlags(ctx, serverId, ["editServerData", "manageWebhooks", "sendServerConsole"]);
    // The user manages the other server's endpoints too: still not one a task of this server names.
    const shared = await ctx.panel.request(`/api/servers/${otherId}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { manageWebhooks: true }) });
    expect(shared.status).toBeLessThan(300);
    const panelWide = await webhook({});
    const otherServer = await webhook({ serverId: otherId });
    const headers = { authorization: `Bearer ${user.token}` };
    const taskId = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "to edit", cronSchedule: null, operations: [{ type: "sleep", seconds: 1 }] }));
    const before = await stored(serverId);
    await expectUnseen(await as(headers, "POST", tasksUrl(serverId), { name: "t", cronSchedule: null, operations: [{ type: "webhook", webhook: panelWide, text: "hi" }] }), headers, panelWide);
    const other = await as(headers, "POST", tasksUrl(serverId), { name: "t", cronSchedule: null, operations: [{ type: "webhook", webhook: otherServer, text: "hi" }] });
    expect(other.status).toBe(404);
    expect(((await other.json()) as { error: { code: string; metadata: unknown } }).error).toMatchObject({ code: "ErrNotFound", metadata: { id: otherServer } });
    for (const path of [`/server/${serverId}/tasks`, `/server/${serverId}/tasks/${taskId}`]) {
      for (const hookId of [panelWide, otherServer]) {
        const response = await ctx.panel.request(path, { token: user.token, ...formInit({ name: "by form", operations: JSON.stringify([{ type: "webhook", webhook: hookId, text: "hi" }]), triggers: "[]" }) });
        expect(response.status).toBe(404);
        // The dialog again, with the catalogue's sentence.
        expect(await response.text()).toContain("Not found");
      }
    }
    expect(await stored(serverId)).toEqual(before);
  });

  test("an administrator's own login still names a panel-wide endpoint, and its text is delivered", async () => {
    const serverId = await ctx.createServer("admin-announcer");
    const panelWide = await webhook({});
    const taskId = await saved(await as(admin(), "POST", tasksUrl(serverId), { name: "announce", cronSchedule: null, operations: [{ type: "webhook", webhook: panelWide, text: "the administrator announces" }] }));
    expect((await as(admin(), "POST", `${tasksUrl(serverId)}/${taskId}/run`)).status).toBe(202);
    await eventually(() => delivered("the administrator announces"), 8000, "the administrator's delivery");
  });
});

describe("running: a client's task runs with the client's view, and not once the client is deleted", () => {
  test("a bound client deleted: its scheduled task is refused with the reason on the console, until the owner saves it as theirs", async () => {
    const serverId = await ctx.createServer("leaked-bot-server");
    const { headers, clientId } = await serverClient(serverId);
    const scheduled = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "persist", cronSchedule: "* * * * *", operations: [{ type: "console", command: "op attacker" }] }));
    // While the client exists its task runs.
    expect(await verdict(serverId, scheduled)).toBeNull();
    expect((await as(admin(), "DELETE", `/api/servers/${serverId}/oauth2/${clientId}`)).status).toBe(204);
    expect((await as(headers, "GET", `/api/servers/${serverId}`)).status).toBe(401);
    expect(await verdict(serverId, scheduled)).toBe("the OAuth2 client that saved the task no longer exists");
    // The node's own scheduled run: refused, the reason on the server's console, as for a deleted user.
    await clock.advanceTo(clock.now() + 60_000);
    await eventually(async () => (await consoleText(serverId)).includes('task "persist": not run:'), 5000, "the refused run");
    expect(await consoleText(serverId)).toContain("the OAuth2 client that saved the task no longer exists");
    // The owner saves the task again with their own login: it is theirs now, and runs.
    const task = (await stored(serverId))[scheduled]!;
    expect((await as(admin(), "PUT", `${tasksUrl(serverId)}/${scheduled}`, { name: task.name, cronSchedule: task.cronSchedule, operations: task.operations })).status).toBe(204);
    expect(await verdict(serverId, scheduled)).toBeNull();
  });

  test("a bound client deleted: its task's webhook step sends nothing, even run by hand by the owner", async () => {
    const serverId = await ctx.createServer("leaked-announcer-server");
    const own = await webhook({ serverId });
    const { headers, clientId } = await serverClient(serverId);
    const announcing = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "announce", cronSchedule: null, operations: [{ type: "webhook", webhook: own, text: "from the leaked bot" }] }));
    expect((await as(admin(), "DELETE", `/api/servers/${serverId}/oauth2/${clientId}`)).status).toBe(204);
    // Run by the administrator (their own rights let them run it): the step's endpoint is checked as the deleted client's.
    expect((await as(admin(), "POST", `${tasksUrl(serverId)}/${announcing}/run`)).status).toBe(202);
    const control = await saved(await as(admin(), "POST", tasksUrl(serverId), { name: "control", cronSchedule: null, operations: [{ type: "webhook", webhook: own, text: "the administrator's control" }] }));
    expect((await as(admin(), "POST", `${tasksUrl(serverId)}/${control}/run`)).status).toBe(202);
    await eventually(() => delivered("the administrator's control"), 8000, "the control delivery");
    await Bun.sleep(500);
    expect(delivered("from the leaked bot")).toBe(false);
  });

  test("an account-level client deleted: its task is refused; the owner's own task beside it still runs", async () => {
    const serverId = await ctx.createServer("account-bot-server");
    const { headers, clientId } = await accountClient();
    const operations = [{ type: "console", command: "say hello" }];
    const byClient = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "bot's", cronSchedule: "* * * * *", operations }));
    const different = await saved(await as(admin(), "POST", tasksUrl(serverId), { name: "owner's", cronSchedule: "* * * * *", operations: [{ type: "console", command: "say bye" }] }));
    expect(await verdict(serverId, byClient)).toBeNull();
    expect((await as(admin(), "DELETE", `/api/self/oauth2/${clientId}`)).status).toBeLessThan(300);
    expect(await verdict(serverId, byClient)).toBe("the OAuth2 client that saved the task no longer exists");
    // The owner's own task, doing something else, is the owner's alone.
    expect(await verdict(serverId, different)).toBeNull();
  });

  test("the client a task names is the saving caller's own: a body cannot name another, nor a login's save name any", async () => {
    const serverId = await ctx.createServer("named-client-server");
    const { headers, clientId } = await serverClient(serverId);
    const body = { name: "named", cronSchedule: null, operations: [{ type: "console", command: "say hi" }], client: "kiln_someoneelse00000000" };
    const byClient = await as(headers, "POST", tasksUrl(serverId), body);
    const byLogin = await as(admin(), "POST", tasksUrl(serverId), body);
    const tasks = await stored(serverId);
    const clients = Object.values(tasks).map((task) => task.client);
    // Refused as an unknown field, or stored with the caller's own client (none for a login): never the named one.
    expect(clients).not.toContain("kiln_someoneelse00000000");
    if (byClient.status === 201) expect(tasks[((await byClient.json()) as { id: string }).id]!.client).toBe(clientId);
    if (byLogin.status === 201) expect(tasks[((await byLogin.json()) as { id: string }).id]!.client).toBeUndefined();
    // Saved without the field, the client's task names it.
    const plain = await saved(await as(headers, "POST", tasksUrl(serverId), { name: "plain", cronSchedule: null, operations: [{ type: "console", command: "say hi" }] }));
    expect((await stored(serverId))[plain]!.client).toBe(clientId);
  });
});

describe("the node's check names no account to a node asking about ids of its choosing", () => {
  test("an owner deleted and an owner without access get one and the same reason, by id, with no email; the owner the node names is not asked about", async () => {
    const serverId = await ctx.createServer("probed-server");
    const outsider = await userWithFlags(ctx, serverId, ["editServerData", "sendServerConsole"]);
    const departed = await userWithFlags(ctx, serverId, ["editServerData", "sendServerConsole"]);
    const body = { name: "probe", cronSchedule: "* * * * *", operations: [{ type: "console", command: "say hi" }] };
    const byOutsider = await saved(await as({ authorization: `Bearer ${outsider.token}` }, "POST", tasksUrl(serverId), body));
    const byDeparted = await saved(await as({ authorization: `Bearer ${departed.token}` }, "POST", tasksUrl(serverId), body));
    expect((await as(admin(), "DELETE", `/api/servers/${serverId}/user/${encodeURIComponent(outsider.email)}`)).status).toBeLessThan(300);
    expect((await as(admin(), "DELETE", `/api/users/${departed.userId}`)).status).toBeLessThan(300);
    // The node names an owner of its choosing: the panel asks about the one it saw save the task.
    const ask = (taskId: string, owner: number) => panelTaskCheck(`http://127.0.0.1:${served.port}`, nodeCredentials(ctx.node.config))(serverId, { ...(body as StoredTask), owner }, taskId);
    const withoutAccess = await ask(byOutsider, ctx.admin.userId);
    const missing = await ask(byDeparted, 987654);
    expect(withoutAccess).toBe(`the user who saved the task (#${outsider.userId}) no longer has access to the server`);
    expect(missing).toBe(`the user who saved the task (#${departed.userId}) no longer has access to the server`);
    expect(withoutAccess).not.toContain(outsider.email);
  });
});
