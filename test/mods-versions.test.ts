// Switching a Fabric server's Minecraft version through the panel's API, against the local
// Modrinth (recorded documents; Fabric API has versions for 1.20.1 and 1.20.4, the recorded Geyser
// only for 1.20.4). The server's template states that `${version}` is its Minecraft version and its
// install lays out Fabric's libraries for it (a quick stand-in for Fabric's installer). The
// versions offered are Modrinth's releases; the plan replaces Fabric API by its 1.20.1 version and
// names Geyser and a jar Modrinth does not know as missing; applied, a backup is taken, the install
// runs again for 1.20.1 with the user's files kept, Fabric API is replaced; undone, the backup
// comes back. An install that fails puts the backup back; a version not offered, the same version,
// and a template that names no variable are refused.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../server/services/templates";
import { eventually } from "./helpers/node";
import { modrinthPanelForFile, modsApi, switchTemplate } from "./helpers/mods";
import { MODRINTH } from "./helpers/modrinth-fixture";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx } = await modrinthPanelForFile();
const GEYSER = MODRINTH.geyser;
const FABRIC_API_1_20_4 = "BPX6fK06";

let id: string;
const folder = () => join(ctx().node.config.dataDir, "servers", id);
const { call: mods, apply, followed } = modsApi(ctx, () => id);
/** A version plan applied and followed until its change ends. */
async function switched(planId: string) {
  const started = await mods("POST", `/versions/plan/${planId}/apply`);
  expect(started.status).toBe(202);
  return followed(started.body.changeId);
}
const installedText = () => readFileSync(join(folder(), "installed.txt"), "utf8");
const variable = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data.version;

describe.skipIf(!resticHere)("switching a Fabric server's Minecraft version", () => {
  let fabricApiOld: string;
  let geyserFile: string;
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "fabric-switch", switchTemplate());
    id = await ctx().createServer("Switching", { template: "fabric-switch" });
    await eventually(() => existsSync(join(folder(), "installed.txt")), 20_000, "the first install");
    const plan = (await mods("POST", "/plan", { source: "modrinth", projectId: GEYSER })).body;
    const done = await apply(plan.planId);
    expect(done.state).toBe("done");
    [geyserFile, fabricApiOld] = [plan.add[0].fileName, plan.add[1].fileName];
    expect(plan.add[1].versionId).toBe(FABRIC_API_1_20_4);
    writeFileSync(join(folder(), "mods", "my-own.jar"), "a jar of the user's own");
    writeFileSync(join(folder(), "world.txt"), "the user's world");
  }, 60_000);

  test("the versions offered are Modrinth's releases, newest first, and the variable that sets it", async () => {
    const { status, body } = await mods("GET", "/versions");
    expect(status).toBe(200);
    expect(body).toMatchObject({ platform: "fabric", gameVersion: "1.20.4", variable: "version" });
    expect(body.versions).toContain("1.20.1");
    expect(body.versions).toContain("1.19.2");
    expect(body.versions.indexOf("1.21")).toBeLessThan(body.versions.indexOf("1.20.4"));
    expect(body.versions.every((v: string) => /^\d+\.\d+(\.\d+)?$/.test(v))).toBe(true);
  });

  let plan: any;
  test("the plan replaces Fabric API by its 1.20.1 version and names what has none", async () => {
    const answer = await mods("POST", "/versions/plan", { gameVersion: "1.20.1" });
    expect(answer.status).toBe(200);
    plan = answer.body;
    expect(plan).toMatchObject({ platform: "fabric", from: "1.20.4", to: "1.20.1", variable: "version", folder: "mods" });
    expect(plan.update).toHaveLength(1);
    expect(plan.update[0]).toMatchObject({ title: "Fabric API", replaces: fabricApiOld });
    expect(modrinth.version(plan.update[0].versionId).game_versions).toContain("1.20.1");
    expect(plan.missing.sort((a: { fileName: string }, b: { fileName: string }) => a.fileName.localeCompare(b.fileName))).toEqual(
      [{ fileName: geyserFile, title: expect.any(String), known: true }, { fileName: "my-own.jar", known: false }].sort((a, b) => a.fileName.localeCompare(b.fileName)),
    );
  });

  let change: any;
  test("applied: a backup, the install again for 1.20.1 keeping the user's files, Fabric API replaced", async () => {
    change = await switched(plan.planId);
    expect(change).toMatchObject({ state: "done", switchTo: "1.20.1", removed: [fabricApiOld], added: [plan.update[0].fileName] });
    expect(change.backup).toMatch(/^[0-9a-f]{8}$/);
    expect(installedText()).toBe("Minecraft 1.20.1");
    expect(await variable()).toBe("1.20.1");
    expect((await mods("GET", "/platform")).body.gameVersion).toBe("1.20.1");
    const files = readdirSync(join(folder(), "mods")).sort();
    expect(files).toEqual([geyserFile, "my-own.jar", plan.update[0].fileName].sort());
    expect(readFileSync(join(folder(), "world.txt"), "utf8")).toBe("the user's world");
  }, 60_000);

  test("undone: the backup comes back, the variable as it was", async () => {
    const undone = await mods("POST", `/changes/${change.changeId}/undo`);
    expect(undone.status).toBe(200);
    expect(undone.body.state).toBe("undone");
    expect(installedText()).toBe("Minecraft 1.20.4");
    expect(await variable()).toBe("1.20.4");
    expect(readdirSync(join(folder(), "mods")).sort()).toEqual([fabricApiOld, geyserFile, "my-own.jar"].sort());
  }, 60_000);

  test("an install that fails: the backup is put back, nothing changed", async () => {
    // The install a server runs is its own copy of the template's: changed on the server.
    const definition = await (await ctx().panel.request(`/proxy/daemon/server/${id}`, { token: ctx().admin.token })).json();
    definition.install = switchTemplate([{ type: "command", commands: ["sh -c 'exit 3'"] }]).install;
    expect((await ctx().panel.request(`/proxy/daemon/server/${id}`, { token: ctx().admin.token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(definition) })).status).toBeLessThan(300);
    const failing = (await mods("POST", "/versions/plan", { gameVersion: "1.20.1" })).body;
    const failed = await switched(failing.planId);
    expect(failed).toMatchObject({ state: "failed", error: { code: "ErrStepFailed" }, switchTo: "1.20.1" });
    expect(installedText()).toBe("Minecraft 1.20.4");
    expect(await variable()).toBe("1.20.4");
    expect(readdirSync(join(folder(), "mods")).sort()).toEqual([fabricApiOld, geyserFile, "my-own.jar"].sort());
    expect(readFileSync(join(folder(), "world.txt"), "utf8")).toBe("the user's world");
  }, 60_000);

  test("a version not offered, the version it runs, a template that names no variable: refused", async () => {
    expect((await mods("POST", "/versions/plan", { gameVersion: "9.9.9" })).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "gameVersion" } });
    expect((await mods("POST", "/versions/plan", { gameVersion: "1.20.4" })).body.error).toMatchObject({ code: "ErrFieldNotBetween" });
    expect((await mods("POST", "/versions/plan", {})).body.error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "gameVersion" } });
    const plain = await ctx().createServer("No variable");
    const other = modsApi(ctx, () => plain);
    expect((await other.call("GET", "/versions")).body).toMatchObject({ variable: null, versions: [] });
    expect((await other.call("POST", "/versions/plan", { gameVersion: "1.20.1" })).body.error.code).toBe("ErrModSwitchUnavailable");
  });
});
