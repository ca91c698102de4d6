// The Mods tab without script, as a browser with JavaScript off uses it: plain pages and forms.
// A search is the tab's GET form (results as links); a project's link opens its card with Install
// forms; installing shows the plan to confirm, Apply starts the change and comes back to the tab;
// the switch, Remove (its plan, confirmed) and Undo are forms too. A version switch the template
// cannot make is refused on the tab, with nothing changed. A .mrpack is uploaded by a plain
// multipart form, planned by the page and placed once confirmed.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { eventually } from "./helpers/node";
import { fabricStandIn, modrinthPanelForFile, modsApi } from "./helpers/mods";
import { MODRINTH } from "./helpers/modrinth-fixture";
import { formInit, type PanelWithNode } from "./helpers/panel-node";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;
let id: string;
const GEYSER = MODRINTH.geyser;
const mods = () => ctx.node.folder(id, "mods");
const { call } = modsApi(() => ctx, () => id);
const post = (path: string, fields: Record<string, string>) => ctx.panel.request(path, { token: ctx.admin.token, ...formInit(fields) });
/** The tab's HTML, as the browser gets it. */
const tab = async (query = "") => (await ctx.page(`/server/${id}?tab=mods${query}`, ctx.admin.token)).html;
/** The action of the confirm card's Apply form. */
const applyAction = (html: string) => /<form[^>]*action="([^"]+\/apply)"[^>]*method="post"/.exec(html)?.[1];

describe.skipIf(!resticHere)("the Mods tab without script", () => {
  beforeAll(async () => {
    ctx = panel();
    // A Minecraft Java server (the tab is theirs), its folder Fabric 1.20.4's.
    ({ id } = await fabricStandIn(ctx, "Plain", "1.20.4"));
  });

  test("a search is a GET form of the tab; its results are links to the projects' cards", async () => {
    const html = await tab("&q=geyser&source=modrinth&sort=relevance");
    expect(html.includes(`href="/server/${id}?tab=mods&amp;project=${GEYSER}&amp;source=modrinth"`)).toBe(true);
    expect(/<form[^>]*role="search"[^>]*action="\/server\/[0-9a-f]+"[^>]*method="get"/.test(html)).toBe(true);
    const card = await tab(`&project=${GEYSER}&source=modrinth`);
    expect(card.includes('data-testid="mods-project-card"')).toBe(true);
    expect(card.includes(`action="/server/${id}/mods/plan"`)).toBe(true);
  });

  let fileNames: string[] = [];
  test("Install shows the plan to confirm; Apply starts it and comes back to the tab", async () => {
    const planned = await post(`/server/${id}/mods/plan`, { source: "modrinth", projectId: GEYSER });
    expect(planned.status).toBe(200);
    const html = await planned.text();
    expect(html.includes('data-testid="mods-confirm"')).toBe(true);
    expect((html.match(/class="mods-plan-row"/g) ?? []).length).toBe(2);
    const applied = await post(applyAction(html)!, {});
    expect(applied.status).toBe(303);
    expect(applied.headers.get("location")).toBe(`/server/${id}?tab=mods`);
    await eventually(async () => ((await call("GET", "/installed")).body as unknown[]).length === 2, 30_000, "the change to be done");
    fileNames = ((await call("GET", "/installed")).body as { fileName: string }[]).map((f) => f.fileName);
    expect(fileNames.map((f) => existsSync(join(mods(), f)))).toEqual([true, true]);
  }, 60_000);

  test("the switch disables a file; Remove shows its plan, confirmed it goes; Undo puts it back", async () => {
    expect((await post(`/server/${id}/mods/enabled`, { fileName: fileNames[0]!, enabled: "false" })).status).toBe(303);
    await eventually(() => existsSync(join(mods(), `${fileNames[0]}.disabled`)), 10_000, "the file to be disabled");
    const planned = await (await post(`/server/${id}/mods/remove`, { fileName: fileNames[1]! })).text();
    expect(planned.includes('data-testid="mods-plan-remove"')).toBe(true);
    expect((await post(applyAction(planned)!, {})).status).toBe(303);
    await eventually(() => !existsSync(join(mods(), fileNames[1]!)), 10_000, "the file to go");
    const { undoable } = (await call("GET", "/changes")).body;
    expect((await tab()).includes(`action="/server/${id}/mods/changes/${undoable}/undo"`)).toBe(true);
    expect((await post(`/server/${id}/mods/changes/${undoable}/undo`, {})).status).toBe(303);
    expect(existsSync(join(mods(), fileNames[1]!))).toBe(true);
  }, 60_000);

  test("a version switch the template cannot make is refused on the tab; nothing changes", async () => {
    const refused = await post(`/server/${id}/mods/versions/plan`, { gameVersion: "1.20.1" });
    expect(refused.status).toBe(409);
    expect((await refused.text()).includes("cannot switch it")).toBe(true);
    expect(modrinth.requests.length).toBeGreaterThan(0);
  });

  test("a .mrpack of the user's: the form's file goes to the node, the page shows its plan, Apply places it", async () => {
    const pack = await modrinth.addModpack({ slug: "kiln-plain-pack", title: "Kiln Plain Pack", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [], overrides: { "config/plain.toml": "plain = true\n" } });
    const form = new FormData();
    form.append("file", new Blob([modrinth.jar(pack.versionId)]), "kiln-plain-pack.mrpack");
    const answer = await ctx.panel.request(`/server/${id}/mods/packs/upload`, { token: ctx.admin.token, method: "POST", body: form, headers: { accept: "text/html" } });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(html.includes('data-testid="mods-pack-plan"')).toBe(true);
    expect(html.includes('data-path="config/plain.toml"')).toBe(true);
    expect((await post(applyAction(html)!, {})).status).toBe(303);
    await eventually(() => existsSync(ctx.node.folder(id, "config", "plain.toml")), 30_000, "the pack to be placed");
  }, 60_000);
});
