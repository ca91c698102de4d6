// Attacks through CurseForge as a source of the mods browser, by a holder of manageMods and by
// CurseForge's answers (an author publishes any file name; an answer can name any download host
// or serve other bytes than it hashed): the administrator's API key goes to CurseForge's API only
// and is never shown back; an id that is not CurseForge's is refused before anything is asked; a
// file name that climbs out of plugins/, a download on another host and bytes that do not match
// the SHA-1 are refused with nothing written. A user without manageMods reaches none of it.
import { beforeAll, describe, expect, test } from "bun:test";
import { CURSEFORGE_KEY } from "../helpers/curseforge-mods-fixture";
import { addonFolderNames, curseforgePanelForFile, modsApi, paperServer } from "../helpers/mods";
import type { PanelWithNode } from "../helpers/panel-node";
import { partAvailable } from "../helpers/require-part";

const hasRestic = partAvailable("restic", () => Bun.which("restic") !== null);
const { curseforge, ctx: panel } = await curseforgePanelForFile(true);
let ctx: PanelWithNode;
let id: string;
const { call, followed } = modsApi(() => ctx, () => id);
const listed = addonFolderNames(() => ctx, () => id);
const WORLDEDIT_FILE = 4675300;

describe.skipIf(!hasRestic)("CurseForge as a source, under attack", () => {
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
