// Attacks on backups: a user without `backups`; a user with `backups` on one server
// reaching another server's backups (by the other server's id, or by a snapshot id under their
// own); a non-administrator at the policy and the node's targets; hostile snapshot ids, restore
// paths, ignore patterns and target fields (quotes, newlines, $(...), a leading "-", URLs that
// carry more than a host); a spoofed "who made it"; oversized bodies. Each is refused with its
// catalogue error and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { formInit, jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { loginAs } from "../helpers/app";
import { hasRestic } from "../helpers/require-part";
import { SCOPES } from "../../core/scopes";

const resticHere = hasRestic();
let ctx: PanelWithNode;
let mine: string;
let theirs: string;
let theirBackup: string;
let holder: { token: string; userId: number; email: string };

beforeAll(async () => {
  if (!resticHere) return;
  ctx = await panelWithNode();
  mine = await ctx.createServer("Mine");
  theirs = await ctx.createServer("Theirs");
  for (const id of [mine, theirs]) writeFileSync(ctx.node.folder(id, "world.dat"), `world of ${id}`);
  holder = await ctx.userWith(mine, { backups: true });
  theirBackup = (await ctx.node.json("POST", `/daemon/server/${theirs}/backups?wait=true`)).id;
  await ctx.node.json("POST", `/daemon/server/${mine}/backups?wait=true`);
}, 60_000);
afterAll(() => ctx?.node.stop());

const api = (path: string, init: RequestInit & { token?: string } = {}) => ctx.panel.request(`/proxy/daemon/server${path}`, init);
const listOf = async (id: string) => ((await ctx.node.json("GET", `/daemon/server/${id}/backups`)) as { backups: Array<{ id: string; by: string; locked: boolean }> }).backups;
/**
 * What must not change: the repository's snapshots (restic keeps one file each, so a change to
 * any backup shows), every server's backup settings and the node's targets, read from disk.
 */
const state = async () => {
  const dir = join(ctx.node.config.dataDir, "backups");
  const read = (path: string) => (existsSync(path) ? readFileSync(path, "utf8") : null);
  return JSON.stringify([readdirSync(join(dir, "local", "snapshots")).sort(), read(join(dir, "servers", `${mine}.json`)), read(join(dir, "servers", `${theirs}.json`)), read(join(dir, "targets.json"))]);
};
async function refused(attack: () => Promise<Response>, expected: { status: number; code: string }) {
  const before = await state();
  const response = await attack();
  const text = await response.text();
  const got = { status: response.status, code: JSON.parse(text || "{}").error?.code, said: text.slice(0, 200) };
  expect(got).toMatchObject(expected);
  expect(await state()).toEqual(before);
}
const NO_PERMISSION = { status: 403, code: "ErrNoPermission" };
const NOT_FOUND = { status: 404, code: "ErrNotFound" };

describe.skipIf(!resticHere)("who may touch backups", () => {
  test("a user without `backups` reaches none of it, by the API or the forms", async () => {
    const viewer = await ctx.userWith(mine, { viewServerConsole: true, viewServerFiles: true, putServerFiles: true, editServerData: true });
    const [backup] = await listOf(mine);
    for (const [method, path, body] of [
      ["GET", `/${mine}/backups`, undefined],
      ["POST", `/${mine}/backups`, {}],
      ["DELETE", `/${mine}/backups/${backup!.id}`, undefined],
      ["POST", `/${mine}/backups/${backup!.id}/lock`, { locked: true }],
      ["POST", `/${mine}/backups/${backup!.id}/restore`, {}],
      ["GET", `/${mine}/backups/${backup!.id}/download`, undefined],
      ["GET", `/${mine}/backup-settings`, undefined],
      ["POST", `/${mine}/backup-settings/ignore`, { ignore: "x" }],
    ] as const) {
      await refused(() => api(path, { token: viewer.token, ...jsonInit(method, body) }), NO_PERMISSION);
    }
    for (const path of [`/server/${mine}/backups`, `/server/${mine}/backups/${backup!.id}/delete`, `/server/${mine}/backups/${backup!.id}/restore`, `/server/${mine}/backups/ignore`]) {
      const before = await state();
      expect((await ctx.panel.request(path, { token: viewer.token, ...formInit({ ignore: "x" }) })).status).toBe(403);
      expect(await state()).toEqual(before);
    }
  }, 60_000);

  test("a task with a backup step needs `backups` too: saving or running one without it is refused", async () => {
    const scheduler = await ctx.userWith(mine, { editServerData: true });
    const task = { name: "nightly", cronSchedule: "0 3 * * *", operations: [{ type: "backup" }] };
    await refused(() => api(`/${mine}/tasks`, { token: scheduler.token, ...jsonInit("POST", task) }), NO_PERMISSION);
    const both = await ctx.userWith(mine, { editServerData: true, backups: true });
    const saved = await api(`/${mine}/tasks`, { token: both.token, ...jsonInit("POST", task) });
    expect(saved.status).toBe(201);
    const { id } = await saved.json();
    await refused(() => api(`/${mine}/tasks/${id}/run`, { token: scheduler.token, method: "POST" }), NO_PERMISSION);
  });

  test("`backups` on one server never reaches another server's backups", async () => {
    // By the other server's id: refused by the panel.
    await refused(() => api(`/${theirs}/backups`, { token: holder.token }), NO_PERMISSION);
    await refused(() => api(`/${theirs}/backups/${theirBackup}/download`, { token: holder.token }), NO_PERMISSION);
    // By the other server's snapshot under their own id: not found by the node, whatever the call.
    for (const [method, path, body] of [
      ["POST", `/${mine}/backups/${theirBackup}/restore?wait=true`, {}],
      ["POST", `/${mine}/backups/${theirBackup}/lock`, { locked: true }],
      ["DELETE", `/${mine}/backups/${theirBackup}`, undefined],
      ["GET", `/${mine}/backups/${theirBackup}/download?format=zip`, undefined],
      ["GET", `/${mine}/backups/${theirBackup.slice(0, 8)}/download`, undefined],
    ] as const) {
      await refused(() => api(path, { token: holder.token, ...jsonInit(method, body) }), NOT_FOUND);
    }
    expect(readFileSync(ctx.node.folder(mine, "world.dat"), "utf8")).toBe(`world of ${mine}`);
  }, 60_000);

  test("the policy and the node's targets are an administrator's", async () => {
    await refused(() => api(`/${mine}/backup-settings/policy`, { token: holder.token, ...jsonInit("POST", { maxBackups: 1 }) }), NO_PERMISSION);
    const form = await ctx.panel.request(`/server/${mine}/backups/policy`, { token: holder.token, ...formInit({ maxBackups: "1" }) });
    expect(form.status).toBe(403);
    const nodeViewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
    const before = await state();
    const target = await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/s3`, { token: nodeViewer.token, ...formInit({ endpoint: "http://169.254.169.254", bucket: "meta", accessKeyId: "x", secretAccessKey: "y" }) });
    expect(target.status).toBe(403);
    expect((await ctx.page(`/node/${ctx.nodeId}`, nodeViewer.token)).html).not.toContain('data-testid="backup-targets"');
    expect((await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/local/password`, { token: nodeViewer.token })).status).toBe(403);
    expect((await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/local/password`, { token: holder.token })).status).toBe(403);
    expect((await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/local/recover`, { token: holder.token, ...formInit({}) })).status).toBe(403);
    expect((await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/..%2F..%2Fetc/password`, { token: ctx.admin.token })).status).toBe(404);
    expect(await state()).toEqual(before);
    // The targets are not under a server's id, so the proxy never offers them.
    expect((await ctx.panel.request(`/proxy/daemon/server/${mine}/../../backup-targets`, { token: ctx.admin.token })).status).toBe(404);
  });

  test("who made a backup is the panel's to say: a spoofed x-kiln-by is ignored", async () => {
    const made = await api(`/${mine}/backups`, { token: holder.token, method: "POST", headers: { "x-kiln-by": "task:admin" } });
    expect(made.status).toBe(202);
    let latest: { by: string } | undefined;
    for (let i = 0; i < 200 && !(latest = (await listOf(mine)).find((b) => b.by.startsWith("user:user"))); i++) await Bun.sleep(50);
    expect(latest?.by).toBe(`user:${holder.email.split("@")[0]}x`);
    expect((await listOf(mine)).some((b) => b.by === "task:admin")).toBe(false);
    for (let i = 0; i < 200 && (await ctx.node.json("GET", `/daemon/server/${mine}/backups`)).running; i++) await Bun.sleep(50);
  }, 30_000);
});

describe.skipIf(!resticHere)("backups made in a loop", () => {
  test("a user's third backup in ten minutes is refused (429) and starts nothing; a new server keeps at most 20", async () => {
    const flood = await ctx.createServer("Flood");
    const user = await ctx.userWith(flood, { backups: true });
    // Back to back (one at a time: a second while one runs is ErrServerBusy), as a script would.
    for (let i = 0; i < 2; i++) expect((await api(`/${flood}/backups?wait=true`, { token: user.token, method: "POST" })).status).toBe(201);
    const snapshots = () => readdirSync(join(ctx.node.config.dataDir, "backups", "local", "snapshots")).sort();
    const before = snapshots();
    const third = await api(`/${flood}/backups?wait=true`, { token: user.token, method: "POST" });
    const body = await third.json();
    expect({ status: third.status, code: body.error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(body.error.metadata.retryAfter).toBeGreaterThan(500);
    expect(snapshots()).toEqual(before);
    // The server's policy, which no one set, keeps at most 20: the oldest unlocked one makes room.
    expect((await ctx.node.json("GET", `/daemon/server/${flood}/backup-settings`)).policy.maxBackups).toBe(20);
  }, 60_000);
});

describe.skipIf(!resticHere)("hostile values", () => {
  test("snapshot ids: path tricks, options and shell are not found, never run", async () => {
    for (const bad of ["..%2F..%2Fetc", "-h", "--no-lock", "$(id)", "latest", "a".repeat(65), "%0Aid", "1234567", "ABCDEF12"]) {
      await refused(() => api(`/${mine}/backups/${bad}/download`, { token: holder.token }), NOT_FOUND);
      await refused(() => api(`/${mine}/backups/${bad}/restore`, { token: holder.token, ...jsonInit("POST", {}) }), NOT_FOUND);
    }
    // A format that is not offered is refused before any backup is looked up.
    await refused(() => api(`/${mine}/backups/${theirBackup}/download?format=exe`, { token: holder.token }), { status: 400, code: "ErrFieldRequired" });
  }, 30_000);

  test("restore paths: climbing out, NUL or a non-string is refused; the folder stays", async () => {
    const [backup] = await listOf(mine);
    const root = join(ctx.node.config.dataDir, "servers");
    const names = () => readdirSync(root).sort();
    const before = names();
    for (const [path, expected] of [
      ["../../../../etc/passwd", NOT_FOUND],
      [`../${theirs}/world.dat`, NOT_FOUND],
      ["-rf", NOT_FOUND],
      ["$(touch /tmp/kiln-pwned)", NOT_FOUND],
      // A line break is part of a name a server's process can make: one pattern, which this backup does not hold.
      ["world.dat\n--target=/", NOT_FOUND],
      ["world.dat\u0000", { status: 400, code: "ErrFieldHasControlCharacters" }],
      [["world.dat"], { status: 400, code: "ErrFieldRequired" }],
    ] as const) {
      await refused(() => api(`/${mine}/backups/${backup!.id}/restore?wait=true`, { token: holder.token, ...jsonInit("POST", { path }) }), expected);
    }
    expect(existsSync("/tmp/kiln-pwned")).toBe(false);
    expect(names()).toEqual(before);
    expect(readFileSync(join(root, theirs, "world.dat"), "utf8")).toBe(`world of ${theirs}`);
  }, 60_000);

  test("ignore patterns: $(...) and control characters refused; a leading - or quotes are only patterns", async () => {
    for (const [ignore, code] of [
      ["$(reboot)", "ErrFieldMustBePrintable"],
      ["${HOME}", "ErrFieldMustBePrintable"],
      ["logs\u0000", "ErrFieldHasControlCharacters"],
      ["x".repeat(300), "ErrFieldTooLarge"],
      [Array.from({ length: 101 }, (_, i) => `p${i}`).join("\n"), "ErrFieldTooLarge"],
      // restic tries each `**` against every number of folders: 30 of them made its matching of
      // one deep path take longer than any backup may (depth^30). At most two, even one after another.
      [`${"**/".repeat(30)}x`, "ErrFieldTooLarge"],
      ["**/a/**/b/**/c", "ErrFieldTooLarge"],
    ] as const) {
      await refused(() => api(`/${mine}/backup-settings/ignore`, { token: holder.token, ...jsonInit("POST", { ignore }) }), { status: 400, code });
    }
    await refused(() => api(`/${mine}/backup-settings/ignore`, { token: holder.token, ...jsonInit("POST", { ignore: ["a"] }) }), { status: 400, code: "ErrFieldRequired" });
    const saved = await api(`/${mine}/backup-settings/ignore`, { token: holder.token, ...jsonInit("POST", { ignore: "--exclude-file=/etc/shadow\n-r\n\"quoted\" 'x'" }) });
    expect(saved.status).toBe(200);
    // The backup still works, and the patterns did not become options.
    const made = await ctx.node.call("POST", `/daemon/server/${mine}/backups?wait=true`);
    expect(made.status).toBe(201);
    await api(`/${mine}/backup-settings/ignore`, { token: holder.token, ...jsonInit("POST", { ignore: "" }) });
  }, 30_000);

  test("policies: unknown fields, commands with line breaks, oversized lists and unconfigured targets are refused", async () => {
    const admin = ctx.admin.token;
    for (const [policy, expected] of [
      [{ before: ["save-all\nstop"] }, { status: 400, code: "ErrFieldHasControlCharacters" }],
      [{ before: Array.from({ length: 11 }, () => "say hi") }, { status: 400, code: "ErrInvalidJson" }],
      [{ retention: { forever: 1 } }, { status: 400, code: "ErrInvalidJson" }],
      [{ retention: { last: -1 } }, { status: 400, code: "ErrInvalidJson" }],
      [{ maxBackups: "1; rm -rf /" }, { status: 400, code: "ErrInvalidJson" }],
      [{ target: "../../etc" }, { status: 400, code: "ErrInvalidJson" }],
      [{ target: "s3" }, { status: 404, code: "ErrSettingNotConfigured" }],
      [{ __proto__: { admin: true }, extra: 1 }, { status: 400, code: "ErrInvalidJson" }],
    ] as const) {
      await refused(() => api(`/${mine}/backup-settings/policy`, { token: admin, ...jsonInit("POST", policy) }), expected);
    }
    await refused(() => api(`/${mine}/backup-settings/policy`, { token: admin, ...jsonInit("POST", { before: ["x".repeat(2 * 1024 * 1024)] }) }), { status: 413, code: "ErrMessageTooLarge" });
  });

  test("targets: hosts that are ssh options, users and folders with shell, URLs with more than a host", async () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----";
    const sftp = { host: "backup.example.net", port: 22, user: "kiln", path: "/srv/restic", privateKey: key };
    for (const [kind, target, expected] of [
      ["sftp", { ...sftp, host: "-oProxyCommand=touch /tmp/kiln-pwned" }, { status: 400, code: "ErrFieldIsInvalidHost" }],
      ["sftp", { ...sftp, host: "a b" }, { status: 400, code: "ErrFieldIsInvalidHost" }],
      ["sftp", { ...sftp, user: "-lroot" }, { status: 400, code: "ErrInvalidJson" }],
      ["sftp", { ...sftp, user: "$(id)" }, { status: 400, code: "ErrInvalidJson" }],
      ["sftp", { ...sftp, path: "/srv\n/x" }, { status: 400, code: "ErrInvalidJson" }],
      ["sftp", { ...sftp, path: "../../root" }, { status: 400, code: "ErrInvalidJson" }],
      ["sftp", { ...sftp, privateKey: "not a key" }, { status: 400, code: "ErrInvalidJson" }],
      ["sftp", { ...sftp, privateKey: "" }, { status: 400, code: "ErrFieldRequired" }],
      ["s3", { endpoint: "http://user:pw@127.0.0.1:9000", bucket: "kiln", accessKeyId: "a", secretAccessKey: "b" }, { status: 400, code: "ErrFieldIsInvalidHost" }],
      ["s3", { endpoint: "http://127.0.0.1:9000/other?x=1", bucket: "kiln", accessKeyId: "a", secretAccessKey: "b" }, { status: 400, code: "ErrFieldIsInvalidHost" }],
      ["s3", { endpoint: "file:///etc/passwd", bucket: "kiln", accessKeyId: "a", secretAccessKey: "b" }, { status: 400, code: "ErrFieldIsInvalidHost" }],
      ["s3", { endpoint: "https://s3.example.net", bucket: "../x", accessKeyId: "a", secretAccessKey: "b" }, { status: 400, code: "ErrInvalidJson" }],
      ["s3", { endpoint: "https://s3.example.net", bucket: "kiln", accessKeyId: "a", secretAccessKey: "b\nAWS_X=1" }, { status: 400, code: "ErrFieldHasControlCharacters" }],
      ["local", {}, NOT_FOUND],
      ["ftp", {}, NOT_FOUND],
    ] as const) {
      await refused(() => ctx.node.call("PUT", `/daemon/backup-targets/${kind}`, target), expected);
    }
    expect(existsSync("/tmp/kiln-pwned")).toBe(false);
    // Through the node page's form the same refusal is shown in the card, and nothing is saved.
    const before = await state();
    const page = await ctx.panel.request(`/node/${ctx.nodeId}/backup-targets/sftp`, { token: ctx.admin.token, ...formInit({ ...sftp, port: "22", host: "-oProxyCommand=x" }) });
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("must be a valid IP or FQDN");
    expect(await state()).toEqual(before);
  });
});
