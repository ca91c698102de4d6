// A backup takes a note when it is made (the form's field, the API's body), kept beside it and
// gone with it; a note too long or holding control characters is refused and no backup is made.
// Restoring one path can browse the backup's folders (the node lists one folder with restic ls)
// and restore a file picked there. A real panel, node and restic; the pages without script.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formInit, panelWithServerForFile, type PanelWithNode } from "./helpers/panel-node";
import { eventually } from "./helpers/node";
import { hasRestic } from "./helpers/require-part";

const enabled = hasRestic();
let ctx: PanelWithNode;
let id: string;
let folder: string;
panelWithServerForFile("Noted", { "world/level.dat": "level one", "world/region/r.0.0.mca": "blocks", "server.properties": "motd=hi" }, (made) => ({ ctx, id, folder } = made), enabled);

const post = (path: string, fields: Record<string, string>) => ctx.panel.request(path, { token: ctx.admin.token, ...formInit(fields) });
const answer = async () => (await (await ctx.panel.request(`/proxy/daemon/server/${id}/backups`, { token: ctx.admin.token })).json()) as { backups: Array<{ id: string; note?: string }>; running: unknown };
const list = async () => (await answer()).backups;
/** One backup or restore runs at a time: the next waits for the last to end. */
const idle = () => eventually(async () => (await answer()).running === null, 20_000, "the backup's end");

describe.skipIf(!enabled)("backup notes", () => {
  test("the form's note is kept beside the backup and shown in the list", async () => {
    expect((await post(`/server/${id}/backups`, { note: "  before the 1.21 update  " })).status).toBe(303);
    await eventually(async () => (await list()).length === 1, 20_000, "the backup");
    expect((await list())[0]!.note).toBe("before the 1.21 update");
    const { html } = await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token);
    expect(html).toContain('data-testid="backup-note-text">before the 1.21 update</span>');
  }, 40_000);

  test("a note too long or with a line break is refused at its field, and no backup is made", async () => {
    const long = await post(`/server/${id}/backups`, { note: "x".repeat(201) });
    expect(long.status).toBe(400);
    expect(await long.text()).toContain("note cannot be larger than 200");
    const api = await ctx.panel.request(`/proxy/daemon/server/${id}/backups`, { token: ctx.admin.token, method: "POST", headers: { "content-type": "application/json", origin: "http://localhost" }, body: JSON.stringify({ note: "two\nlines" }) });
    expect(api.status).toBe(400);
    expect((await api.json()).error.code).toBe("ErrFieldHasControlCharacters");
    expect((await list()).length).toBe(1);
  });

  test("a backup made with no body at all has no note", async () => {
    await idle();
    const made = await ctx.panel.request(`/proxy/daemon/server/${id}/backups?wait=true`, { token: ctx.admin.token, method: "POST", headers: { origin: "http://localhost" } });
    expect(made.status).toBe(201);
    expect((await made.json()).note).toBeUndefined();
    expect((await list()).filter((b) => b.note === undefined).length).toBe(1);
  }, 40_000);
});

describe.skipIf(!enabled)("browsing a backup to restore one path", () => {
  test("the node lists one folder of a backup, folders first", async () => {
    const backup = (await list()).find((b) => b.note)!.id;
    const root = await (await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup}/files?path=`, { token: ctx.admin.token })).json();
    expect(root.files.map((f: { name: string; isFile: boolean }) => [f.name, f.isFile])).toEqual(expect.arrayContaining([["world", false], ["server.properties", true]]));
    expect(root.files[0].isFile).toBe(false);
    const world = await (await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup}/files?path=world`, { token: ctx.admin.token })).json();
    expect(world).toMatchObject({ path: "world", truncated: false });
    expect(world.files.map((f: { name: string }) => f.name)).toEqual(["region", "level.dat"]);
    const elsewhere = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef/files?path=`, { token: ctx.admin.token });
    expect((await elsewhere.json()).error.code).toBe("ErrNotFound");
  });

  test("without script: the restore dialog links to the browser, whose folders open and whose Restore puts a file back", async () => {
    const backup = (await list()).find((b) => b.note)!.id;
    let { html } = await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token);
    expect(html).toContain(`href="/server/${id}?tab=backups&amp;browse=${backup}&amp;path=#backup-browser" data-testid="backup-browse"`);
    ({ html } = await ctx.page(`/server/${id}?tab=backups&browse=${backup}&path=`, ctx.admin.token));
    expect(html).toContain('data-testid="backup-browser"');
    expect(html).toContain(`href="/server/${id}?tab=backups&amp;browse=${backup}&amp;path=world#backup-browser"><span class="shown-label" dir="ltr">world</span>/</a>`);
    ({ html } = await ctx.page(`/server/${id}?tab=backups&browse=${backup}&path=world`, ctx.admin.token));
    expect(html).toContain('data-restore-path="world/level.dat"');
    writeFileSync(join(folder, "world", "level.dat"), "changed since");
    await idle();
    expect((await post(`/server/${id}/backups/${backup}/restore`, { path: "world/level.dat" })).status).toBe(303);
    await eventually(() => readFileSync(join(folder, "world", "level.dat"), "utf8") === "level one", 20_000, "the file restored");
    // A folder the backup does not have is said in the browser.
    ({ html } = await ctx.page(`/server/${id}?tab=backups&browse=${backup}&path=nowhere`, ctx.admin.token));
    expect(html).toContain('data-testid="backup-browser"');
    expect(html).toContain('class="files-field-error"');
  }, 40_000);
});
