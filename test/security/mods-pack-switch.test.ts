// Attacks on switching a CurseForge modpack server's file. Through the panel: a user of the server
// without manageMods, another holder of manageMods using someone else's plan, a file id that is
// shell syntax or a path, a server whose template installs no pack, CurseForge answering a
// file list with markup in the names or files of another project, and a pack laid onto a server
// of another game whose files look like a Fabric server's. On the node (as if the panel
// were bypassed): a pack switch naming the project, Java or any other variable, a Minecraft
// switch naming the file's, a file that is not a CurseForge number. Each gets a catalogue error;
// the server's variables are unchanged.
import { beforeAll, describe, expect, test } from "bun:test";
import { curseforgePacksPanelForFile, fabricServer, modsApi, packInstalled, switchRefusal } from "../helpers/mods";
import { jsonInit } from "../helpers/panel-node";
import { putTemplate } from "../../server/services/templates";
import { SHIPPED_TEMPLATE_SOURCES } from "../../templates";
import type { Template } from "../../core/definition";

const { curse, ctx } = curseforgePacksPanelForFile();
let id: string;
const { call: mods } = modsApi(ctx, () => id);
const values = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data;
const pack = { projectId: 900, projectName: "Attacked Pack", gameVersions: ["1.20.1", "Fabric"] };
const fabricZip = { "variables.txt": "MINECRAFT_VERSION=1.20.1\nMODLOADER=Fabric\nMODLOADER_VERSION=0.15.7\n", "mods/a.jar": "a" };

describe("a pack's file switch under attack", () => {
  beforeAll(async () => {
    curse.setFile({ ...pack, id: 9101, fileDate: "2024-01-01T00:00:00Z", displayName: "1.0", serverPackFileId: 9102 });
    curse.setFile({ ...pack, id: 9102, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, zip: fabricZip });
    curse.setFile({ ...pack, id: 9103, fileDate: "2024-02-01T00:00:00Z", displayName: '<img src=x onerror="alert(1)">2.0', serverPackFileId: 9102 });
    const created = await ctx().panel.request("/api/servers", { token: ctx().admin.token, ...jsonInit("POST", { name: "Attacked pack", node: ctx().nodeId, environment: { type: "standard" }, modpack: { source: "curseforge", projectId: "900", versionId: "9101" } }) });
    expect(created.status).toBe(201);
    id = ((await created.json()) as { id: string }).id;
    await packInstalled(ctx(), id);
  }, 60_000);

  test("a user without manageMods sees no pack files and cannot plan a switch", async () => {
    const user = await ctx().userWith(id, { viewServer: true, editServerData: true, installServer: true });
    for (const answer of [await mods("GET", "/versions", undefined, user.token), await mods("POST", "/versions/plan", { packFileId: "9103" }, user.token)]) {
      expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 403, code: "ErrNoPermission" });
    }
  });

  test("another holder of manageMods cannot apply a pack plan made by someone else", async () => {
    const plan = (await mods("POST", "/versions/plan", { packFileId: "9103" })).body;
    expect(plan.what).toBe("pack");
    const other = await ctx().userWith(id, { viewServer: true, manageMods: true });
    const answer = await mods("POST", `/versions/plan/${plan.planId}/apply`, {}, other.token);
    expect(answer.body.error?.code).toBe("ErrModPlanUnknown");
    expect((await values()).fileId).toBe("9101");
  });

  test("a file id that is shell syntax, a path or not text is refused before CurseForge is asked", async () => {
    const asked = curse.requests.length;
    for (const packFileId of ["9103; id", "../9103", "$(id)", "09103", 9103, ["9103"], ""]) {
      const answer = await mods("POST", "/versions/plan", { packFileId });
      expect({ packFileId, status: answer.status, code: answer.body.error?.code }).toEqual({ packFileId, status: 400, code: "ErrFieldRequired" });
    }
    expect(curse.requests.length).toBe(asked);
  });

  test("markup in a file's name is text in the answer, never a page's markup; a server whose template installs no pack offers none", async () => {
    const { body } = await mods("GET", "/versions");
    expect(body.pack.files.map((f: { name: string }) => f.name)).toContain('<img src=x onerror="alert(1)">2.0');
    const { html } = await ctx().page(`/server/${id}?tab=mods`, ctx().admin.token);
    expect(html).not.toContain("<img src=x");
    const plain = await ctx().createServer("No pack");
    const other = await ctx().panel.request(`/api/servers/${plain}/mods/versions/plan`, { token: ctx().admin.token, ...jsonInit("POST", { packFileId: "9103" }) });
    expect((await other.json()).error?.code).toBe("ErrModPackSwitchUnavailable");
  });

  test("a CurseForge pack is not laid onto a server of another game whose files were made to look like Fabric's: its template says what it is", async () => {
    const other = await fabricServer(ctx(), "Another game", "1.20.1");
    const holder = await ctx().userWith(other, { viewServer: true, manageMods: true });
    const before = (await (await ctx().panel.request(`/proxy/daemon/server/${other}`, { token: ctx().admin.token })).json()) as unknown;
    const answer = await modsApi(ctx, () => other, "modpacks").call("POST", "/plan", { source: "curseforge", projectId: "900" }, holder.token);
    expect({ status: answer.status, code: answer.body.error?.code }).toEqual({ status: 409, code: "ErrModPlatformSwitchUnavailable" });
    expect(await (await ctx().panel.request(`/proxy/daemon/server/${other}`, { token: ctx().admin.token })).json()).toEqual(before);
  });

  test("on the node: a pack switch naming the project, Java or another variable, a Minecraft switch naming the file's, a file that is no number: refused, nothing changed", async () => {
    const refused = switchRefusal(ctx(), id);
    expect(await refused({ what: "pack", variable: "projectId", value: "9103", folder: null })).toBe("ErrModPackSwitchUnavailable");
    expect(await refused({ what: "pack", variable: "java", value: "21", folder: null })).toBe("ErrModPackSwitchUnavailable");
    expect(await refused({ what: "game", variable: "fileId", value: "1.20.1", folder: null })).toBe("ErrModSwitchUnavailable");
    expect(await refused({ what: "pack", variable: "fileId", value: "1.0", folder: null })).toBe("ErrFieldNotBetween");
    expect(await refused({ what: "pack", variable: "fileId", value: "9103;id", folder: null })).toBe("ErrFieldNotBetween");
    expect(await values()).toMatchObject({ projectId: "900", fileId: "9101", java: "17" });
  });
  test("a server whose template keeps the pack from its users: a holder of manageMods switches neither its file nor lays another pack onto it", async () => {
    const shipped = SHIPPED_TEMPLATE_SOURCES["minecraft-curseforge"] as unknown as Template;
    /** A server of a template pinning one pack (project and file kept from users), installed, and a holder of manageMods on it. */
    const pinnedServer = async (projectId: string, fileId: string) => {
      const name = `pinned-${projectId}`;
      await putTemplate(ctx().panel.db, name, { ...shipped, name, data: { ...shipped.data, projectId: { ...shipped.data.projectId!, value: projectId, userEdit: false }, fileId: { ...shipped.data.fileId!, value: fileId, userEdit: false } } });
      const created = await ctx().panel.request("/api/servers", { token: ctx().admin.token, ...jsonInit("POST", { name, node: ctx().nodeId, template: name, environment: { type: "standard" }, variables: { eula: true } }) });
      const server = ((await created.json()) as { id: string }).id;
      await packInstalled(ctx(), server);
      const holder = await ctx().userWith(server, { viewServer: true, manageMods: true });
      const data = async () => JSON.stringify((await (await ctx().panel.request(`/proxy/daemon/server/${server}/data`, { token: ctx().admin.token })).json()).data);
      return { server, holder, data, before: await data(), ...modsApi(ctx, () => server), packs: modsApi(ctx, () => server, "modpacks").call };
    };
    const refused = async (planned: { status: number; body: any }, apply: (planId: string) => Promise<{ status: number; body: any }>) => {
      expect(planned.status).toBe(200);
      const applied = await apply(planned.body.planId);
      expect({ status: applied.status, code: applied.body.error?.code }).toEqual({ status: 403, code: "ErrNoPermission" });
    };
    const fileSwitch = await pinnedServer("900", "9101");
    await refused(await fileSwitch.call("POST", "/versions/plan", { packFileId: "9103" }, fileSwitch.holder.token), (planId) => fileSwitch.call("POST", `/versions/plan/${planId}/apply`, undefined, fileSwitch.holder.token));
    expect(await fileSwitch.data()).toBe(fileSwitch.before);
    const packOnto = await pinnedServer("100", "1001");
    await refused(await packOnto.packs("POST", "/plan", { source: "curseforge", projectId: "200" }, packOnto.holder.token), (planId) => packOnto.call("POST", `/versions/plan/${planId}/apply`, undefined, packOnto.holder.token));
    expect(await packOnto.data()).toBe(packOnto.before);
  }, 90_000);
});
