// Attacks through CurseForge as a source of the mods browser, by a holder of manageMods and by
// CurseForge's answers (an author publishes any file name; an answer can name any download host
// or serve other bytes than it hashed): the administrator's API key goes to CurseForge's API only
// and is never shown back; an id that is not CurseForge's is refused before anything is asked; a
// file name that climbs out of plugins/, a download on another host and bytes that do not match
// the SHA-1 are refused with nothing written; CurseForge's category names stay text, a listing of
// them in a shape or size Kiln does not read is the source being unavailable, and a category that
// is not one CurseForge listed for the class is refused before the search is asked. A user without
// manageMods reaches none of it.
import { beforeAll, describe, expect, test } from "bun:test";
import { CURSEFORGE_KEY } from "../helpers/curseforge-mods-fixture";
import { addonFolderNames, curseforgePanelForFile, fabricServer, modsApi, paperServer } from "../helpers/mods";
import type { PanelWithNode } from "../helpers/panel-node";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
const { curseforge, ctx: panel } = await curseforgePanelForFile(true);
let ctx: PanelWithNode;
let id: string;
const { call, followed } = modsApi(() => ctx, () => id);
const listed = addonFolderNames(() => ctx, () => id);
const WORLDEDIT_FILE = 4675300;

describe.skipIf(!resticHere)("CurseForge as a source, under attack", () => {
  beforeAll(async () => {
    ctx = panel();
    id = await paperServer(ctx, "Cursed", "1.20");
  });

  test("the key is never shown back, in the settings or in an error, and never sent to the file host", async () => {
    const all = await (await ctx.panel.request("/api/settings/panel.mods.curseforgeKey", { token: ctx.admin.token })).text();
    expect(all).not.toContain(CURSEFORGE_KEY);
    const page = await ctx.page("/settings", ctx.admin.token);
    expect(page.html).not.toContain(CURSEFORGE_KEY);
    curseforge.file(WORLDEDIT_FILE).downloadUrl = `${curseforge.cdn}/files/${WORLDEDIT_FILE}/missing.jar`;
    try {
      const plan = (await call("POST", "/plan", { source: "curseforge", projectId: "31043" })).body;
      const change = await followed((await call("POST", `/plan/${plan.planId}/apply`)).body.changeId);
      expect(change.state).toBe("failed");
      expect(JSON.stringify(change)).not.toContain(CURSEFORGE_KEY);
    } finally {
      curseforge.file(WORLDEDIT_FILE).downloadUrl = `${curseforge.cdn}/files/${WORLDEDIT_FILE}/worldedit-bukkit-7.2.15.jar`;
    }
    expect(curseforge.requests.filter((r) => r.host === "cdn").every((r) => r.key === null)).toBe(true);
  }, 30_000);

  test("a category's name is CurseForge's text: markup in it comes back as text and the tab renders it escaped", async () => {
    // Set before the plugin class's categories are first asked (they are then kept an hour).
    curseforge.categories.push(
      { id: 9001, gameId: 432, name: `<img src=x onerror=alert(1)>Chat`, slug: "chat", classId: 5, isClass: false, parentCategoryId: 5 },
      // The class itself, as CurseForge lists it beside its categories: not a category to narrow to.
      { id: 5, gameId: 432, name: "Bukkit Plugins", slug: "bukkit-plugins", classId: null, isClass: true, parentCategoryId: null },
    );
    const { body } = await call("GET", "/search?q=&source=curseforge");
    expect(body.categories).toContainEqual({ id: "9001", name: `<img src=x onerror=alert(1)>Chat` });
    expect(body.categories.map((c: { id: string }) => c.id)).not.toContain("5");
    const page = await ctx.page(`/server/${id}?tab=mods&q=&source=curseforge`, ctx.admin.token);
    expect(page.html).toContain("&lt;img src=x onerror=alert(1)&gt;Chat");
    expect(page.html).not.toContain("<img src=x");
  });

  test("a category CurseForge did not list for the class is refused before the search is asked", async () => {
    const searches = () => curseforge.requests.filter((r) => r.path.startsWith("/v1/mods/search")).length;
    const before = searches();
    // A second parameter smuggled in, another class's category (JEI's, a mod's), the class itself, a path, a long one.
    for (const category of ["116&classId=6", "116 OR 1=1", "421", "5", "-1", "../116", "0x74", "1".repeat(5000)]) {
      const answer = await call("GET", `/search?q=&source=curseforge&category=${encodeURIComponent(category)}`);
      expect({ category: category.slice(0, 40), status: answer.status, error: answer.body.error }).toMatchObject({ category: category.slice(0, 40), status: 400, error: { code: "ErrFieldNotBetween", metadata: { field: "category" } } });
    }
    expect(searches()).toBe(before);
  });

  test("a listing of categories in a shape or size Kiln does not read is CurseForge being unavailable, never a 500", async () => {
    // The mod class's categories (a Fabric server's), not asked yet in this file: first far too many, then a name too long.
    const fabric = await fabricServer(ctx, "Cursed mods", "1.20.1");
    const onFabric = modsApi(() => ctx, () => fabric);
    const recorded = curseforge.categories.splice(0);
    try {
      curseforge.categories.push(...Array.from({ length: 301 }, (_, i) => ({ id: 10_000 + i, gameId: 432, name: `Category ${i}`, slug: `c${i}`, classId: 6, isClass: false, parentCategoryId: 6 })));
      expect((await onFabric.call("GET", "/search?q=&source=curseforge")).body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "CurseForge" } });
      curseforge.categories.splice(0, Infinity, { id: 10_000, gameId: 432, name: "x".repeat(129), slug: "x", classId: 6, isClass: false, parentCategoryId: 6 });
      expect((await onFabric.call("GET", "/search?q=&source=curseforge")).body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "CurseForge" } });
    } finally {
      curseforge.categories.splice(0, Infinity, ...recorded);
    }
  });

  test("an id that is not CurseForge's is refused before CurseForge is asked", async () => {
    const asked = curseforge.requests.length;
    for (const projectId of ["31054..", "abc", "0", "99999999999"]) {
      const answer = await call("GET", `/projects/${encodeURIComponent(projectId)}?source=curseforge`);
      expect({ projectId, status: answer.status }).toEqual({ projectId, status: 404 });
    }
    expect((await call("POST", "/plan", { source: "curseforge", projectId: "31054", versionId: "../files" })).status).toBe(400);
    expect(curseforge.requests.length).toBe(asked);
  });

  test("a file name that climbs out of plugins/ is refused in the plan; nothing is written", async () => {
    const before = listed();
    curseforge.file(WORLDEDIT_FILE).fileName = "../../evil.jar";
    try {
      const answer = await call("POST", "/plan", { source: "curseforge", projectId: "31043" });
      expect(answer.body.error).toMatchObject({ code: "ErrModSourceUnavailable", metadata: { source: "CurseForge" } });
    } finally {
      curseforge.file(WORLDEDIT_FILE).fileName = "worldedit-bukkit-7.2.15.jar";
    }
    expect(listed()).toEqual(before);
  });

  test("a download on another host, or bytes that are not what CurseForge hashed: the change fails, nothing is written", async () => {
    const before = listed();
    const file = curseforge.file(WORLDEDIT_FILE);
    const url = file.downloadUrl;
    file.downloadUrl = "http://127.0.0.1:9/worldedit-bukkit-7.2.15.jar";
    try {
      const plan = (await call("POST", "/plan", { source: "curseforge", projectId: "31043" })).body;
      const started = await call("POST", `/plan/${plan.planId}/apply`);
      const outcome = started.status === 202 ? (await followed(started.body.changeId)).error : started.body.error;
      expect(outcome.code).toBe("ErrModSourceNotAllowed");
    } finally {
      file.downloadUrl = url;
    }
    curseforge.corrupt(WORLDEDIT_FILE);
    const plan = (await call("POST", "/plan", { source: "curseforge", projectId: "31043" })).body;
    const change = await followed((await call("POST", `/plan/${plan.planId}/apply`)).body.changeId);
    expect(change).toMatchObject({ state: "failed", error: { code: "ErrModHashMismatch" } });
    expect(listed()).toEqual(before);
  }, 30_000);

  test("a user without manageMods reaches no CurseForge route", async () => {
    const user = await ctx.userWith(id, { viewServer: true, editServerData: true });
    const asked = curseforge.requests.length;
    for (const [method, path, body] of [["GET", "/search?q=x&source=curseforge"], ["GET", "/projects/31054?source=curseforge"], ["POST", "/plan", { source: "curseforge", projectId: "31054" }]] as const) {
      const answer = await call(method, path, body, user.token);
      expect({ path, status: answer.status }).toEqual({ path, status: 403 });
    }
    expect(curseforge.requests.length).toBe(asked);
  });
});
