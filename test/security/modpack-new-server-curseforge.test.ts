// Attacks on creating a server from a CurseForge modpack, by a user holding only servers.create
// and by CurseForge's answers: ids that are paths, queries or shell syntax (they become template
// variables the install reads), a page address on a look-alike host, markup in a pack's name, game
// versions that are shell syntax, the file and project variables sent against the pack's, and the
// administrator's key. Each gets a catalogue error and changes nothing, or is shown as text.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readdirSync } from "node:fs";
import { ZipFile } from "yazl";
import { join } from "node:path";
import { SCOPES } from "../../core/scopes";
import { schema } from "../../db";
import { loginAs } from "../helpers/app";
import { API_KEY } from "../helpers/curseforge-fixture";
import { curseforgePacksPanelForFile } from "../helpers/mods";
import { jsonInit } from "../helpers/panel-node";
import { eventually } from "../helpers/node";
import { putTemplate } from "../../server/services/templates";
import { SHIPPED_TEMPLATE_SOURCES } from "../../templates";
import type { Template } from "../../core/definition";

const { curse, ctx } = curseforgePacksPanelForFile();
let creator: { token: string };

const rows = async () => (await ctx().panel.db.select().from(schema.servers).all()).length;
const onNode = () => readdirSync(join(ctx().node.config.dataDir, "servers")).filter((f) => f.endsWith(".json")).length;
const asked = () => curse.requests.filter((r) => r.path.startsWith("/curseforge/")).length;
async function create(token: string, body: Record<string, unknown>) {
  const response = await ctx().panel.request("/api/servers", { token, ...jsonInit("POST", { name: `p${Math.random().toString(36).slice(2, 8)}`, node: ctx().nodeId, environment: { type: "standard" }, ...body }) });
  return { status: response.status, body: await response.json() };
}

describe("a new server from a CurseForge modpack, under attack", () => {
  beforeAll(async () => void (creator = await loginAs(ctx().panel.db, [SCOPES.serversCreate])));

  test("a project or file id that is a path, a query or shell syntax is refused before CurseForge is asked", async () => {
    const [before, beforeNode, calls] = [await rows(), onNode(), asked()];
    for (const modpack of [{ projectId: "../search" }, { projectId: "1;id" }, { projectId: "100", versionId: "1001/../2001" }, { projectId: "100", versionId: "$(id)" }, { projectId: "x?classId=6" }]) {
      const answer = await create(creator.token, { modpack: { source: "curseforge", ...modpack } });
      expect({ modpack, status: answer.status }).toEqual({ modpack, status: 400 });
    }
    // A file id that passes the form's characters but is no CurseForge number is not asked for either.
    const letters = await create(creator.token, { modpack: { source: "curseforge", projectId: "100", versionId: "abc" } });
    expect(letters.status).toBe(404);
    const otherSource = await create(creator.token, { modpack: { source: "hangar", projectId: "100" } });
    expect(otherSource.status).toBe(400);
    expect([await rows(), onNode()]).toEqual([before, beforeNode]);
    // Only the pack itself was looked up (for the letters case), never a path the attacker wrote.
    expect(curse.requests.slice(calls).map((r) => r.path).filter((p) => !/^\/curseforge\/v1\/mods\/100$/.test(p))).toEqual([]);
  });

  test("a template that keeps the project and file from its users keeps them from a pack too: refused, nothing created", async () => {
    const shipped = SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"] as unknown as Template;
    const pinned = { ...shipped, name: "our-pack", data: { ...shipped.data, projectId: { ...shipped.data.projectId!, value: "100", userEdit: false }, fileId: { ...shipped.data.fileId!, value: "1001", userEdit: false } } };
    await putTemplate(ctx().panel.db, "our-pack", pinned);
    const [before, beforeNode] = [await rows(), onNode()];
    const answer = await create(creator.token, { template: "our-pack", modpack: { source: "curseforge", projectId: "200", versionId: "2001" } });
    expect({ status: answer.status, code: answer.body.error?.code, field: answer.body.error?.metadata?.field }).toEqual({ status: 403, code: "ErrNoPermission", field: "variables.projectId" });
    expect([await rows(), onNode()]).toEqual([before, beforeNode]);
  });

  test("a server pack of one top folder with a link to `..` inside it: stepped into, the link would lead out of the folder; nothing is placed", async () => {
    const zip = new ZipFile();
    zip.addBuffer(Buffer.from("hello"), "pack/readme.txt");
    zip.addBuffer(Buffer.from(".."), "pack/up", { mode: 0o120777 });
    zip.end();
    const chunks: Buffer[] = [];
    for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) chunks.push(chunk);
    curse.setFile({ id: 9001, projectId: 900, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, raw: new Uint8Array(Buffer.concat(chunks)), gameVersions: ["1.20.1"] });
    const answer = await create(ctx().admin.token, { modpack: { source: "curseforge", projectId: "900", versionId: "9001" }, variables: { eula: true } });
    expect(answer.status).toBe(201);
    const id = answer.body.id as string;
    await eventually(async () => (await ctx().node.json("GET", `/daemon/server/${id}/status`)).installing === false, 30_000, "the install to end");
    const folder = join(ctx().node.config.dataDir, "servers", id);
    expect(existsSync(join(folder, "readme.txt"))).toBe(false);
    expect(() => lstatSync(join(folder, "up"))).toThrow();
  }, 60_000);

  test("the project, file or Java variables sent against the pack's are refused; nothing is created", async () => {
    const [before, beforeNode] = [await rows(), onNode()];
    for (const variables of [{ projectId: "200" }, { fileId: "1000" }, { java: "8" }]) {
      const answer = await create(ctx().admin.token, { modpack: { source: "curseforge", projectId: "100" }, variables });
      expect({ variables, status: answer.status, code: answer.body.error?.code }).toEqual({ variables, status: 400, code: "ErrFieldNotBetween" });
    }
    expect([await rows(), onNode()]).toEqual([before, beforeNode]);
  });

  test("a page address on a look-alike host is not taken for CurseForge's; CurseForge is not asked", async () => {
    const calls = asked();
    for (const address of ["https://curseforge.com.evil.example/minecraft/modpacks/pack-100", "https://evil.example/www.curseforge.com/minecraft/modpacks/pack-100", "javascript:alert(1)//www.curseforge.com/minecraft/modpacks/pack-100"]) {
      const { status, html } = await ctx().page(`/addserver?modpack=${encodeURIComponent(address)}`, creator.token);
      expect({ address, status }).toEqual({ address, status: 400 });
      expect(html).not.toContain('name="template" value="minecraft-curseforge"');
    }
    expect(asked()).toBe(calls);
  });

  test("markup in a pack's name or file name is shown as text; game versions that are shell syntax set nothing", async () => {
    curse.setFile({ id: 7001, projectId: 700, fileDate: "2024-03-01T00:00:00Z", isServerPack: true, projectName: '<img src=x onerror="alert(1)">Pack', displayName: "<script>alert(2)</script>", gameVersions: ['1.20.1"; touch /tmp/kiln-cf-pwned; "', "Forge"], zip: { "mods/a.jar": "a" } });
    const { status, html } = await ctx().page(`/addserver?modpack=${encodeURIComponent("https://www.curseforge.com/minecraft/modpacks/pack-700")}`, creator.token);
    expect(status).toBe(200);
    expect(html).not.toContain("<img src=x");
    expect(html).not.toContain("<script>alert(2)");
    expect(html).toContain("&lt;img src=x");
    expect(html).not.toContain("kiln-cf-pwned");
    // No Minecraft version read: the template's own Java stays.
    expect(html).toMatch(/name="var\.java"[^>]*value="17"|value="17"[^>]*name="var\.java"/);
  });

  test("the administrator's CurseForge key is never in an answer, and goes to CurseForge's API only", async () => {
    const answer = await create(creator.token, { modpack: { source: "curseforge", projectId: "500" } });
    expect(answer.status).toBe(409);
    expect(JSON.stringify(answer.body)).not.toContain(API_KEY);
    const { html } = await ctx().page(`/addserver?modpack=${encodeURIComponent("https://www.curseforge.com/minecraft/modpacks/pack-100")}`, creator.token);
    expect(html).not.toContain(API_KEY);
    expect(curse.requests.filter((r) => !r.path.startsWith("/curseforge/") && r.key !== null)).toEqual([]);
  });

  test("a user without servers.create cannot make a server from a pack, and CurseForge is not asked", async () => {
    const nobody = await loginAs(ctx().panel.db, []);
    const calls = asked();
    const answer = await create(nobody.token, { modpack: { source: "curseforge", projectId: "100" } });
    expect(answer.status).toBe(403);
    expect(asked()).toBe(calls);
  });
});
