// Attacks on creating a server from a modpack, by a user holding only servers.create and by the
// source's answers: a project id that is a path, a Minecraft version that is shell syntax (it
// becomes a template variable install commands use), a pack file on a host the node does not
// download from, a pack whose index says another Minecraft version than its document, and other
// fields sent beside the pack. Each gets a catalogue error; no server is left on the panel or the
// node, and nothing unchecked is placed.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../core/scopes";
import { schema } from "../../db";
import { putTemplate } from "../../server/services/templates";
import { loginAs } from "../helpers/app";
import { echoTemplate } from "../helpers/node";
import { jsonInit } from "../helpers/panel-node";
import { modrinthPanelForFile, modsApi } from "../helpers/mods";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx } = await modrinthPanelForFile();
const GEYSER = "CeSpw2Km";
let creator: { token: string };

const rows = async () => (await ctx().panel.db.select().from(schema.servers).all()).length;
const onNode = () => readdirSync(join(ctx().node.config.dataDir, "servers")).filter((f) => f.endsWith(".json")).length;
const create = async (token: string, body: Record<string, unknown>) => {
  const response = await ctx().panel.request("/api/servers", { token, ...jsonInit("POST", { name: `p${Math.random().toString(36).slice(2, 8)}`, node: ctx().nodeId, environment: { type: "standard" }, ...body }) });
  return { status: response.status, body: await response.json() };
};

/** A pack made for this attack: a fresh project, so one attack's tampering stays its own. */
const packFor = (slug: string, index?: (index: Record<string, unknown>) => unknown) =>
  modrinth.addModpack({ slug, title: slug, gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: GEYSER }], ...(index ? { index } : {}) });

describe.skipIf(!resticHere)("a new server from a modpack, under attack", () => {
  beforeAll(async () => {
    const echo = echoTemplate();
    await putTemplate(ctx().panel.db, "fabric-pack", { ...echo, name: "fabric-pack", addons: { platform: "fabric", gameVersion: "${version}" }, data: { ...echo.data, version: { display: "Version", desc: "", type: "string", value: "1.19.2", required: true, userEdit: false } } });
    creator = await loginAs(ctx().panel.db, [SCOPES.serversCreate]);
  });

  test("a project id that is a path or a query is refused before Modrinth is asked", async () => {
    const asked = modrinth.requests.length;
    for (const projectId of ["../search", "a/b", "x?y=1", "", "p".repeat(65)]) {
      const answer = await create(creator.token, { modpack: { projectId } });
      expect({ projectId, status: answer.status, code: answer.body.error?.code }).toMatchObject({ projectId, status: 400 });
    }
    const extra = await create(creator.token, { modpack: { projectId: "kiln", url: "http://evil.example/p.mrpack" } });
    expect(extra.status).toBe(400);
    expect(modrinth.requests.length).toBe(asked);
  });

  test("a Minecraft version in Modrinth's answer that is not a version (shell syntax) is refused; nothing is created", async () => {
    const made = await packFor("kiln-shell-version");
    modrinth.version(made.versionId).game_versions = ['1.20.4"; touch /tmp/kiln-pwned; echo "'];
    const [before, beforeNode] = [await rows(), onNode()];
    const answer = await create(creator.token, { modpack: { projectId: made.projectId } });
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 502, code: "ErrModSourceUnavailable" });
    expect([await rows(), onNode()]).toEqual([before, beforeNode]);
    expect(existsSync("/tmp/kiln-pwned")).toBe(false);
  });

  test("a pack file on a host the node does not download from: the node refuses it and the new server goes again", async () => {
    const made = await packFor("kiln-elsewhere");
    modrinth.version(made.versionId).files[0]!.url = "http://127.0.0.1:9/elsewhere.mrpack";
    const [before, beforeNode] = [await rows(), onNode()];
    const answer = await create(creator.token, { modpack: { projectId: made.projectId } });
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 400, code: "ErrModSourceNotAllowed" });
    expect([await rows(), onNode()]).toEqual([before, beforeNode]);
  });

  test("a pack whose index names another Minecraft version than its document: checked after the install, not placed", async () => {
    const made = await packFor("kiln-index-lies", (index) => ({ ...index, dependencies: { minecraft: "1.16.5", "fabric-loader": "0.15.11" } }));
    const answer = await create(creator.token, { modpack: { projectId: made.projectId } });
    expect(answer.status).toBe(201);
    const change = await modsApi(ctx, () => answer.body.id).followed(answer.body.modpack.changeId);
    expect(change).toMatchObject({ state: "failed", error: { code: "ErrModPackDoesNotRun", metadata: { gameVersion: "1.16.5", serverVersion: "1.20.4" } }, added: [] });
    expect(existsSync(join(ctx().node.config.dataDir, "servers", answer.body.id, "mods"))).toBe(false);
  }, 30_000);

  test("a creator without administration sends limits, a definition or the template's own variables beside a pack: refused, nothing created", async () => {
    const made = await packFor("kiln-beside");
    const [before, beforeNode] = [await rows(), onNode()];
    // The pack sets the template's version variable; a creator who may not set it may not send it either.
    for (const [extra, field] of [[{ limits: { memoryMiB: 1 } }, "limits"], [{ definition: { run: { command: "id" } } }, "definition"], [{ variables: { version: "1.20.4" } }, "variables.version"]] as const) {
      const answer = await create(creator.token, { modpack: { projectId: made.projectId }, ...extra });
      expect({ status: answer.status, code: answer.body.error?.code, field: answer.body.error?.metadata?.field }).toEqual({ status: 403, code: "ErrNoPermission", field });
    }
    expect([await rows(), onNode()]).toEqual([before, beforeNode]);
  });

  test("Find a modpack: a hit whose slug is no slug is left out; markup in a title or in the words searched is text; a source that is none is said", async () => {
    await modrinth.addModpack({ slug: '../../evil"><script>x</script>', title: "Kiln Slug Climber", gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [] });
    await modrinth.addModpack({ slug: "kiln-markup-pack", title: '<img src=x onerror="alert(1)">Kiln Markup', gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [] });
    const { status, html } = await ctx().page(`/addserver?packs=${encodeURIComponent("kiln")}&source=modrinth`, creator.token);
    expect(status).toBe(200);
    expect(html).not.toContain("Kiln Slug Climber");
    expect(html).not.toContain("<script>x");
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x");
    expect(html).toContain(`href="/addserver?modpack=${encodeURIComponent("https://modrinth.com/modpack/kiln-markup-pack")}"`);
    const words = await ctx().page(`/addserver?packs=${encodeURIComponent('"><script>alert(3)</script>')}&source=modrinth`, creator.token);
    expect(words.status).toBe(200);
    expect(words.html).not.toContain("<script>alert(3)");
    for (const source of ["hangar", "../modrinth", "file:"]) {
      const other = await ctx().page(`/addserver?packs=kiln&source=${encodeURIComponent(source)}`, creator.token);
      expect({ source, status: other.status, said: other.html.includes("source is not one of the values it can take") }).toEqual({ source, status: 200, said: true });
    }
  });

  test("a user without servers.create cannot make a server from a pack, and Modrinth is not asked", async () => {
    const nobody = await loginAs(ctx().panel.db, []);
    const asked = modrinth.requests.length;
    const answer = await create(nobody.token, { modpack: { projectId: "kiln-beside" } });
    expect(answer.status).toBe(403);
    expect(modrinth.requests.length).toBe(asked);
  });
});
