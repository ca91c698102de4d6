// Attacks on the Mods tab's plain forms (the tab without script): a user of the server without
// manageMods posts each of them, another holder of manageMods applies a plan they did not make,
// and the tab's address carries a project id that is a path. Each is refused with the catalogue's
// sentence and nothing in mods/ changes.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fabricStandIn, modrinthPanelForFile } from "../helpers/mods";
import { MODRINTH } from "../helpers/modrinth-fixture";
import { formInit, type PanelWithNode } from "../helpers/panel-node";
import { hasRestic } from "../helpers/require-part";
import { SERVER_FLAGS } from "../../core/scopes";

const resticHere = hasRestic();
const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;
let id: string;
const mods = () => ctx.node.folder(id, "mods");
const post = (path: string, fields: Record<string, string>, token: string) => ctx.panel.request(path, { token, ...formInit(fields) });

describe.skipIf(!resticHere)("the Mods tab's forms under attack", () => {
  beforeAll(async () => {
    ctx = panel();
    ({ id } = await fabricStandIn(ctx, "Formed", "1.20.4"));
    mkdirSync(mods(), { recursive: true });
    writeFileSync(join(mods(), "kept.jar"), "kept");
  });

  test("a user with every other flag is refused on every form; mods/ is unchanged and the source is not asked", async () => {
    const others = Object.fromEntries(SERVER_FLAGS.filter((f) => f !== "manageMods").map((f) => [f, true]));
    const user = await ctx.userWith(id, others);
    const asked = modrinth.requests.length;
    for (const [path, fields] of [
      ["plan", { source: "modrinth", projectId: MODRINTH.geyser }], ["remove", { fileName: "kept.jar" }], ["enabled", { fileName: "kept.jar", enabled: "false" }],
      ["plan/00000000-0000-4000-8000-000000000000/apply", {}], ["changes/00000000-0000-4000-8000-000000000000/undo", {}],
      ["packs/plan", { projectId: MODRINTH.geyser }], ["packs/upload", {}], ["versions/plan", { gameVersion: "1.20.1" }], ["versions/plan/00000000-0000-4000-8000-000000000000/apply", {}],
    ] as const) {
      const answer = await post(`/server/${id}/mods/${path}`, fields, user.token);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    expect(readdirSync(mods())).toEqual(["kept.jar"]);
    expect(modrinth.requests.length).toBe(asked);
  });

  test("another holder of manageMods cannot apply a plan made by someone else", async () => {
    const planned = await (await post(`/server/${id}/mods/plan`, { source: "modrinth", projectId: MODRINTH.geyser }, ctx.admin.token)).text();
    const action = /<form[^>]*action="([^"]+\/apply)"[^>]*method="post"/.exec(planned)![1]!;
    const other = await ctx.userWith(id, { viewServer: true, manageMods: true });
    const answer = await post(action, {}, other.token);
    expect(answer.status).toBe(404);
    expect((await answer.text()).includes("This plan has expired or belongs to another server")).toBe(true);
    expect(readdirSync(mods())).toEqual(["kept.jar"]);
  }, 30_000);

  test("a project id that is a path, a source that is not one: said on the tab, nothing asked", async () => {
    const asked = modrinth.requests.length;
    for (const query of ["&project=..%2F..%2Fsearch", "&project=x&source=nowhere", "&q=x&source=nowhere", "&q=x&sort=evil"]) {
      const { status, html } = await ctx.page(`/server/${id}?tab=mods${query}`, ctx.admin.token);
      expect({ query, status, warned: html.includes("alert-warning") }).toEqual({ query, status: 200, warned: true });
    }
    expect(modrinth.requests.length).toBe(asked);
  });

  test("an upload that is not a form's file is refused on the tab; nothing reaches the node's uploads", async () => {
    const before = readdirSync(join(ctx.node.config.dataDir, "mod-uploads"), { recursive: true }).length;
    const answer = await post(`/server/${id}/mods/packs/upload`, { file: "not a file" }, ctx.admin.token);
    expect(answer.status).toBe(400);
    expect((await answer.text()).includes("alert")).toBe(true);
    expect(readdirSync(join(ctx.node.config.dataDir, "mod-uploads"), { recursive: true }).length).toBe(before);
  });
});
