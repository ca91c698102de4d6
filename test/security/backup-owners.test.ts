// Backups made before the node recorded whose files a backup holds (the kiln-owner tag). Such a
// backup was made before restic read in a view of its own, so it may hold what a swapped link led
// to, and was judged by the server's uid now: the uid the files had then may have belonged to
// another server (a deleted server's uid goes to the next new one; a rebuilt node hands uids out
// anew), so that server's files came back to this server's users. Now a server's user with
// `backups` sees it listed (unowned), may lock or delete it, but its download, browse and
// restore are ErrBackupUnowned and change nothing, until an administrator adopts it (tagged with
// the server's uid now), which a server's user may not do.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chownSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
let ctx: PanelWithNode;
let server: string;
let legacy: string;
let holder: { token: string };

/** restic on the node's own-disk repository, as an administrator runs it by hand. */
function restic(args: string[], cwd?: string): string {
  const dir = join(ctx.node.config.dataDir, "backups");
  const run = Bun.spawnSync(["restic", ...args], { cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: tmpdir(), RESTIC_REPOSITORY: join(dir, "local"), RESTIC_PASSWORD_FILE: join(dir, "keys", "local.password"), RESTIC_CACHE_DIR: join(dir, "cache") } });
  if (run.exitCode !== 0) throw new Error(`restic ${args[0]}: ${run.stderr.toString()}`);
  return run.stdout.toString();
}

beforeAll(async () => {
  if (!resticHere) return;
  ctx = await panelWithNode();
  server = await ctx.createServer("Legacy");
  const other = await ctx.createServer("Other");
  writeFileSync(ctx.node.folder(other, "x"), "x");
  // The repository is made by the node's first backup.
  await ctx.node.json("POST", `/daemon/server/${other}/backups?wait=true`);
  // A backup of this server as a node before the owner tag made it: server-tagged only. Its file
  // has the uid the server has now: then, another server's, which reached this folder's backup.
  const uid = statSync(ctx.node.folder(server)).uid;
  const made = mkdtempSync(join(tmpdir(), "kiln-legacy-"));
  writeFileSync(join(made, "another-servers.txt"), "another server's secret");
  chownSync(join(made, "another-servers.txt"), uid, uid);
  restic(["backup", ".", "--host", "kiln", "--tag", `kiln-server=${server}`, "--tag", "kiln-by=task:old"], made);
  rmSync(made, { recursive: true, force: true });
  holder = await ctx.userWith(server, { backups: true });
}, 60_000);
afterAll(() => ctx?.node.stop());

const api = (path: string, init: RequestInit & { token?: string } = {}) => ctx.panel.request(`/proxy/daemon/server/${server}${path}`, init);
const snapshots = () => readdirSync(join(ctx.node.config.dataDir, "backups", "local", "snapshots")).sort();

describe.skipIf(!resticHere)("a backup made before owners were recorded", () => {
  test("listed as unowned to the server's users; its download, browse and restore are refused and change nothing", async () => {
    const list = await (await api("/backups", { token: holder.token })).json();
    expect(list.backups).toHaveLength(1);
    legacy = list.backups[0].id;
    const before = { snapshots: snapshots(), folder: readdirSync(ctx.node.folder(server)).sort() };
    for (const [method, path, body] of [
      ["GET", `/backups/${legacy}/download`, undefined],
      ["GET", `/backups/${legacy.slice(0, 8)}/download?format=zip`, undefined],
      ["GET", `/backups/${legacy}/files?path=`, undefined],
      ["POST", `/backups/${legacy}/restore?wait=true`, {}],
      ["POST", `/backups/${legacy}/restore?wait=true`, { path: "another-servers.txt" }],
    ] as const) {
      const response = await api(path, { token: holder.token, ...jsonInit(method, body) });
      const text = await response.text();
      const code = response.headers.get("content-type")?.includes("json") ? JSON.parse(text).error?.code : undefined;
      expect({ path, status: response.status, code, holds: text.includes("another server's secret") }).toEqual({ path, status: 409, code: "ErrBackupUnowned", holds: false });
    }
    expect({ snapshots: snapshots(), folder: readdirSync(ctx.node.folder(server)).sort() }).toEqual(before);
    expect(list.backups[0]).toMatchObject({ by: "task:old", unowned: true });
    // The tab marks it and offers neither restore nor download; only an administrator sees Adopt.
    const tab = (await ctx.page(`/server/${server}?tab=backups`, holder.token)).html;
    expect(["backup-unowned", "backup-download", "backup-restore", "backup-adopt", "backup-delete"].map((id) => tab.includes(`data-testid="${id}"`))).toEqual([true, false, false, false, true]);
    expect((await ctx.page(`/server/${server}?tab=backups`, ctx.admin.token)).html).toContain('data-testid="backup-adopt"');
  }, 60_000);

  test("adopting it is an administrator's; once adopted it is judged by the server's uid now", async () => {
    const before = snapshots();
    const refused = await api(`/backups/${legacy}/adopt`, { token: holder.token, method: "POST" });
    expect({ status: refused.status, code: (await refused.json()).error?.code }).toEqual({ status: 403, code: "ErrNoPermission" });
    expect(snapshots()).toEqual(before);
    const adopted = await api(`/backups/${legacy}/adopt`, { token: ctx.admin.token, method: "POST" });
    expect(adopted.status).toBe(200);
    expect((await adopted.json()).unowned).toBeUndefined();
    // The id it was made with still names it (restic gave the tagged snapshot a new id).
    const download = await api(`/backups/${legacy}/download`, { token: holder.token });
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).length).toBeGreaterThan(0);
    const list = await (await api("/backups", { token: holder.token })).json();
    expect(list.backups.map((b: { unowned?: boolean }) => b.unowned ?? false)).toEqual([false]);
  }, 60_000);
});
