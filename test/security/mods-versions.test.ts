// Attacks on switching a server's Minecraft version. Through the panel: a user of the server
// without manageMods, another holder of manageMods using someone else's plan, a version that is
// shell syntax or not offered, and a source whose version list carries shell syntax. On the node
// (defence in depth, as if the panel were bypassed): a switch that names another variable than the
// one the template states (a way to set any variable and reinstall), a value that is not a version,
// and add-on files outside the usual checks. Each gets a catalogue error; the server's variables
// and folder are unchanged.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { putTemplate } from "../../server/services/templates";
import { eventually } from "../helpers/node";
import { modrinthPanelForFile, modsApi, switchRefusal, switchTemplate } from "../helpers/mods";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { modrinth, ctx } = await modrinthPanelForFile();
let id: string;
const folder = () => join(ctx().node.config.dataDir, "servers", id);
const { call: mods } = modsApi(ctx, () => id);
const values = async () => (await (await ctx().panel.request(`/proxy/daemon/server/${id}/data`, { token: ctx().admin.token })).json()).data;

describe.skipIf(!resticHere)("a version switch under attack", () => {
  beforeAll(async () => {
    await putTemplate(ctx().panel.db, "fabric-switch", switchTemplate());
    id = await ctx().createServer("Attacked", { template: "fabric-switch" });
    await eventually(() => existsSync(join(folder(), "installed.txt")), 20_000, "the first install");
  }, 30_000);

  test("a user without manageMods reaches none of the routes", async () => {
    const user = await ctx().userWith(id, { viewServer: true, editServerData: true, installServer: true });
    for (const [method, path, body] of [["GET", "/versions"], ["POST", "/versions/plan", { gameVersion: "1.20.1" }], ["POST", "/versions/plan/00000000-0000-4000-8000-000000000000/apply", {}]] as const) {
      const answer = await mods(method, path, body, user.token);
      expect({ path, status: answer.status, code: answer.body.error?.code }).toEqual({ path, status: 403, code: "ErrNoPermission" });
    }
  });

  test("another holder of manageMods cannot apply a plan made by someone else", async () => {
    const plan = (await mods("POST", "/versions/plan", { gameVersion: "1.20.1" })).body;
    const other = await ctx().userWith(id, { viewServer: true, manageMods: true });
    const answer = await mods("POST", `/versions/plan/${plan.planId}/apply`, {}, other.token);
    expect(answer.body.error?.code).toBe("ErrModPlanUnknown");
    expect((await values()).version).toBe("1.20.4");
  });

  test("a version that is shell syntax, a path or not offered is refused before anything is asked of the node", async () => {
    for (const gameVersion of ['1.20.1"; touch /tmp/kiln-switch-pwned; "', "../../etc", "1.20.1\n", 1.2, null, "1.20.99"]) {
      const answer = await mods("POST", "/versions/plan", { gameVersion });
      expect(answer.status).toBe(400);
      expect(["ErrFieldRequired", "ErrFieldNotBetween"]).toContain(answer.body.error?.code);
    }
    expect(existsSync("/tmp/kiln-switch-pwned")).toBe(false);
    expect((await values()).version).toBe("1.20.4");
  });

  test("a source whose version list carries shell syntax: those entries are never offered", async () => {
    const tagged = modrinth.version("BPX6fK06");
    const before = [...tagged.game_versions];
    tagged.game_versions = [...before, "1.99; rm -rf ~", "<script>"];
    try {
      const { body } = await mods("GET", "/versions");
      expect(body.versions).not.toContain("1.99; rm -rf ~");
      expect(body.versions).not.toContain("<script>");
      expect((await mods("POST", "/versions/plan", { gameVersion: "1.99; rm -rf ~" })).status).toBe(400);
    } finally {
      tagged.game_versions = before;
    }
  });

  test("on the node: another variable than the stated one, a value that is not a version, files beside a null folder: refused, nothing changed", async () => {
    const refused = switchRefusal(ctx(), id);
    expect(await refused({ variable: "greeting", value: "1.20.1", folder: null })).toBe("ErrModSwitchUnavailable");
    expect(await refused({ variable: "version", value: "1.20.1; id", folder: null })).toBe("ErrFieldNotBetween");
    expect(await refused({ variable: "version", value: "1.20.1", folder: null, add: [{ url: `${modrinth.cdn}/x.jar`, fileName: "x.jar", size: 1, sha1: "0".repeat(40) }] })).toBe("ErrFieldRequired");
    expect(await refused({ variable: "version", value: "1.20.1", folder: "mods", add: [{ url: "http://127.0.0.1:9/x.jar", fileName: "x.jar", size: 1, sha1: "0".repeat(40) }] })).toBe("ErrModSourceNotAllowed");
    expect(await refused({ variable: "version", value: "1.20.1", folder: "mods", remove: ["../installed.txt"] })).toBe("ErrFieldMustBePrintable");
    expect(await values()).toMatchObject({ version: "1.20.4", greeting: "world" });
    expect(readFileSync(join(folder(), "installed.txt"), "utf8")).toBe("Minecraft 1.20.4");
  });
});
