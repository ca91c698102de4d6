// Switching a CurseForge modpack server to another file of its pack, from the Mods tab's version
// pane (GET …/mods/versions `pack`, POST …/mods/versions/plan {packFileId}), against the local
// CurseForge stand-in (test/helpers/curseforge-fixture): the server is made from the shipped
// minecraft-curseforge template with a pack's first file; its files with a server pack are
// offered, the one installed marked; applied, a backup is taken, the file variable set and the
// install run again (the new server pack laid over the folder, the user's files kept); undone, the
// backup and the variable come back. A file whose server pack is gone fails and changes nothing.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { curseforgePacksPanelForFile, modsApi, packInstalled } from "./helpers/mods";
import { jsonInit } from "./helpers/panel-node";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { curse, ctx } = curseforgePacksPanelForFile();

/** A Fabric server pack told by variables.txt, with one mod whose text is `mod`. */
const fabricPack = (mod: string, more: Record<string, string> = {}) => ({
  "variables.txt": "MINECRAFT_VERSION=1.20.1\nMODLOADER=Fabric\nMODLOADER_VERSION=0.15.7\nFABRIC_INSTALLER_VERSION=1.0.0\n",
  "mods/pack-mod.jar": mod,
  ...more,
});

describe.skipIf(!resticHere)("switching a CurseForge pack's file", () => {
  let id: string;
  const folder = () => join(ctx().node.config.dataDir, "servers", id);
  const { call: mods, followed } = modsApi(ctx, () => id);
  const values = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data;

  beforeAll(async () => {
    const pack = { projectId: 800, projectName: "Kiln Switch Pack", gameVersions: ["1.20.1", "Fabric"] };
    curse.setFile({ ...pack, id: 8001, fileDate: "2024-01-01T00:00:00Z", displayName: "Switch Pack 1.0", serverPackFileId: 8002 });
    curse.setFile({ ...pack, id: 8002, fileDate: "2024-01-01T00:00:00Z", isServerPack: true, parentProjectFileId: 8001, zip: fabricPack("version 1") });
    curse.setFile({ ...pack, id: 8003, fileDate: "2024-02-01T00:00:00Z", displayName: "Switch Pack 2.0", serverPackFileId: 8004 });
    curse.setFile({ ...pack, id: 8004, fileDate: "2024-02-01T00:00:00Z", isServerPack: true, parentProjectFileId: 8003, zip: fabricPack("version 2", { "config/new.cfg": "new = true" }) });
    // Its server pack is gone from CurseForge.
    curse.setFile({ ...pack, id: 8005, fileDate: "2024-03-01T00:00:00Z", displayName: "Switch Pack 3.0", serverPackFileId: 8099 });
    // Not offered: a beta's status rejected, and a server pack itself (its client file stands for it).
    curse.setFile({ ...pack, id: 8007, fileDate: "2024-04-01T00:00:00Z", displayName: "Rejected", serverPackFileId: 8004, fileStatus: 5 });
    const created = await ctx().panel.request("/api/servers", { token: ctx().admin.token, ...jsonInit("POST", { name: "Pack switching", node: ctx().nodeId, environment: { type: "standard" }, modpack: { source: "curseforge", projectId: "800", versionId: "8001" } }) });
    expect(created.status).toBe(201);
    id = ((await created.json()) as { id: string }).id;
    await packInstalled(ctx(), id);
    mkdirSync(join(folder(), "world"), { recursive: true });
    writeFileSync(join(folder(), "world", "level.dat"), "the user's world");
  }, 60_000);

  test("offered: the pack's files with a server pack, newest first, the one installed marked by value", async () => {
    const { status, body } = await mods("GET", "/versions");
    expect(status).toBe(200);
    expect(body.pack).toEqual({
      variable: "fileId",
      projectId: "800",
      title: "Kiln Switch Pack",
      value: "8001",
      files: [
        { id: "8005", name: "Switch Pack 3.0" },
        { id: "8003", name: "Switch Pack 2.0" },
        { id: "8001", name: "Switch Pack 1.0" },
      ],
    });
  });

  test("the file now, one not offered, one of another pack, one that is no number: refused; two switches at once are refused", async () => {
    for (const [packFileId, code] of [["8001", "ErrFieldNotBetween"], ["8007", "ErrFieldNotBetween"], ["1001", "ErrFieldNotBetween"], ["80 03", "ErrFieldRequired"], ["../8003", "ErrFieldRequired"]] as const) {
      const answer = await mods("POST", "/versions/plan", { packFileId });
      expect({ packFileId, status: answer.status, code: answer.body.error?.code }).toEqual({ packFileId, status: 400, code });
    }
    const both = await mods("POST", "/versions/plan", { packFileId: "8003", gameVersion: "1.20.4" });
    expect(both.body.error).toMatchObject({ code: "ErrUnknownField", metadata: { field: "packFileId" } });
    const { status, body } = await mods("POST", "/versions/plan", { packFileId: "8003" });
    expect(status).toBe(200);
    expect(body).toMatchObject({ what: "pack", from: "8001", to: "8003", variable: "fileId", folder: null, update: [], missing: [], pack: { title: "Kiln Switch Pack", fromName: "Switch Pack 1.0", toName: "Switch Pack 2.0" } });
  });

  test("applied: a backup, the new file's server pack laid over the folder, the user's files kept; undone: all as before", async () => {
    const plan = (await mods("POST", "/versions/plan", { packFileId: "8003" })).body;
    const started = await mods("POST", `/versions/plan/${plan.planId}/apply`);
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ switchTo: "8003", switchOf: "pack" });
    const done = await followed(started.body.changeId);
    expect(done.state, JSON.stringify(done.error)).toBe("done");
    expect(done.backup).toBeString();
    expect((await values()).fileId).toBe("8003");
    expect(readFileSync(join(folder(), "mods", "pack-mod.jar"), "utf8")).toBe("version 2");
    expect(readFileSync(join(folder(), "config", "new.cfg"), "utf8")).toBe("new = true");
    expect(readFileSync(join(folder(), "world", "level.dat"), "utf8")).toBe("the user's world");
    expect((await mods("GET", "/versions")).body.pack.value).toBe("8003");

    const undone = await followed((await mods("POST", `/changes/${done.changeId}/undo`)).body.changeId);
    expect(undone.state).toBe("undone");
    expect((await values()).fileId).toBe("8001");
    expect(readFileSync(join(folder(), "mods", "pack-mod.jar"), "utf8")).toBe("version 1");
    expect(existsSync(join(folder(), "config", "new.cfg"))).toBe(false);
  }, 90_000);

  test("a file whose server pack is gone: the switch fails, the backup is put back, the file variable is as it was", async () => {
    const plan = (await mods("POST", "/versions/plan", { packFileId: "8005" })).body;
    const done = await followed((await mods("POST", `/versions/plan/${plan.planId}/apply`)).body.changeId);
    expect(done.state).toBe("failed");
    expect((await values()).fileId).toBe("8001");
    expect(readFileSync(join(folder(), "mods", "pack-mod.jar"), "utf8")).toBe("version 1");
    expect(readFileSync(join(folder(), "world", "level.dat"), "utf8")).toBe("the user's world");
  }, 90_000);

  test("CurseForge turned off: the pack's files are said unavailable, and a plan says the source is unavailable", async () => {
    const put = (body: unknown) => ctx().panel.request("/api/settings", { token: ctx().admin.token, ...jsonInit("PUT", body) });
    try {
      expect((await put({ modSources: { curseforge: { enabled: false, url: curse.sources.curseforge } } })).status).toBe(204);
      const { body } = await mods("GET", "/versions");
      expect(body.pack).toMatchObject({ projectId: "800", value: "8001", files: [], unavailable: true });
      expect((await mods("POST", "/versions/plan", { packFileId: "8003" })).body.error.code).toBe("ErrModSourceUnavailable");
    } finally {
      expect((await put({ modSources: { curseforge: { enabled: true, url: curse.sources.curseforge } } })).status).toBe(204);
    }
  });
});
