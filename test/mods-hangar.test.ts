// Plugins from Hangar (PaperMC's plugin repository) through the panel's API, against a local Hangar
// answering in its API model's shapes (test/helpers/hangar-fixture): on a Paper 1.21.1 server, a
// search asks Hangar for Paper plugins for 1.21.1; a project's page shows its main page as text
// and its Paper versions; installing ViaBackwards plans ViaVersion with it (a required Hangar
// dependency, its release rather than its newer snapshot), and applying downloads both from
// Hangar's file host checked by SHA-256; the installed list then knows both by that hash, with
// their titles and ViaVersion's newer build. A dependency Hangar does not host is named in the
// plan; a version hosted elsewhere cannot be installed; a mod loader's server is not offered
// Hangar; Hangar turned off says so. Switching a Paper server's Minecraft version replaces a
// Hangar plugin by its version for the target (downloaded by its SHA-256) or names it missing.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { HANGAR } from "./helpers/hangar-fixture";
import { fabricServer, hangarPanelForFile, modsApi, paperServer } from "./helpers/mods";
import { jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { echoTemplate, eventually } from "./helpers/node";
import { putTemplate } from "../server/services/templates";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { hangar, ctx: panel } = await hangarPanelForFile();
let ctx: PanelWithNode;
let id: string;
let fabricId: string;
const { call, apply } = modsApi(() => ctx, () => id);
const onFabric = modsApi(() => ctx, () => fabricId);
const settings = (body: unknown) => ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("PUT", body) });
const lastAsked = (prefix: string) => new URL(`http://x${hangar.requests.findLast((r) => r.host === "api" && r.path.startsWith(prefix))!.path}`);

describe.skipIf(!resticHere)("plugins from Hangar", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await paperServer(ctx, "Hangared", "1.21.1");
    fabricId = await fabricServer(ctx, "Modded", "1.21.1");
  });

  test("a search asks Hangar for Paper plugins for the server's Minecraft version, in Kiln's sort", async () => {
    const { status, body } = await call("GET", "/search?q=allow&source=hangar&sort=downloads");
    expect(status).toBe(200);
    expect(body.hits.map((h: { source: string; projectId: string; slug: string; title: string }) => [h.source, h.projectId, h.slug, h.title])).toEqual([
      ["hangar", String(HANGAR.viaVersion), "ViaVersion", "ViaVersion"],
      ["hangar", String(HANGAR.viaBackwards), "ViaBackwards", "ViaBackwards"],
    ]);
    expect(body.total).toBe(2);
    expect(Object.fromEntries(lastAsked("/api/v1/projects?").searchParams)).toEqual({ q: "allow", platform: "PAPER", version: "1.21.1", sort: "-downloads", limit: "20", offset: "0" });
    // Hangar's categories are not Modrinth's: one of Modrinth's with it is refused, not ignored.
    expect((await call("GET", "/search?q=x&source=hangar&category=optimization")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "category" } });
  });

  test("a search narrowed to one of Hangar's own categories asks Hangar for it", async () => {
    const { status, body } = await call("GET", "/search?q=&source=hangar&category=admin_tools");
    expect(status).toBe(200);
    expect(body.hits.map((h: { title: string; categories: string[] }) => [h.title, h.categories])).toEqual([["Maintenance", ["admin_tools"]]]);
    expect(lastAsked("/api/v1/projects?").searchParams.get("category")).toBe("admin_tools");
    // Spiget takes none (CurseForge's own are its API's: test/mods-curseforge).
    expect((await call("GET", "/search?q=x&source=spiget&category=admin_tools")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "category" } });
  });

  test("a mod loader's server is not offered Hangar (Paper's plugins), in its search or its plans", async () => {
    const asked = hangar.requests.length;
    expect((await onFabric.call("GET", "/search?q=via&source=hangar")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "source" } });
    expect((await onFabric.call("POST", "/plan", { source: "hangar", projectId: String(HANGAR.viaVersion) })).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "source" } });
    expect(hangar.requests.length).toBe(asked);
  });

  test("a project's page: its main page as text, its Paper versions newest first, each said to fit or not", async () => {
    const { status, body } = await call("GET", `/projects/ViaVersion?source=hangar`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "hangar", projectId: String(HANGAR.viaVersion), slug: "ViaVersion", title: "ViaVersion", downloads: 1_250_000 });
    expect(body.body).toContain("Allow newer clients to join older server versions.");
    expect(body.versions.map((v: { versionId: string; versionType: string; fits: boolean }) => [v.versionId, v.versionType, v.fits])).toEqual([
      ["9002", "beta", true],
      ["9001", "release", true],
      ["9003", "release", false],
    ]);
  });

  let plan: any;
  test("installing ViaBackwards plans ViaVersion's release with it; applied, both come from Hangar's host as it hashed them", async () => {
    const answer = await call("POST", "/plan", { source: "hangar", projectId: String(HANGAR.viaBackwards) });
    expect(answer.status).toBe(200);
    plan = answer.body;
    expect(plan.add.map((f: { source: string; projectId: string; versionId: string }) => [f.source, f.projectId, f.versionId])).toEqual([
      ["hangar", String(HANGAR.viaBackwards), "9011"],
      ["hangar", String(HANGAR.viaVersion), "9001"],
    ]);
    expect(plan.add[0]).toMatchObject({ fileName: "ViaBackwards-5.0.3.jar", sha256: hangar.version(9011).downloads.PAPER.fileInfo.sha256Hash, size: hangar.jar(9011).length });
    expect(plan.add[1]).toMatchObject({ requiredBy: "ViaBackwards", fileName: "ViaVersion-5.0.3.jar" });
    expect(plan).toMatchObject({ folder: "plugins", warnings: [], blocked: false });
    const change = await apply(plan.planId);
    expect(change).toMatchObject({ state: "done", added: ["ViaBackwards-5.0.3.jar", "ViaVersion-5.0.3.jar"] });
    const folder = ctx.node.folder(id, "plugins");
    expect(new Uint8Array(readFileSync(join(folder, "ViaVersion-5.0.3.jar")))).toEqual(hangar.jar(9001));
    expect(hangar.requests.filter((r) => r.host === "cdn").map((r) => r.path).sort()).toEqual(["/plugins/ViaVersion/ViaBackwards/versions/5.0.3/PAPER/ViaBackwards-5.0.3.jar", "/plugins/ViaVersion/ViaVersion/versions/5.0.3/PAPER/ViaVersion-5.0.3.jar"]);
  }, 60_000);

  test("the installed list knows both by their SHA-256, with their titles and ViaVersion's newer build", async () => {
    const { body } = await call("GET", "/installed");
    const rows = body.map((f: { fileName: string; source?: string; projectId?: string; versionId?: string; title?: string; updateAvailable?: { versionNumber: string } }) => [f.fileName, f.source, f.projectId, f.versionId, f.title, f.updateAvailable?.versionNumber]).sort();
    expect(rows).toEqual([
      ["ViaBackwards-5.0.3.jar", "hangar", String(HANGAR.viaBackwards), "9011", "ViaBackwards", undefined],
      ["ViaVersion-5.0.3.jar", "hangar", String(HANGAR.viaVersion), "9001", "ViaVersion", "5.1.0-SNAPSHOT"],
    ]);
    expect(hangar.requests.some((r) => r.path === `/api/v1/versions/hash/${hangar.version(9001).downloads.PAPER.fileInfo.sha256Hash}`)).toBe(true);
  });

  test("a required dependency Hangar does not host is named in the plan; an optional one is left out", async () => {
    const { body } = await call("POST", "/plan", { source: "hangar", projectId: "Maintenance" });
    expect(body.add.map((f: { fileName: string }) => f.fileName)).toEqual(["Maintenance-4.2.1.jar"]);
    expect(body.warnings).toEqual([{ code: "externalDependency", title: "ProtocolLib", other: "Maintenance", message: "Maintenance needs ProtocolLib, which its source does not host: add ProtocolLib yourself, or Maintenance may not start." }]);
    expect(body.blocked).toBe(false);
  });

  test("a version hosted elsewhere cannot be installed (Hangar gives no file or hash for it); Hangar turned off says so", async () => {
    const refused = await call("POST", "/plan", { source: "hangar", projectId: String(HANGAR.viaVersion), versionId: "9003" });
    expect(refused.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Hangar" } });
    expect((await settings({ modSources: { hangar: { enabled: false, url: hangar.url } } })).status).toBe(204);
    try {
      expect((await call("GET", "/search?q=via&source=hangar")).body.error).toMatchObject({ code: "ErrModSourceUnavailable" });
      // The files stay listed, unnamed.
      const { body } = await call("GET", "/installed");
      expect(body.map((f: { fileName: string; source?: string }) => [f.fileName, f.source ?? null]).sort()).toEqual([
        ["ViaBackwards-5.0.3.jar", null],
        ["ViaVersion-5.0.3.jar", null],
      ]);
    } finally {
      expect((await settings({ modSources: { hangar: { enabled: true, url: hangar.url } } })).status).toBe(204);
    }
  });

  test("a version switch replaces a Hangar plugin by its version for the target, checked by SHA-256, or names it missing", async () => {
    const echo = echoTemplate();
    const template = {
      ...echo,
      name: "paper-switch",
      type: "minecraft-java",
      addons: { platform: "paper", gameVersion: "${version}" },
      install: [{ type: "writefile", target: "version_history.json", text: '{"currentVersion":"git-Paper-1 (MC: ${version})"}' }],
      data: { ...echo.data, version: { display: "Minecraft version", desc: "", type: "option", value: "1.21.1", options: [{ value: "1.21.1" }, { value: "1.20.4" }, { value: "1.19.4" }], required: true, userEdit: true } },
    };
    await putTemplate(ctx.panel.db, "paper-switch", template);
    const switching = await ctx.createServer("Paper switching", { template: "paper-switch" });
    const onSwitching = modsApi(() => ctx, () => switching);
    const folder = ctx.node.folder(switching);
    await eventually(() => existsSync(join(folder, "version_history.json")), 20_000, "the first install");
    // ViaVersion's snapshot runs on 1.21.1 only; its release on 1.20.4 too, and neither on 1.19.4.
    const installed = (await onSwitching.call("POST", "/plan", { source: "hangar", projectId: String(HANGAR.viaVersion), versionId: "9002" })).body;
    expect((await onSwitching.apply(installed.planId)).state).toBe("done");
    const plan = (await onSwitching.call("POST", "/versions/plan", { gameVersion: "1.20.4" })).body;
    expect(plan).toMatchObject({ platform: "paper", from: "1.21.1", to: "1.20.4", missing: [] });
    expect(plan.update).toEqual([expect.objectContaining({ source: "hangar", versionId: "9001", fileName: "ViaVersion-5.0.3.jar", sha256: hangar.version(9001).downloads.PAPER.fileInfo.sha256Hash, replaces: "ViaVersion-5.1.0-SNAPSHOT.jar" })]);
    const started = await onSwitching.call("POST", `/versions/plan/${plan.planId}/apply`);
    expect(started.status).toBe(202);
    const change = await onSwitching.followed(started.body.changeId);
    expect(change).toMatchObject({ state: "done", switchTo: "1.20.4", added: ["ViaVersion-5.0.3.jar"], removed: ["ViaVersion-5.1.0-SNAPSHOT.jar"] });
    expect(new Uint8Array(readFileSync(join(folder, "plugins", "ViaVersion-5.0.3.jar")))).toEqual(hangar.jar(9001));
    const older = (await onSwitching.call("POST", "/versions/plan", { gameVersion: "1.19.4" })).body;
    expect(older).toMatchObject({ update: [], missing: [{ fileName: "ViaVersion-5.0.3.jar", title: "ViaVersion", known: true }] });
  }, 90_000);
});
