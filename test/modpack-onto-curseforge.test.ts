// A CurseForge modpack laid onto an existing server of another template, through the panel's API,
// against the local CurseForge stand-in (test/helpers/curseforge-fixture): a Fabric server (its
// template states Fabric) finds CurseForge's packs for its loader among the Mods tab's modpacks;
// planning one is a switch of its template to the one that installs CurseForge server packs, the
// pack's project and newest released file set, its Java the one the pack's Minecraft runs on, the
// server's other values kept; applied, a backup is taken and the install lays the server pack over
// the folder (the user's files kept); undone, the backup and the Fabric template come back. A pack
// without a server pack and a plugin server are refused.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../server/services/templates";
import { eventually } from "./helpers/node";
import { curseforgePacksPanelForFile, modsApi, paperServer, switchTemplate } from "./helpers/mods";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { ctx } = curseforgePacksPanelForFile();
let id: string;
const folder = () => join(ctx().node.config.dataDir, "servers", id);
const packs = modsApi(ctx, () => id, "modpacks");
const { call: mods, followed } = modsApi(ctx, () => id);
const definition = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}`, { token: ctx().admin.token })).json()) as { name: string; data: Record<string, { value: unknown }> };

describe.skipIf(!resticHere)("a CurseForge pack onto a Fabric server", () => {
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "fabric-switch", switchTemplate());
    id = await ctx().createServer("Pack onto", { template: "fabric-switch" });
    await eventually(() => existsSync(join(folder(), "installed.txt")), 20_000, "the first install");
    writeFileSync(join(folder(), "world.txt"), "the user's world");
  }, 60_000);

  test("the modpacks pane finds CurseForge's packs too, for the server's loader", async () => {
    const { status, body } = await packs.call("GET", "/search?q=pack&source=curseforge");
    expect(status).toBe(200);
    expect(body.hits.map((h: { source: string; projectId: string }) => [h.source, h.projectId])).toContainEqual(["curseforge", "100"]);
    expect((await packs.call("GET", "/search?q=x&source=elsewhere")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "source" } });
  });

  let plan: any;
  test("planning one is a switch of the server's template to the one that installs CurseForge packs", async () => {
    const answer = await packs.call("POST", "/plan", { source: "curseforge", projectId: "100" });
    expect(answer.status).toBe(200);
    plan = answer.body;
    expect(plan).toMatchObject({ what: "pack", platform: "fabric", from: null, to: "1001", variable: "fileId", missing: [], pack: { title: "pack 100", projectId: "100" }, target: { template: "minecraft-curseforge" } });
  });

  test("applied: a backup, the CurseForge template with the pack's project, file and Java, the server pack laid over the folder; undone, Fabric's template back", async () => {
    const before = (await definition()).name;
    const started = await mods("POST", `/versions/plan/${plan.planId}/apply`);
    expect(started.status).toBe(202);
    const change = await followed(started.body.changeId);
    expect(change).toMatchObject({ state: "done", switchTo: "1001", switchOf: "pack" });
    const after = await definition();
    expect(after.name).toBe("minecraft-curseforge");
    expect([after.data.projectId?.value, after.data.fileId?.value, after.data.java?.value]).toEqual(["100", "1001", "17"]);
    expect(readFileSync(join(folder(), "mods", "pack-mod.jar"), "utf8")).toBe("a mod");
    expect(readFileSync(join(folder(), "world.txt"), "utf8")).toBe("the user's world");
    const undone = await followed((await mods("POST", `/changes/${change.changeId}/undo`)).body.changeId);
    expect(undone.state).toBe("undone");
    expect((await definition()).name).toBe(before);
    expect(existsSync(join(folder(), "mods", "pack-mod.jar"))).toBe(false);
  }, 120_000);

  test("a pack without a server pack, or onto a plugin server, is refused", async () => {
    // 500 has a client file only.
    expect((await packs.call("POST", "/plan", { source: "curseforge", projectId: "500" })).body.error).toMatchObject({ code: "ErrModPackNoServerPack" });
    const paper = await paperServer(ctx(), "Plugins", "1.20.1");
    const onPaper = modsApi(ctx, () => paper, "modpacks");
    expect((await onPaper.call("POST", "/plan", { source: "curseforge", projectId: "100" })).body.error).toMatchObject({ code: "ErrModPlatformUnknown" });
  });
});
