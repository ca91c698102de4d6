// The server page's Mods tab as the panel renders it (before any script), with a real node and a
// local Modrinth of recorded answers: it is offered to holders of manageMods on Minecraft Java
// servers only; on a Fabric 1.20.4 folder it names the platform and lists what is installed by
// the source's titles (a file the source does not know by its name); a source that does not
// answer leaves the list standing by file names; a Paper folder names the tab Plugins; a folder
// with no platform that loads add-ons gets the empty state that says what to do; a source that
// hangs holds the page at most the page's own limit per question.
import { beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { jsonInit, type PanelWithNode } from "./helpers/panel-node";
import { fabricStandIn, modrinthPanelForFile } from "./helpers/mods";
import { PAGE_SOURCE_TIMEOUT_MS } from "../server/services/mods";
import { minecraftStandIn } from "./helpers/minecraft-standin";

const { modrinth, ctx: panel } = await modrinthPanelForFile();
let ctx: PanelWithNode;

const setSource = async (url: string) => {
  const set = await ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("PUT", { modSources: { modrinth: { url } } }) });
  expect(set.status).toBe(204);
};
/** The tab bar's link to the mods tab, and its words. */
const tabLink = (html: string) => /<a href="\/server\/[^"]+\?tab=mods"[^>]*>([^<]*)<\/a>/.exec(html)?.[1] ?? null;

let id: string;
let folder: string;
beforeAll(async () => {
  ctx = panel();
  ({ id, folder } = await fabricStandIn(ctx, "modded", "1.20.4"));
  mkdirSync(join(folder, "mods"), { recursive: true });
  // Fabric API's file as Modrinth serves it (recognised by its hash), and one it does not know.
  writeFileSync(join(folder, "mods", "fabric-api.jar"), modrinth.jar("BPX6fK06"));
  writeFileSync(join(folder, "mods", "by-hand.jar"), "a jar Modrinth does not know");
});

describe("the Mods tab", () => {
  test("is there for holders of manageMods on Minecraft Java servers only", async () => {
    const holder = await ctx.userWith(id, { manageMods: true });
    const other = await ctx.userWith(id, { managePlayers: true });
    expect(tabLink((await ctx.page(`/server/${id}`, holder.token)).html)).toBe("Mods");
    expect(tabLink((await ctx.page(`/server/${id}`, other.token)).html)).toBeNull();
    expect((await ctx.page(`/server/${id}?tab=mods`, other.token)).html).not.toContain('data-testid="mods"');
    const echo = await ctx.createServer("echo-game");
    expect(tabLink((await ctx.page(`/server/${echo}`, ctx.admin.token)).html)).toBeNull();
    expect((await ctx.page(`/server/${echo}?tab=mods`, ctx.admin.token)).html).not.toContain('data-testid="mods"');
  });

  test("names the platform and lists what is installed before any script: titles from the source, an unknown file by its name", async () => {
    const { status, html } = await ctx.page(`/server/${id}?tab=mods`, ctx.admin.token);
    expect(status).toBe(200);
    for (const expected of [
      "Fabric 1.20.4 · loader 0.15.11",
      'data-island="ModsTab"',
      ">Fabric API</span></strong>",
      ">by-hand.jar</span></strong>",
      "Not known to the source",
      "Installed mods",
    ]) expect(html).toContain(expected);
  });

  test("a source that does not answer: the page still shows the files, by their names", async () => {
    await setSource("http://127.0.0.1:9/v2");
    try {
      const { status, html } = await ctx.page(`/server/${id}?tab=mods`, ctx.admin.token);
      expect(status).toBe(200);
      expect(html).toContain("Fabric 1.20.4 · loader 0.15.11");
      expect(html).toContain(">fabric-api.jar</span></strong>");
      expect(html).toContain(">by-hand.jar</span></strong>");
      expect(html).not.toContain(">Fabric API</span></strong>");
    } finally {
      await setSource(modrinth.url);
    }
  });

  test("a Paper server's tab is named Plugins", async () => {
    const paper = await minecraftStandIn(ctx, "paper");
    mkdirSync(join(paper.folder, "config"), { recursive: true });
    writeFileSync(join(paper.folder, "config", "paper-global.yml"), "_version: 28\n");
    const { html } = await ctx.page(`/server/${paper.id}?tab=mods`, ctx.admin.token);
    expect(html).toContain("Installed plugins");
    expect(tabLink(html)).toBe("Plugins");
    // Remembered: another tab of the same server names it Plugins too.
    expect(tabLink((await ctx.page(`/server/${paper.id}?tab=console`, ctx.admin.token)).html)).toBe("Plugins");
  });

  test("a folder with no platform that loads add-ons says so and what to do", async () => {
    const bare = await minecraftStandIn(ctx, "bare");
    const { status, html } = await ctx.page(`/server/${bare.id}?tab=mods`, ctx.admin.token);
    expect(status).toBe(200);
    expect(html).toContain('data-testid="mods-no-platform"');
    expect(html).toContain("No mod loader or plugin server recognised");
    expect(html).toContain("install a mod loader (Fabric, Quilt, Forge or NeoForge)");
    expect(html).not.toContain('data-island="ModsTab"');
  });

  // Last: the stand-in keeps hanging once told to.
  test("a source that hangs: the page waits at most its own limit per question, then shows the files by name", async () => {
    modrinth.hang("/v2/version_files");
    const started = Date.now();
    const { status, html } = await ctx.page(`/server/${id}?tab=mods`, ctx.admin.token);
    expect(status).toBe(200);
    expect(html).toContain(">by-hand.jar</span></strong>");
    // The installed list asks twice at most (which files these are; their updates), each within PAGE_SOURCE_TIMEOUT_MS.
    expect(Date.now() - started).toBeLessThan(2 * PAGE_SOURCE_TIMEOUT_MS + 3000);
  }, 30_000);
});
