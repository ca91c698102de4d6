// The hosts a modpack's files may come from: Modrinth's format lets an index name Modrinth's CDN,
// GitHub (whose release downloads redirect to its release-assets host, and before 2025 to its
// objects host) and GitLab, each a node source here served by a local stand-in. A pack whose mod is
// a GitHub release is installed, the redirect followed to either host and the bytes checked by the
// index's hash. A redirect to
// another host, and a file on a host the format does not allow (CurseForge's, which add-ons may
// use), are refused with nothing placed.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { fabricServer, modrinthPanelForFile, modsApi } from "./helpers/mods";
import { hasRestic } from "./helpers/require-part";
import type { PanelWithNode } from "./helpers/panel-node";

const resticHere = hasRestic();
const GEYSER = "CeSpw2Km";
let geyserBytes: Uint8Array<ArrayBuffer> = new Uint8Array();
const elsewhere = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response(geyserBytes) });
const objects = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => (new URL(req.url).pathname === "/geyser.jar" ? new Response(geyserBytes) : new Response("", { status: 404 })) });
const releaseAssets = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (req) => (new URL(req.url).pathname === "/github-production-release-asset/geyser.jar" ? new Response(geyserBytes) : new Response("", { status: 404 })) });
const github = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch(req) {
    const path = new URL(req.url).pathname;
    if (path === "/kiln/geyser/releases/download/v1/geyser.jar") return Response.redirect(`http://127.0.0.1:${releaseAssets.port}/github-production-release-asset/geyser.jar`, 302);
    if (path === "/kiln/geyser/releases/download/v0/geyser.jar") return Response.redirect(`http://127.0.0.1:${objects.port}/geyser.jar`, 302);
    if (path === "/kiln/geyser/releases/download/v1/away.jar") return Response.redirect(`http://127.0.0.1:${elsewhere.port}/geyser.jar`, 302);
    return new Response("", { status: 404 });
  },
});
afterAll(() => [elsewhere, objects, releaseAssets, github].forEach((s) => s.stop(true)));
const { modrinth, ctx: panel } = await modrinthPanelForFile({
  github: `http://127.0.0.1:${github.port}`,
  githubReleaseAssets: `http://127.0.0.1:${releaseAssets.port}`,
  githubObjects: `http://127.0.0.1:${objects.port}`,
  curseforgeCdn: `http://127.0.0.1:${elsewhere.port}`,
});
let ctx: PanelWithNode;
let id: string;
const { call: packs, followed } = modsApi(() => ctx, () => id, "modpacks");
const geyserFile = () => modrinth.version(GEYSER).files.find((f) => f.primary)!.filename;

/** A pack whose only mod, Geyser, is downloaded from `url`. */
const packFrom = (slug: string, url: string) =>
  modrinth.addModpack({ slug, title: slug, gameVersion: "1.20.4", loader: ["fabric-loader", "0.15.11"], mods: [{ versionId: GEYSER }], index: (index) => ({ ...index, files: (index.files as Record<string, unknown>[]).map((f) => ({ ...f, downloads: [url] })) }) });

describe.skipIf(!resticHere)("where a modpack's files may come from", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await fabricServer(ctx, "Hosted", "1.20.4");
    geyserBytes = new Uint8Array(modrinth.jar(GEYSER));
  });

  test("a GitHub release: the redirect to GitHub's release-assets host (or, as before 2025, its objects host) is followed, the bytes checked by the index's hash", async () => {
    for (const [slug, release] of [["kiln-github-pack-old", "v0"], ["kiln-github-pack", "v1"]] as const) {
      const pack = await packFrom(slug, `http://127.0.0.1:${github.port}/kiln/geyser/releases/download/${release}/geyser.jar`);
      const plan = await packs("POST", "/plan", { source: "modrinth", projectId: pack.projectId });
      expect(plan.status).toBe(200);
      const change = await followed((await packs("POST", `/plan/${plan.body.planId}/apply`)).body.changeId);
      expect({ slug, ...change }).toMatchObject({ slug, state: "done", total: 1, downloaded: 1 });
      expect(new Uint8Array(readFileSync(ctx.node.folder(id, "mods", geyserFile())))).toEqual(geyserBytes);
      // Undone before the next, so the folder holds one pack's change at a time.
      if (release === "v0") expect((await followed((await modsApi(() => ctx, () => id).call("POST", `/changes/${change.changeId}/undo`)).body.changeId)).state).toBe("undone");
    }
  }, 60_000);

  test("a redirect to another host, a file on a host the format does not allow: refused, nothing placed", async () => {
    const away = await packFrom("kiln-redirect-away", `http://127.0.0.1:${github.port}/kiln/geyser/releases/download/v1/away.jar`);
    const undo = (await modsApi(() => ctx, () => id).call("GET", "/changes")).body.undoable;
    expect((await modsApi(() => ctx, () => id).call("POST", `/changes/${undo}/undo`)).status).toBe(200);
    const plan = await packs("POST", "/plan", { source: "modrinth", projectId: away.projectId });
    const change = await followed((await packs("POST", `/plan/${plan.body.planId}/apply`)).body.changeId);
    expect(change).toMatchObject({ state: "failed", error: { code: "ErrModSourceNotAllowed" } });
    expect(existsSync(ctx.node.folder(id, "mods", geyserFile()))).toBe(false);
    // CurseForge's file host serves add-ons, but a Modrinth pack may not name it.
    const cursed = await packFrom("kiln-curse-host", `http://127.0.0.1:${elsewhere.port}/geyser.jar`);
    const refused = await packs("POST", "/plan", { source: "modrinth", projectId: cursed.projectId });
    expect(refused.body.error).toMatchObject({ code: "ErrModSourceNotAllowed" });
  }, 60_000);
});
