// PufferPanel v3's curseforge step end to end on a real node: a server whose install is the
// official minecraft-curseforge template's (javadl, then curseforge with that Java) installs
// modpacks from a fixture CurseForge API (test/helpers/curseforge-fixture): a Forge pack that
// ships its installer inside one top folder, found as the newest release through its client
// file; Fabric packs told by variables.txt (the server launcher, or the installer where Fabric
// has no launcher); NeoForge and old Forge packs told only by their client manifest. A file that
// is no server pack fails the step; a node without a key says so. The key goes to the API only,
// and never into the console or an answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { templateSchema } from "../core/definition";
import { startTestNode, type TestNode } from "./helpers/node";
import { startFixtureSources, type FixtureSources } from "./helpers/step-sources";
import { API_KEY, startCurseForgeFixture, type CurseForgeFixture } from "./helpers/curseforge-fixture";

let sites: FixtureSources;
let curse: CurseForgeFixture;
let node: TestNode;
let keyless: TestNode;
const logs: string[] = [];

beforeAll(async () => {
  sites = startFixtureSources();
  curse = startCurseForgeFixture();
  node = await startTestNode({ sources: { ...sites.sources, ...curse.sources }, curseforgeKey: API_KEY });
  keyless = await startTestNode({ sources: { ...sites.sources, ...curse.sources } });
});
afterAll(async () => {
  await node.stop();
  await keyless.stop();
  curse.stop();
  sites.stop();
});

/** The official template's install for the host environment (javadl, then curseforge with that Java). */
const definition = (projectId: number, fileId: number) => templateSchema.parse({
  display: "Minecraft: Java Edition (Curseforge Modpack)",
  environment: { type: "host" },
  data: { javaversion: { type: "string", value: "17" }, projectId: { type: "integer", value: projectId }, fileId: { type: "integer", value: fileId } },
  install: [
    { if: "env == 'host' && javaversion != ''", type: "javadl", version: "${javaversion}" },
    { if: "env == 'host'", type: "curseforge", projectId: "${projectId}", fileId: "${fileId}", java: "java${javaversion}" },
  ],
  run: { command: "true" },
});

const folder = (on: TestNode, id: string) => on.folder(id);
const consoleText = async (on: TestNode, id: string) => ((await on.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

async function install(id: string, projectId: number, fileId: number, on = node): Promise<{ status: number; body: any; console: string }> {
  await on.json("PUT", `/daemon/server/${id}`, definition(projectId, fileId));
  const res = await on.call("POST", `/daemon/server/${id}/install?wait=true`);
  const text = await res.text();
  const console = await consoleText(on, id);
  logs.push(console, text);
  return { status: res.status, body: text ? JSON.parse(text) : null, console };
}

describe("curseforge installs a modpack", () => {
  test("Forge (fileId 0, as the official template has it): the newest release's linked server pack, its one top folder stepped into, the installer it ships run and removed", async () => {
    const { status, console } = await install("cf-forge", 100, 0);
    expect(status, console).toBe(204);
    const root = folder(node, "cf-forge");
    expect(readFileSync(join(root, "mods/pack-mod.jar"), "utf8")).toBe("a mod");
    expect(readFileSync(join(root, "config/pack.cfg"), "utf8")).toBe("setting=1");
    expect(readFileSync(join(root, "libraries/net/minecraftforge/forge/1.20.1-47.2.0/unix_args.txt"), "utf8")).toContain("fixture.forge=1.20.1-47.2.0");
    expect(existsSync(join(root, "forge-1.20.1-47.2.0-installer.jar"))).toBe(false);
    expect(existsSync(join(root, "forge-1.20.1-47.2.0-installer.jar.log"))).toBe(false);
    expect(existsSync(join(root, "Pack-Server-1.2"))).toBe(false);
    // Nothing of the download or the staging is left behind.
    expect(readdirSync(root).filter((name) => name.startsWith(".kiln"))).toEqual([]);
    expect(console).toContain("running the installer forge-1.20.1-47.2.0-installer.jar");
    expect(console).toContain("the modpack is installed");
    // The newest *released, approved* file was 1001 (a beta and a rejected file are newer), whose server pack is 1002.
    expect(curse.requests.map((r) => r.path)).toContain("/files/1002.zip");
    expect(curse.requests.map((r) => r.path)).not.toContain("/curseforge/v1/mods/100/files/1099");
  }, 60_000);

  test("Fabric by variables.txt: Fabric's server launcher for those versions becomes server.jar", async () => {
    const { status, console } = await install("cf-fabric", 200, 2001);
    expect(status, console).toBe(204);
    const root = folder(node, "cf-fabric");
    expect(readFileSync(join(root, "server.jar"), "utf8")).toContain("fabric launcher 1.20.1 0.15.7 installer 1.0.0");
    expect(readFileSync(join(root, "mods/fabric-mod.jar"), "utf8")).toBe("a fabric mod");
  }, 60_000);

  test("Fabric where Fabric has no launcher: its installer runs and its launcher becomes server.jar", async () => {
    const { status, console } = await install("cf-fabric-old", 201, 2011);
    expect(status, console).toBe(204);
    const root = folder(node, "cf-fabric-old");
    expect(readFileSync(join(root, "server.jar"), "utf8")).toContain("fabric launcher 1.16.5 0.11.0");
    expect(existsSync(join(root, "fabric-installer.jar"))).toBe(false);
    expect(console).toContain("running its installer");
  }, 60_000);

  test("NeoForge by the client manifest: its installer fetched from NeoForge's Maven and run", async () => {
    const { status, console } = await install("cf-neo", 300, 3002);
    expect(status, console).toBe(204);
    const root = folder(node, "cf-neo");
    expect(existsSync(join(root, "libraries/net/neoforged/neoforge/21.1.77/unix_args.txt"))).toBe(true);
    expect(readFileSync(join(root, "mods/neo-mod.jar"), "utf8")).toBe("a neoforge mod");
    expect(existsSync(join(root, "manifest.json"))).toBe(false);
  }, 60_000);

  test("old Forge by the client manifest: the installer from Forge's Maven, its server jar renamed server.jar", async () => {
    const { status, console } = await install("cf-old", 400, 4001);
    expect(status, console).toBe(204);
    expect(readFileSync(join(folder(node, "cf-old"), "server.jar"), "utf8")).toContain("forge 1.12.2-14.23.5.2860 server");
  }, 60_000);
});

describe("curseforge refuses", () => {
  test("a file that is no server pack, with none linked: the step fails saying so", async () => {
    const { body } = await install("cf-client", 500, 5001);
    expect(body.error).toMatchObject({ code: "ErrStepFailed", metadata: { step: "curseforge", reason: "CurseForge file 5001 is not a server pack, and none is linked to it" } });
  }, 60_000);

  test("a project CurseForge does not know", async () => {
    const { body } = await install("cf-none", 999, 0);
    expect(body.error.metadata.reason).toBe("CurseForge project 999 has no released file available");
  }, 60_000);

  test("a node without an API key says where to set one", async () => {
    const { body } = await install("cf-keyless", 100, 0, keyless);
    expect(body.error.metadata.reason).toContain("this node has no CurseForge API key (curseforgeKey in its config, or KILN_DAEMON_CURSEFORGE_KEY)");
  }, 60_000);
});

test("the key goes to the API only, never to a download, the console or an answer", () => {
  const api = curse.requests.filter((r) => r.path.startsWith("/curseforge/"));
  expect(api.length).toBeGreaterThan(0);
  expect(api.filter((r) => r.key !== API_KEY && r.key !== null)).toEqual([]);
  expect(curse.requests.filter((r) => !r.path.startsWith("/curseforge/") && r.key !== null)).toEqual([]);
  expect(logs.join("\n")).not.toContain(API_KEY);
});
