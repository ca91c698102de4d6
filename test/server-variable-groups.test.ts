// Variable groups' `if` when a server is created (PufferPanel v3's groups): the Add server page
// marks the groups a condition hides for the values it shows (and brings the island only when a
// group has a condition); at creation, through the API and the no-script form alike, a variable
// only hidden groups show is kept as sent (as PufferPanel keeps what its form sends) but is not
// required, while every value is still checked; the node stores such a definition.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { putTemplate } from "../server/services/templates";
import { startTestNode, type TestNode } from "./helpers/node";
import { formInit, jsonInit, panelWithNode, type PanelWithNode } from "./helpers/panel-node";

let node: TestNode;
let ctx: PanelWithNode;

/** The official minecraft template's groups in small: General, then Forge and Paper by modlauncher. */
const groupsTemplate = (withConditions = true) => ({
  display: "Grouped",
  run: { command: "sh -c 'echo ${modlauncher}'" },
  environment: { type: "standard" },
  data: {
    modlauncher: { type: "option", value: "", required: false, options: [{ value: "", display: "Vanilla" }, { value: "forge", display: "Forge" }, { value: "paper", display: "Paper" }] },
    forgebuild: { type: "string", value: "", required: true, display: "Forge build" },
    paperbuild: { type: "string", value: "478", required: true, display: "Paper build" },
    motd: { type: "string", value: "hi", display: "Message of the day" },
  },
  groups: [
    { display: "General", description: "For every server", variables: ["modlauncher"], order: 1 },
    { ...(withConditions ? { if: "modlauncher == 'forge'" } : {}), display: "Forge", variables: ["forgebuild"], order: 2 },
    { ...(withConditions ? { if: "modlauncher == 'paper'" } : {}), display: "Paper", variables: ["paperbuild"], order: 3 },
  ],
});

beforeAll(async () => {
  node = await startTestNode();
  ctx = await panelWithNode(node);
  await putTemplate(ctx.panel.db, "grouped", groupsTemplate() as never);
  await putTemplate(ctx.panel.db, "grouped-plain", groupsTemplate(false) as never);
});
afterAll(() => node.stop());

const create = (variables: Record<string, unknown>) => ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: `g-${Math.random().toString(36).slice(2, 7)}`, node: ctx.nodeId, template: "grouped", environment: { type: "standard" }, variables }) });
const stored = async (res: Response) => (await node.json("GET", `/daemon/server/${(await res.json()).id}`)).data as Record<string, { value: unknown }>;
/** The fieldset of the group with this legend, as the page renders it. */
const groupMarkup = (html: string, legend: string) => [...html.matchAll(/<fieldset([^>]*)>\s*<legend>(?:<span[^>]*>)?([^<]*)(?:<\/span>)?<\/legend>/g)].find((m) => m[2] === legend)?.[1];

describe("creating a server", () => {
  test("a required variable only hidden groups show may be left empty; it is stored as sent", async () => {
    const res = await create({ modlauncher: "" });
    expect(res.status).toBe(201);
    const data = await stored(res);
    expect([data.modlauncher!.value, data.forgebuild!.value, data.paperbuild!.value]).toEqual(["", "", "478"]);
  });

  test("once the condition holds the variable is required again", async () => {
    const res = await create({ modlauncher: "forge", forgebuild: "" });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "forgebuild" } });
  });

  test("a value sent for a hidden variable is kept, as PufferPanel keeps it, and still checked", async () => {
    const kept = await stored(await create({ modlauncher: "paper", forgebuild: "47.2.0", paperbuild: "500" }));
    expect([kept.forgebuild!.value, kept.paperbuild!.value]).toEqual(["47.2.0", "500"]);
    const bad = await create({ modlauncher: "paper", forgebuild: "1\nrm -rf /" });
    expect((await bad.json()).error).toMatchObject({ code: "ErrFieldHasControlCharacters", metadata: { field: "forgebuild" } });
  });

  test("the no-script form: the same rules, and a refused form shows the groups for the values sent", async () => {
    const ok = await ctx.panel.request("/addserver", { token: ctx.admin.token, ...formInit({ name: "form ok", node: String(ctx.nodeId), template: "grouped", environment: "standard", user: ctx.admin.email, "var.modlauncher": "", "var.forgebuild": "", "var.paperbuild": "478", "var.motd": "hi" }) });
    expect(ok.status).toBe(303);
    const refused = await ctx.panel.request("/addserver?template=grouped", { token: ctx.admin.token, ...formInit({ name: "form refused", node: String(ctx.nodeId), template: "grouped", environment: "standard", user: ctx.admin.email, "var.modlauncher": "forge", "var.forgebuild": "", "var.paperbuild": "478", "var.motd": "hi" }) });
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(groupMarkup(html, "Forge")).not.toContain("data-group-hidden");
    expect(groupMarkup(html, "Paper")).toContain("data-group-hidden");
  });
});

describe("the Add server page", () => {
  test("groups in their order, those a condition hides marked, the rest under Other settings; the island comes with conditions only", async () => {
    const { status, html } = await ctx.page("/addserver?template=grouped", ctx.admin.token);
    expect(status).toBe(200);
    const legends = [...html.matchAll(/<fieldset[^>]*class="[^"]*variable-group[^"]*"[^>]*>\s*<legend>(?:<span[^>]*>)?([^<]*)(?:<\/span>)?<\/legend>/g)].map((m) => m[1]);
    expect(legends).toEqual(["General", "Forge", "Paper", "Other settings"]);
    expect(groupMarkup(html, "General")).not.toContain("data-group-hidden");
    expect(groupMarkup(html, "Forge")).toContain("data-group-hidden");
    // A hidden required field is not required in the browser (it would block the form unseen).
    expect(/<input[^>]*name="var\.forgebuild"[^>]*>/.exec(html)![0]).not.toContain("required");
    expect(/<input[^>]*name="var\.paperbuild"[^>]*>/.exec(html)![0]).not.toContain("required");
    expect(html).toContain('data-island="VariableGroups"');
    const plain = await ctx.page("/addserver?template=grouped-plain", ctx.admin.token);
    expect(plain.html).not.toContain('data-island="VariableGroups"');
    expect(plain.html).not.toContain("data-group-hidden");
    expect(/<input[^>]*name="var\.forgebuild"[^>]*>/.exec(plain.html)![0]).toContain("required");
  });
});

describe("the Settings tab", () => {
  test("shows the server's variables in their groups, hidden by their conditions on its values; saving with a hidden required one empty works", async () => {
    const res = await create({ modlauncher: "paper" });
    const { id } = await res.json();
    const { status, html } = await ctx.page(`/server/${id}?tab=settings`, ctx.admin.token);
    expect(status).toBe(200);
    expect(groupMarkup(html, "General")).not.toContain("data-group-hidden");
    expect(groupMarkup(html, "Paper")).not.toContain("data-group-hidden");
    expect(groupMarkup(html, "Forge")).toContain("data-group-hidden");
    expect(groupMarkup(html, "Other settings")).toBeDefined();
    expect(html).toContain('data-island="VariableGroups"');
    const saved = await ctx.panel.request(`/server/${id}/settings`, { token: ctx.admin.token, ...formInit({ "var.modlauncher": "paper", "var.forgebuild": "", "var.paperbuild": "501", "var.motd": "hello" }) });
    expect(saved.status).toBe(303);
    const data = (await node.json("GET", `/daemon/server/${id}`)).data as Record<string, { value: unknown }>;
    expect([data.forgebuild!.value, data.paperbuild!.value, data.motd!.value]).toEqual(["", "501", "hello"]);
    // Once Forge is chosen its build is required again.
    const refused = await ctx.panel.request(`/server/${id}/settings`, { token: ctx.admin.token, ...formInit({ "var.modlauncher": "forge", "var.forgebuild": "", "var.paperbuild": "501", "var.motd": "hello" }) });
    expect(refused.status).toBe(400);
  });
});
