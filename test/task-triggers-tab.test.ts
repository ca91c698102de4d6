// Triggers on the tasks tab as the server renders it, without script: the list says each task's
// triggers in words; the form's triggers (a JSON textarea before script), cooldown and conditions
// save through the plain form; a refused trigger shows its dialog again, open, with the error;
// the editor offers a user only the trigger types they may use.
import { describe, expect, test } from "bun:test";
import { panelPerTest, jsonInit, formInit, type PanelWithNode } from "./helpers/panel-node";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

const post = (path: string, token: string, fields: Record<string, string>) => ctx.panel.request(path, { token, ...formInit(fields) });
const tasksOf = async (id: string) => ((await (await ctx.panel.request(`/proxy/daemon/server/${id}/tasks`, { token: ctx.admin.token })).json()) as { tasks: Record<string, Record<string, unknown>> }).tasks;
/** The props of the page's islands named `name`, in page order. */
function islandProps(html: string, name: string): any[] {
  const payload = JSON.parse(html.match(/<script type="application\/json" id="kiln-islands">(.*?)<\/script>/)?.[1] ?? '{"islands":[]}') as { islands: Array<{ name: string; props: unknown }> };
  return payload.islands.filter((island) => island.name === name).map((island) => island.props);
}

describe("triggers on the tasks tab without script", () => {
  test("the list says each task's triggers in words, beside or instead of its schedule", async () => {
    const id = await ctx.createServer("Triggers List");
    const create = (task: Record<string, unknown>) => ctx.panel.request(`/proxy/daemon/server/${id}/tasks`, { token: ctx.admin.token, ...jsonInit("POST", { operations: [], cronSchedule: null, ...task }) });
    expect((await create({ name: "Greeter", triggers: [{ type: "console", pattern: "joined the game" }, { type: "player", on: "join" }] })).status).toBe(201);
    expect((await create({ name: "Nightly", cronSchedule: "@daily", triggers: [{ type: "crash" }, { type: "resource", metric: "cpu", above: 90, forSeconds: 60 }] })).status).toBe(201);
    expect((await create({ name: "By hand" })).status).toBe(201);
    const { html } = await ctx.page(`/server/${id}?tab=tasks`, ctx.admin.token);
    const row = (name: string) => {
      const start = html.indexOf(`<strong class="task-name" dir="auto">${name}</strong>`);
      expect(start).toBeGreaterThan(-1);
      return html.slice(start, html.indexOf("</summary>", start));
    };
    expect(row("Greeter")).toContain("Runs when a console line contains &quot;joined the game&quot; or a player joins");
    expect(row("Greeter")).not.toContain("Manual run only");
    expect(row("Nightly")).toContain("At 00:00");
    expect(row("Nightly")).toContain("Also runs when the server crashes or CPU stays above 90% for 60 s");
    expect(row("By hand")).toContain("Manual run only");
    expect(row("By hand")).not.toContain("Runs when");
    // In another language, joined with its own "or".
    const { html: german } = await ctx.page(`/server/${id}?tab=tasks`, ctx.admin.token, { cookie: "kiln_locale=de_DE" });
    expect(german).toContain(" oder ");
  });

  test("the plain form saves triggers, cooldown and conditions; the edit dialog shows them again", async () => {
    const id = await ctx.createServer("Triggers Form");
    const response = await post(`/server/${id}/tasks`, ctx.admin.token, {
      name: "Welcome",
      operations: JSON.stringify([{ type: "console", command: "say welcome ${trigger.1}" }]),
      triggers: JSON.stringify([{ type: "console", pattern: "(\\w+) joined the game", regex: true }]),
      cooldownSeconds: "30",
      conditionState: "running",
      conditionFrom: "08:00",
      conditionTo: "23:30",
      conditionVariable: "greeting",
      conditionEquals: "world",
    });
    expect(response.status).toBe(303);
    const [task] = Object.values(await tasksOf(id));
    expect(task).toMatchObject({
      name: "Welcome",
      triggers: [{ type: "console", pattern: "(\\w+) joined the game", regex: true }],
      cooldownSeconds: 30,
      conditions: { state: "running", between: { from: "08:00", to: "23:30" }, variable: "greeting", equals: "world" },
    });
    const { html } = await ctx.page(`/server/${id}?tab=tasks`, ctx.admin.token);
    const edit = html.slice(html.indexOf('data-testid="task-edit"'));
    expect(edit).toContain('data-island="TaskTriggers"');
    expect(edit).toContain('name="cooldownSeconds"');
    expect(edit).toMatch(/name="cooldownSeconds"[^>]*value="30"/);
    expect(edit).toMatch(/<option value="running" selected="">Running<\/option>/);
    expect(edit).toMatch(/name="conditionFrom" value="08:00"/);
    expect(edit).toMatch(/name="conditionVariable"[^>]*value="greeting"/);
    // A task saved with no triggers keeps the shape it always had.
    expect((await post(`/server/${id}/tasks`, ctx.admin.token, { name: "Plain", operations: "[]", triggers: "[]", cooldownSeconds: "10", conditionState: "", conditionFrom: "", conditionTo: "", conditionVariable: "", conditionEquals: "" })).status).toBe(303);
    const plain = Object.values(await tasksOf(id)).find((t) => t.name === "Plain")!;
    expect(Object.keys(plain).sort()).toEqual(["cronSchedule", "name", "nextRun", "operations", "owner"]);
  });

  test("a refused trigger shows the dialog again, open, with the error and what was typed", async () => {
    const id = await ctx.createServer("Triggers Refused");
    const typed = JSON.stringify([{ type: "console", pattern: "(a)\\1", regex: true }]);
    const response = await post(`/server/${id}/tasks`, ctx.admin.token, { name: "Broken", operations: "[]", triggers: typed, cooldownSeconds: "10" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("triggers.0.pattern is not a valid trigger setting: back-references are not supported (RE2 syntax)");
    expect(islandProps(html, "TaskTriggers")[0]?.initial).toEqual([{ type: "console", pattern: "(a)\\1", regex: true }]);
    expect(await tasksOf(id)).toEqual({});
    const unreadable = await post(`/server/${id}/tasks`, ctx.admin.token, { name: "Broken", operations: "[]", triggers: "[{nope" });
    expect(unreadable.status).toBe(400);
    expect(await unreadable.text()).toContain("triggers is not a valid trigger setting");
  });

  test("the triggers editor offers a user only the types they may use", async () => {
    const id = await ctx.createServer("Triggers Offered");
    const user = await ctx.userWith(id, { editServerData: true, sendServerConsole: true });
    const { html } = await ctx.page(`/server/${id}?tab=tasks`, user.token);
    expect(islandProps(html, "TaskTriggers")[0]?.types).toEqual(["crash", "state"]);
    const viewer = await ctx.userWith(id, { editServerData: true, viewServerConsole: true, viewServerStats: true });
    expect(islandProps((await ctx.page(`/server/${id}?tab=tasks`, viewer.token)).html, "TaskTriggers")[0]?.types).toEqual(["console", "crash", "state", "resource", "player"]);
  });
});
