// The Backups tab and the backup forms as the server renders them, without script: the
// tab for holders of `backups` only; Back up now, the list with who made each backup, lock and
// unlock, restore of one file, delete behind its confirmation, the ignore patterns; the policy on
// the admin card and the targets on the node page for administrators; downloads (.tar.gz and
// .zip) through the panel's proxy that match the files.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formInit, panelWithServerForFile, type PanelWithNode } from "./helpers/panel-node";
import { eventually } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { hasRestic } from "./helpers/require-part";

const enabled = hasRestic();
let ctx: PanelWithNode;
let id: string;
let folder: string;
panelWithServerForFile("Backed Up", { "world/level.dat": "level one", "server.properties": "motd=hi" }, (made) => ({ ctx, id, folder } = made), enabled);

const post = (path: string, fields: Record<string, string>, token = ctx.admin.token) => ctx.panel.request(path, { token, ...formInit(fields) });
const backupIds = (html: string) => [...html.matchAll(/data-backup-id="([0-9a-f]{64})"/g)].map((m) => m[1]!);

describe.skipIf(!enabled)("the Backups tab without script", () => {
  test("the tab shows for `backups` only; Back up now makes a backup said to be by the user", async () => {
    const holder = await ctx.userWith(id, { backups: true });
    const other = await ctx.userWith(id, { viewServerConsole: true });
    expect((await ctx.page(`/server/${id}`, other.token)).html).not.toContain('data-hotkey="t b"');
    expect((await ctx.page(`/server/${id}?tab=backups`, other.token)).html).not.toContain('data-testid="backups"');
    const empty = await ctx.page(`/server/${id}?tab=backups`, holder.token);
    expect(empty.html).toContain('data-hotkey="t b"');
    expect(empty.html).toContain('data-testid="backups-empty"');
    const made = await post(`/server/${id}/backups`, {}, holder.token);
    expect(made.status).toBe(303);
    expect(made.headers.get("location")).toBe(`/server/${id}?tab=backups`);
    let html = "";
    // Listed as soon as restic wrote it; done (no progress shown) a moment later.
    await eventually(async () => backupIds((html = (await ctx.page(`/server/${id}?tab=backups`, holder.token)).html)).length === 1 && !html.includes('data-testid="backup-running"'), 20_000, "the backup in the list");
    // test/helpers/app's loginAs names user N "userNx".
    expect(html.replaceAll("<!-- -->", "")).toContain(`By ${holder.email.split("@")[0]}x`);
  }, 40_000);

  test("lock hides delete; unlock; one file restored; delete after its confirmation", async () => {
    const [backup] = backupIds((await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html);
    expect((await post(`/server/${id}/backups/${backup}/lock`, {})).status).toBe(303);
    let html = (await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html;
    expect(html).toContain('data-testid="backup-locked"');
    expect(html).not.toContain('data-testid="backup-delete"');
    const refused = await post(`/server/${id}/backups/${backup}/delete`, {});
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain("is locked; unlock it first");
    expect((await post(`/server/${id}/backups/${backup}/unlock`, {})).status).toBe(303);
    html = (await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html;
    expect(html).not.toContain('data-testid="backup-locked"');

    writeFileSync(join(folder, "world", "level.dat"), "ruined");
    writeFileSync(join(folder, "server.properties"), "motd=changed");
    expect((await post(`/server/${id}/backups/${backup}/restore`, { path: "world/level.dat" })).status).toBe(303);
    await eventually(() => readFileSync(join(folder, "world", "level.dat"), "utf8") === "level one", 20_000, "the file restored");
    expect(readFileSync(join(folder, "server.properties"), "utf8")).toBe("motd=changed");

    expect((await post(`/server/${id}/backups/${backup}/delete`, {})).status).toBe(303);
    await eventually(async () => backupIds((await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html).length === 0, 20_000, "the backup gone");
  }, 60_000);

  test("a backup made before an add-on change is marked, its tooltip saying why and how many are kept", async () => {
    const made = await (await ctx.node.node.backups.beforeChange(id, "user:modder", "before an add-on change")).finished;
    const html = (await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html;
    const full = backupIds(html).find((b) => b.startsWith(made.id))!;
    const row = html.slice(html.indexOf(`data-backup-id="${full}"`));
    expect(row.slice(0, row.indexOf("</li>"))).toMatch(/title="Made automatically before an add-on change[^"]*Only the newest 6 such backups are kept[^"]*" data-testid="backup-before-change"/);
    expect(html.match(/data-testid="backup-before-change"/g)?.length).toBe(1);
    expect((await post(`/server/${id}/backups/${full}/delete`, {})).status).toBe(303);
  }, 60_000);

  test("a download through the panel matches the files", async () => {
    await post(`/server/${id}/backups`, {});
    let backup = "";
    await eventually(async () => Boolean((backup = backupIds((await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html)[0] ?? "")), 20_000, "a backup");
    const response = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup}/download?format=tar.gz`, { token: ctx.admin.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/gzip");
    expect(response.headers.get("content-disposition")).toContain(".tar.gz");
    const out = tempDir("kiln-tab-dump-");
    await Bun.write(join(out, "a.tar.gz"), response);
    mkdirSync(join(out, "x"));
    expect(Bun.spawnSync(["tar", "xzf", join(out, "a.tar.gz"), "-C", join(out, "x")]).exitCode).toBe(0);
    expect(readFileSync(join(out, "x", "world", "level.dat"), "utf8")).toBe("level one");
    expect(readFileSync(join(out, "x", "server.properties"), "utf8")).toBe("motd=changed");
    const zip = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup}/download?format=zip`, { token: ctx.admin.token });
    expect(zip.headers.get("content-type")).toBe("application/zip");
    await Bun.write(join(out, "a.zip"), zip);
    expect(Bun.spawnSync(["unzip", "-q", join(out, "a.zip"), "-d", join(out, "z")]).exitCode).toBe(0);
    expect(readFileSync(join(out, "z", "world", "level.dat"), "utf8")).toBe("level one");
    expect(readFileSync(join(out, "z", "server.properties"), "utf8")).toBe("motd=changed");
  }, 40_000);

  test("ignore patterns are saved and shown; a pattern with $ is refused and nothing changes", async () => {
    expect((await post(`/server/${id}/backups/ignore`, { ignore: "/logs\n*.tmp" })).status).toBe(303);
    expect((await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html).toContain("/logs\n*.tmp</textarea>");
    const refused = await post(`/server/${id}/backups/ignore`, { ignore: "$(reboot)" });
    expect(refused.status).toBe(400);
    expect((await ctx.page(`/server/${id}?tab=backups`, ctx.admin.token)).html).toContain("/logs\n*.tmp</textarea>");
  });
});

describe.skipIf(!enabled)("the policy on the admin card, the targets on the node page", () => {
  test("an administrator sets retention, maximum and console commands", async () => {
    const before = (await ctx.page(`/server/${id}?tab=admin`, ctx.admin.token)).html;
    expect(before).toContain('data-testid="backup-policy"');
    const saved = await post(`/server/${id}/backups/policy`, { target: "local", "keep.last": "3", "keep.daily": "7", "keep.weekly": "", maxBackups: "10", before: "save-off\nsave-all", after: "save-on" });
    expect(saved.status).toBe(303);
    const settings = await ctx.node.json("GET", `/daemon/server/${id}/backup-settings`);
    expect(settings.policy).toEqual({ target: "local", retention: { last: 3, daily: 7 }, maxBackups: 10, before: ["save-off", "save-all"], after: ["save-on"] });
    const html = (await ctx.page(`/server/${id}?tab=admin`, ctx.admin.token)).html;
    expect(html.match(/<input[^>]*name="keep.last"[^>]*>/)?.[0]).toContain('value="3"');
    expect(html).toContain("save-off\nsave-all</textarea>");
  });

  test("the node page lists the targets; an SFTP target is saved and its key never shown", async () => {
    const page = (await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html;
    expect(page).toContain('data-testid="backup-targets"');
    expect(page).toContain('data-testid="backup-target-local"');
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAAsecretkeymaterial\n-----END OPENSSH PRIVATE KEY-----";
    const saved = await post(`/node/${ctx.nodeId}/backup-targets/sftp`, { host: "backup.example.net", port: "2222", user: "kiln", path: "/srv/restic", privateKey: key });
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`/node/${ctx.nodeId}#backup-targets`);
    const after = (await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html;
    expect(after).toContain('value="backup.example.net"');
    expect(after).not.toContain("secretkeymaterial");
    expect(after).toContain("A secret is set: leave empty to keep it.");
    // The repository's password, to keep off the node; a recovery that finds nothing missing changes nothing.
    const password = await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/local/password`, { token: ctx.admin.token });
    expect(password.status).toBe(200);
    expect(password.headers.get("content-disposition")).toContain("repository-password.txt");
    expect((await password.text()).trim()).toBe(readFileSync(join(ctx.node.config.dataDir, "backups", "keys", "local.password"), "utf8"));
    const recovered = await post(`/node/${ctx.nodeId}/backup-targets/local/recover`, {});
    expect(recovered.status).toBe(303);
    expect((await post(`/node/${ctx.nodeId}/backup-targets/sftp/delete`, {})).status).toBe(303);
    expect((await ctx.page(`/node/${ctx.nodeId}`, ctx.admin.token)).html).not.toContain('value="backup.example.net"');
  });
});
