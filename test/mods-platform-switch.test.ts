// Switching a Paper server to Purpur from the Mods tab, through the panel's API: the shipped Paper
// and Purpur templates (their installs swapped for a quick stand-in that writes what each platform
// writes) are the platforms; a Paper 1.21.1 server with a Hangar plugin and a jar nobody knows is
// offered Purpur (and no mod loader: its plugins would not load there); the plan says the plugin
// runs on Purpur and the unknown jar cannot be judged; applied, a backup is taken, the server's
// template becomes Purpur's with its Minecraft version, memory and port kept, its build at
// Purpur's default (a Paper build means nothing to Purpur), the administrator's JVM flags kept
// (both templates have the same default) and its download address Purpur's, the install runs again and the plugins
// stay; undone, it is a Paper server again with its pinned build. A template that is not offered is
// refused.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../server/services/templates";
import { SHIPPED_TEMPLATE_SOURCES } from "../templates";
import { HANGAR } from "./helpers/hangar-fixture";
import { eventually } from "./helpers/node";
import { hangarPanelForFile, modsApi } from "./helpers/mods";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { ctx } = await hangarPanelForFile();
let id: string;
const folder = () => join(ctx().node.config.dataDir, "servers", id);
const { call: mods, apply, followed } = modsApi(ctx, () => id);
const data = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data as Record<string, unknown>;

/** A shipped template whose install writes what its platform writes (version_history.json names it), fast and offline, its versions listed. */
function quick(name: "minecraft-paper" | "minecraft-purpur", brand: string) {
  const shipped = SHIPPED_TEMPLATE_SOURCES[name] as Record<string, unknown>;
  const data = shipped.data as Record<string, Record<string, unknown>>;
  return {
    ...shipped,
    install: [{ type: "writefile", target: "version_history.json", text: `{"currentVersion":"git-${brand}-1 (MC: \${version})"}` }, { type: "writefile", target: "installed.txt", text: `${brand} \${version} build \${build}` }, { type: "mkdir", target: "plugins" }],
    // The Minecraft versions offered are the variable's (else Modrinth's, which this test has not).
    // Two more: JVM flags only an administrator sets, the same default in both templates; a banner
    // users may edit on Paper and not on Purpur, the same default too.
    data: {
      ...data,
      version: { ...data.version, options: [{ value: "1.21.1" }, { value: "1.20.4" }] },
      jvmFlags: { type: "string", value: "-XX:+UseG1GC", display: "JVM flags", desc: "", required: false, userEdit: false },
      banner: { type: "string", value: "Welcome", display: "Banner", desc: "", required: false, userEdit: brand === "Paper" },
    },
  };
}

describe.skipIf(!resticHere)("switching a Paper server to Purpur", () => {
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "minecraft-paper", quick("minecraft-paper", "Paper"));
    await putTemplate(ctx().panel.db, "minecraft-purpur", quick("minecraft-purpur", "Purpur"));
    id = await ctx().createServer("Switching platform", { template: "minecraft-paper", variables: { version: "1.21.1", build: "496", memory: 3000, port: 25570, jvmFlags: "-Xss4m", banner: "Anything goes" } });
    await eventually(() => existsSync(join(folder(), "installed.txt")), 20_000, "the first install");
    const plan = (await mods("POST", "/plan", { source: "hangar", projectId: String(HANGAR.viaVersion), versionId: "9001" })).body;
    expect((await apply(plan.planId)).state).toBe("done");
    writeFileSync(join(folder(), "plugins", "by-hand.jar"), "a plugin nobody knows");
    writeFileSync(join(folder(), "world.txt"), "the user's world");
  }, 60_000);

  test("Purpur is offered, by the template that installs it; no mod loader is", async () => {
    const { status, body } = await mods("GET", "/versions");
    expect(status).toBe(200);
    expect(body).toMatchObject({ platform: "paper", gameVersion: "1.21.1" });
    expect(body.platforms).toEqual([{ template: "minecraft-purpur", platform: "purpur", display: "Minecraft: Java Edition (Purpur)" }]);
  });

  let plan: any;
  test("the plan: Paper to Purpur for the same Minecraft; the Hangar plugin runs there, the unknown jar cannot be judged", async () => {
    const answer = await mods("POST", "/versions/plan", { template: "minecraft-purpur" });
    expect(answer.status).toBe(200);
    plan = answer.body;
    expect(plan).toMatchObject({ what: "platform", platform: "paper", gameVersion: "1.21.1", from: "paper", to: "purpur", variable: "version", update: [], target: { template: "minecraft-purpur", display: "Minecraft: Java Edition (Purpur)" } });
    expect(plan.missing).toEqual([{ fileName: "by-hand.jar", known: false }]);
  });

  test("applied: a backup, Purpur's template with the server's values (its build at Purpur's default), installed again, the files kept", async () => {
    const started = await mods("POST", `/versions/plan/${plan.planId}/apply`);
    expect(started.status).toBe(202);
    const change = await followed(started.body.changeId);
    expect(change).toMatchObject({ state: "done", switchTo: "purpur", switchOf: "platform" });
    expect(change.backup).toMatch(/^[0-9a-f]{8}$/);
    expect(readFileSync(join(folder(), "installed.txt"), "utf8")).toBe("Purpur 1.21.1 build latest");
    expect(await data()).toMatchObject({ version: "1.21.1", build: "latest", memory: 3000, port: 25570, downloadBase: "https://api.purpurmc.org" });
    // An administrator's value where both templates agree on the default stays; a value users could
    // set does not go into a variable the new template keeps from them (it starts at its default).
    expect(await data()).toMatchObject({ jvmFlags: "-Xss4m", banner: "Welcome" });
    expect((await mods("GET", "/platform")).body).toMatchObject({ platform: "purpur", gameVersion: "1.21.1" });
    expect(readdirSync(join(folder(), "plugins")).sort()).toEqual(["ViaVersion-5.0.3.jar", "by-hand.jar"]);
    expect(readFileSync(join(folder(), "world.txt"), "utf8")).toBe("the user's world");
    // Now a Purpur server: Paper is offered back.
    expect((await mods("GET", "/versions")).body.platforms.map((p: { template: string }) => p.template)).toEqual(["minecraft-paper"]);
    plan = change;
  }, 60_000);

  test("undone: the backup back, and Paper's template with its pinned build", async () => {
    const undone = await followed((await mods("POST", `/changes/${plan.changeId}/undo`)).body.changeId);
    expect(undone.state).toBe("undone");
    expect(await data()).toMatchObject({ version: "1.21.1", build: "496", downloadBase: "https://fill.papermc.io" });
    expect(readFileSync(join(folder(), "installed.txt"), "utf8")).toBe("Paper 1.21.1 build 496");
    expect((await mods("GET", "/platform")).body).toMatchObject({ platform: "paper" });
  }, 60_000);

  test("a template that is not offered (another folder's platform, none at all) is refused", async () => {
    for (const template of ["minecraft-fabric", "no-such-template", ""]) {
      const refused = await mods("POST", "/versions/plan", { template });
      expect({ template, status: refused.status, code: refused.body.error?.code }).toEqual({ template, status: 400, code: template ? "ErrFieldNotBetween" : "ErrFieldRequired" });
    }
  });
});
