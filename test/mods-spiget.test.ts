// Plugins from Spiget (SpigotMC's resources) through the panel's API, against a local Spiget
// answering as Spiget's own server does (test/helpers/spiget-fixture): on a Spigot 1.21.1 server
// Spiget is offered (Hangar, Paper's, is not); a search finds resources by name, leaving out those
// Spiget cannot serve (premium, hosted elsewhere); a resource's page shows its description as text
// and its latest version, tested on 1.21; installing it pins the file (the panel downloads it once
// from Spiget's file host and plans its SHA-512 and exact size), and the node places it only with
// those bytes, remembering where they came from, so the installed list names the file and offers
// Spiget's next version. A resource tested on older versions only is planned with a warning; an older
// version, a premium or external resource cannot be installed; Spiget turned off says so.
import { beforeAll, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { SPIGET } from "./helpers/spiget-fixture";
import { modsApi, spigetPanelForFile, spigotServer } from "./helpers/mods";
import { jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
const { spiget, ctx: panel } = spigetPanelForFile();
let ctx: PanelWithNode;
let id: string;
const { call, apply } = modsApi(() => ctx, () => id);
const settings = (body: unknown) => ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("PUT", body) });
const sha512 = (bytes: Uint8Array) => createHash("sha512").update(bytes).digest("hex");

describe.skipIf(!resticHere)("plugins from Spiget", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await spigotServer(ctx, "Spigoted", "1.21.1");
  });

  test("a Spigot server is offered Spiget, not Hangar; a search finds resources by name, without those Spiget cannot serve", async () => {
    const page = await ctx.page(`/server/${id}?tab=mods`, ctx.admin.token);
    const select = /<select name="source"[^>]*>(.*?)<\/select>/.exec(page.html)?.[1] ?? "";
    expect([...select.matchAll(/<option value="([a-z]+)"/g)].map((m) => m[1])).toEqual(["modrinth", "curseforge", "spiget"]);
    expect((await call("GET", "/search?q=x&source=hangar")).body.error).toMatchObject({ code: "ErrFieldNotBetween", metadata: { field: "source" } });
    const { status, body } = await call("GET", "/search?q=essential&source=spiget&sort=downloads");
    expect(status).toBe(200);
    // EssentialPremium matches too, but is sold on SpigotMC: left out.
    expect(body.hits.map((h: { source: string; projectId: string; title: string }) => [h.source, h.projectId, h.title])).toEqual([["spiget", String(SPIGET.essentials), "EssentialsX"]]);
    expect(spiget.requests.findLast((r) => r.startsWith("/v2/search"))).toBe("/v2/search/resources/essential?field=name&size=20&page=1&sort=-downloads");
    // Words are searched as written, never as Spiget's regular expression; nothing found is no hits.
    const none = await call("GET", `/search?q=${encodeURIComponent("essential.*")}&source=spiget`);
    expect(none.body).toEqual({ hits: [], total: 0 });
    expect(spiget.requests.findLast((r) => r.startsWith("/v2/search"))).toContain(`/v2/search/resources/${encodeURIComponent("essential\\.\\*")}?`);
    // Without words: the free resources, most downloaded first (LuckPerms is hosted elsewhere).
    const popular = await call("GET", "/search?source=spiget");
    expect(popular.body.hits.map((h: { title: string }) => h.title)).toEqual(["Vault", "EssentialsX"]);
  });

  test("a resource's page: its description as text, its latest version, tested on the server's minor version", async () => {
    const { status, body } = await call("GET", `/projects/${SPIGET.essentials}?source=spiget`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ source: "spiget", projectId: String(SPIGET.essentials), title: "EssentialsX", description: "The essential plugin suite for Spigot and Paper" });
    expect(body.body).toBe("EssentialsX\nThe essential plugin suite for Spigot and Paper");
    expect(body.versions).toEqual([expect.objectContaining({ versionId: `${SPIGET.essentials}.${SPIGET.essentials * 10}`, versionNumber: "2.90.0", fits: true })]);
  });

  test("installing pins the file: the plan carries the SHA-512 and size of the bytes Spiget's file host gave; the node places exactly those", async () => {
    const answer = await call("POST", "/plan", { source: "spiget", projectId: String(SPIGET.essentials) });
    expect(answer.status).toBe(200);
    const plan = answer.body;
    expect(plan.add).toEqual([
      expect.objectContaining({ source: "spiget", projectId: String(SPIGET.essentials), fileName: "EssentialsX-2.90.0.jar", sha512: sha512(spiget.jar(SPIGET.essentials)), size: spiget.jar(SPIGET.essentials).length, url: `${spiget.origin}/file/spiget-resources/${SPIGET.essentials}.jar` }),
    ]);
    expect(plan.warnings).toEqual([]);
    const change = await apply(plan.planId);
    expect(change).toMatchObject({ state: "done", added: ["EssentialsX-2.90.0.jar"] });
    expect(new Uint8Array(readFileSync(ctx.node.folder(id, "plugins", "EssentialsX-2.90.0.jar")))).toEqual(spiget.jar(SPIGET.essentials));
  }, 60_000);

  test("the installed list names the file by what the node remembers placing (Spiget has no lookup by hash), and offers Spiget's newer version", async () => {
    const known = (await call("GET", "/installed")).body;
    expect(known).toEqual([expect.objectContaining({ fileName: "EssentialsX-2.90.0.jar", source: "spiget", projectId: String(SPIGET.essentials), versionId: `${SPIGET.essentials}.${SPIGET.essentials * 10}`, versionNumber: "2.90.0", title: "EssentialsX" })]);
    expect(known[0].updateAvailable).toBeUndefined();
    const next = spiget.release(SPIGET.essentials);
    const listed = (await call("GET", "/installed")).body;
    expect(listed[0].updateAvailable).toEqual({ versionId: `${SPIGET.essentials}.${next}`, versionNumber: "2.91.0" });
    // Updating is installing it again: the plan replaces the file, pinned anew.
    const plan = (await call("POST", "/plan", { source: "spiget", projectId: String(SPIGET.essentials) })).body;
    expect(plan.update).toEqual([expect.objectContaining({ fileName: "EssentialsX-2.91.0.jar", replaces: "EssentialsX-2.90.0.jar", sha512: sha512(spiget.jar(SPIGET.essentials)) })]);
    expect((await apply(plan.planId)).state).toBe("done");
    const after = (await call("GET", "/installed")).body;
    expect(after.map((f: { fileName: string; versionNumber?: string; updateAvailable?: unknown }) => [f.fileName, f.versionNumber, f.updateAvailable])).toEqual([["EssentialsX-2.91.0.jar", "2.91.0", undefined]]);
  }, 60_000);

  test("a resource tested on older versions only is planned with a warning", async () => {
    const { body } = await call("POST", "/plan", { source: "spiget", projectId: String(SPIGET.vault) });
    expect(body.add.map((f: { fileName: string }) => f.fileName)).toEqual(["Vault-2.50.0.jar"]);
    expect(body.warnings).toEqual([{ code: "wrongGameVersion", title: "Vault", message: "The chosen version of Vault is not made for this server's Minecraft version." }]);
  });

  test("an older version, a premium resource or one hosted elsewhere cannot be installed; Spiget turned off says so", async () => {
    const older = await call("POST", "/plan", { source: "spiget", projectId: String(SPIGET.essentials), versionId: `${SPIGET.essentials}.1` });
    expect(older.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "Spiget" } });
    expect(older.body.error.metadata.reason).toContain("latest version only");
    for (const resource of [SPIGET.premium, SPIGET.luckperms]) {
      const refused = await call("POST", "/plan", { source: "spiget", projectId: String(resource) });
      expect({ resource, error: refused.body.error?.code }).toEqual({ resource, error: "ErrModNoCompatibleVersion" });
    }
    expect((await settings({ modSources: { spiget: { enabled: false, url: spiget.url } } })).status).toBe(204);
    try {
      expect((await call("GET", "/search?q=vault&source=spiget")).body.error).toMatchObject({ code: "ErrModSourceUnavailable" });
    } finally {
      expect((await settings({ modSources: { spiget: { enabled: true, url: spiget.url } } })).status).toBe(204);
    }
  });
});
