// Backups with the real restic on the node's own target: 200 MB backed up, 1 MB
// changed, backed up again (which adds little), restored bit for bit; a restore killed half-way
// leaves the folder as it was (and so does a node stopped half-way); retention keeps exactly what
// the policy says; a download matches the files; the `backup` task operation.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { treeChecksums } from "./helpers/checksums";
import { changeBackupData, writeBackupData } from "./helpers/backup-data";
import { hasRestic } from "./helpers/require-part";

const resticHere = hasRestic();
let t: TestNode;

beforeAll(async () => {
  if (resticHere) t = await startTestNode({ stopTimeoutMs: 2000 });
  // These backups are "a user's" back to back: the limit on how often users may ask for one
  // (test/security/backups.test.ts) is not what is tested here.
  if (resticHere) t.node.backups.rate.limit = { count: 1000, windowMs: 60_000 };
});
afterAll(async () => {
  await t?.stop();
  // 200 MB of server files and as much repository are not left in the temporary folder.
  if (t) rmSync(t.config.dataDir, { recursive: true, force: true });
});

const folder = (id: string) => t.folder(id);
async function newServer(id: string): Promise<void> {
  expect((await t.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBe(201);
}
async function backup(id: string, by = "user:alice") {
  const response = await t.fetch(`${t.node.url}/daemon/server/${id}/backups?wait=true`, { method: "POST", headers: { "x-kiln-by": by } });
  const body = await response.json();
  if (response.status !== 201) throw new Error(`backup answered ${response.status}: ${JSON.stringify(body)}`);
  return body as { id: string; shortId: string; added: number; total: number; by: string; locked: boolean };
}
const list = async (id: string) => (await t.json("GET", `/daemon/server/${id}/backups`)) as { backups: Array<{ id: string; shortId: string; locked: boolean; by: string }>; running: unknown };
const leftovers = () => readdirSync(join(t.config.dataDir, "servers")).filter((n) => n.startsWith("."));

/** The pid of the restic restoring into a staging folder, once it runs. */
function resticRestorePid(): number | null {
  for (const pid of readdirSync("/proc").filter((n) => /^\d+$/.test(n))) {
    try {
      const argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
      if (argv[0]?.endsWith("restic") && argv.includes("restore") && argv.some((a) => a.includes(".restoring-"))) return Number(pid);
    } catch {
      // gone meanwhile
    }
  }
  return null;
}

/** Whether a staging folder of a restore holds an entry yet. */
function stagedSomething(): boolean {
  const servers = join(t.config.dataDir, "servers");
  return readdirSync(servers).some((n) => n.startsWith(".restoring-") && existsSync(join(servers, n)) && readdirSync(join(servers, n)).length > 0);
}

/** A process's state letter (R, S, D, Z…) from /proc, or null once it is gone. */
function processState(pid: number): string | null {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").replace(/^.*\) /s, "")[0] ?? null;
  } catch {
    return null;
  }
}

describe.skipIf(!resticHere)("backups with restic on the node's own disk", () => {
  let first: Awaited<ReturnType<typeof backup>>;
  let second: Awaited<ReturnType<typeof backup>>;
  let sumsFirst: Record<string, string>;
  let sumsSecond: Record<string, string>;

  test("200 MB backed up, 1 MB changed and backed up again: the second adds about the change; ignore patterns hold", async () => {
    await newServer("big");
    const dir = folder("big");
    const written = writeBackupData(dir, 200);
    expect((await t.call("POST", "/daemon/server/big/backup-settings/ignore", { ignore: "# logs are not worth keeping\n/logs\n*.tmp" })).status).toBe(200);
    mkdirSync(join(dir, "logs"));
    writeFileSync(join(dir, "logs", "latest.log"), "log");
    writeFileSync(join(dir, "config", "scratch.tmp"), "tmp");
    const expected = (sums: Record<string, string>) => Object.fromEntries(Object.entries(sums).filter(([p]) => !p.startsWith("logs") && !p.endsWith(".tmp")));
    sumsFirst = expected(treeChecksums(dir));
    first = await backup("big");
    expect(first.by).toBe("user:alice");
    expect(first.total).toBeGreaterThanOrEqual(written);
    expect(first.added).toBeGreaterThan(written * 0.95);

    changeBackupData(dir, 1);
    sumsSecond = expected(treeChecksums(dir));
    expect(sumsSecond).not.toEqual(sumsFirst);
    second = await backup("big", "task:nightly");
    // The change and the content-defined chunks around it (restic's are 0.5 to 8 MiB), never the 200 MB again.
    expect(second.added).toBeGreaterThan(1024 * 1024);
    expect(second.added).toBeLessThan(16 * 1024 * 1024);
    const { backups } = await list("big");
    // restic 0.14 names a new backup by its short id; the list has both.
    expect(backups.map((b) => b.shortId)).toEqual([second.shortId, first.shortId]);
    expect(backups[0]!.by).toBe("task:nightly");
    expect(readFileSync(t.folder("big", "world", "region", "r.0.mca")).length).toBeGreaterThan(0);
    expect(await t.json("GET", "/daemon/server/big/console")).toBeDefined();
  }, 120_000);

  test("a download matches the files: the 200 MB as tar.gz, streamed (zip: test/backups-tab)", async () => {
    const response = await t.call("GET", `/daemon/server/big/backups/${second.shortId}/download?format=tar.gz`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`big-${second.shortId}.tar.gz`);
    const out = tempDir("kiln-dump-");
    await Bun.write(join(out, "a.tar.gz"), response);
    mkdirSync(join(out, "x"));
    expect(Bun.spawnSync(["tar", "xzf", join(out, "a.tar.gz"), "-C", join(out, "x")]).exitCode).toBe(0);
    expect(treeChecksums(join(out, "x"))).toEqual(sumsSecond);
    rmSync(out, { recursive: true, force: true });
  }, 60_000);

  test("a restore killed half-way leaves the folder as it was, and a running server runs again", async () => {
    expect((await t.call("POST", "/daemon/server/big/start?wait=true")).status).toBe(204);
    expect((await t.call("POST", `/daemon/server/big/backups/${first.id}/restore`, {})).status).toBe(202);
    let pid: number | null = null;
    await eventually(() => (pid = resticRestorePid()) !== null, 20_000, "restic restoring");
    // Half-way by what restic did, not by time (a loaded machine makes any delay too long or too
    // short): killed once the staging folder holds something, and while restic still runs.
    await eventually(() => stagedSomething(), 20_000, "restic to write into its staging folder");
    expect(processState(pid!) ?? "gone").toMatch(/^[RSD]$/);
    process.kill(pid!, "SIGKILL");
    await eventually(async () => (await list("big")).running === null, 20_000, "the restore to end");
    expect(treeChecksums(folder("big"))).toMatchObject(sumsSecond);
    expect(leftovers()).toEqual([]);
    await eventually(async () => (await t.json("GET", "/daemon/server/big/status")).running === true, 10_000, "the server to run again");
    const text = ((await t.json("GET", "/daemon/server/big/console")).logs as string[]).join("");
    expect(text).toContain("restore failed, the server's files are as they were");
  }, 60_000);

  test("a whole restore gives back the first backup bit for bit (ignored files are gone), owned by the server's user", async () => {
    const owner = statSync(folder("big")).uid;
    expect((await t.call("POST", `/daemon/server/big/backups/${first.id}/restore?wait=true`, {})).status).toBe(204);
    expect(treeChecksums(folder("big"))).toEqual(sumsFirst);
    expect(statSync(folder("big")).uid).toBe(owner);
    expect(statSync(join(folder("big"), "world", "region", "r.0.mca")).uid).toBe(owner);
    expect(leftovers()).toEqual([]);
    expect((await t.json("GET", "/daemon/server/big/status")).running).toBe(true);
    // Its end is told on the console; progress lines, when the restore lasted long enough for any
    // (daemon/backups/restore-progress.test.ts), come before it.
    const said = ((await t.json("GET", "/daemon/server/big/console")).logs as string[]).join("");
    expect(said.slice(said.lastIndexOf("restoring the server's files"))).toMatch(/^restoring the server's files[^]*?(backup: restore \d0%[^]*)?backup: restore finished/);
    await t.call("POST", "/daemon/server/big/kill");
  }, 60_000);

  test("one file restored from a backup, the rest left as it is", async () => {
    const dir = folder("big");
    changeBackupData(dir, 1);
    writeFileSync(join(dir, "config", "c1.json"), "changed");
    expect((await t.call("POST", `/daemon/server/big/backups/${second.id}/restore?wait=true`, { path: "config/c1.json" })).status).toBe(204);
    const now = treeChecksums(dir);
    expect(now["config/c1.json"]).toBe(sumsSecond["config/c1.json"]);
    expect(now["world/region/r.0.mca"]).not.toBe(sumsSecond["world/region/r.0.mca"]);
    const missing = await t.call("POST", `/daemon/server/big/backups/${second.id}/restore?wait=true`, { path: "no/such/file" });
    expect(missing.status).toBe(404);
  }, 60_000);
});

describe.skipIf(!resticHere)("retention, locks and other servers' backups", () => {
  test("keep-last 1 with a locked backup keeps exactly the locked one and the newest", async () => {
    await newServer("small");
    writeBackupData(folder("small"), 1, 1, 5);
    expect((await t.call("POST", "/daemon/server/small/backup-settings/policy", { retention: { last: 1 } })).status).toBe(200);
    const made = [await backup("small")];
    expect((await t.call("POST", `/daemon/server/small/backups/${made[0]!.id}/lock`, { locked: true })).status).toBe(204);
    for (let i = 0; i < 2; i++) {
      writeFileSync(join(folder("small"), "n.txt"), String(i));
      made.push(await backup("small"));
    }
    const { backups } = await list("small");
    expect(backups).toHaveLength(2);
    expect(backups.filter((b) => b.locked)).toHaveLength(1);
    expect(backups.filter((b) => !b.locked).map((b) => b.shortId)).toEqual([made[2]!.shortId]);
    const locked = backups.find((b) => b.locked)!;
    expect((await (await t.call("DELETE", `/daemon/server/small/backups/${locked.id}`)).json()).error.code).toBe("ErrBackupLocked");
    expect((await t.call("DELETE", `/daemon/server/small/backups/${made[2]!.id}`)).status).toBe(204);
    expect((await list("small")).backups).toHaveLength(1);
    writeFileSync(join(folder("small"), "n.txt"), "again");
    await backup("small");
  }, 60_000);

  test("the maximum: the oldest unlocked backup makes room; all locked refuses", async () => {
    expect((await t.call("POST", "/daemon/server/small/backup-settings/policy", { maxBackups: 2 })).status).toBe(200);
    const before = (await list("small")).backups;
    const made = await backup("small");
    const after = (await list("small")).backups;
    expect(after).toHaveLength(2);
    expect(after.map((b) => b.shortId)).toContain(made.shortId);
    expect(after.find((b) => b.locked)).toBeDefined();
    expect(after.map((b) => b.shortId)).not.toContain(before.find((b) => !b.locked)!.shortId);
    expect((await t.call("POST", `/daemon/server/small/backups/${made.id}/lock`, { locked: true })).status).toBe(204);
    const refused = await t.call("POST", "/daemon/server/small/backups?wait=true");
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("ErrBackupLimit");
  }, 60_000);

  test("a server never reaches another server's backup", async () => {
    await newServer("other");
    writeFileSync(join(folder("other"), "motd.txt"), "hello");
    const theirs = (await list("small")).backups[0]!;
    for (const [method, path, body] of [
      ["POST", `/backups/${theirs.id}/restore?wait=true`, {}],
      ["POST", `/backups/${theirs.id}/lock`, { locked: false }],
      ["DELETE", `/backups/${theirs.id}`, undefined],
      ["GET", `/backups/${theirs.id}/download`, undefined],
    ] as const) {
      const response = await t.call(method, `/daemon/server/other${path}`, body);
      expect(response.status).toBe(404);
    }
    expect((await list("other")).backups).toEqual([]);
  }, 30_000);

  test("the task operation backup makes a backup said to be by the task", async () => {
    const created = await t.json("POST", "/daemon/server/other/tasks", { name: "nightly", cronSchedule: null, operations: [{ type: "backup" }] });
    expect((await t.json("POST", `/daemon/server/other/tasks/${created.id}/run?wait=true`)).succeeded).toBe(true);
    const { backups } = await list("other");
    expect(backups).toHaveLength(1);
    expect(backups[0]!.by).toBe("task:nightly");
  }, 30_000);

  test("a running server gets the template's console commands around its backup; an administrator's replace them", async () => {
    expect((await t.call("PUT", "/daemon/server/game", { ...echoTemplate(), backup: { before: ["save-off", "save-all"], after: ["save-on"] } })).status).toBe(201);
    writeFileSync(join(folder("game"), "level.dat"), "world");
    expect((await t.call("POST", "/daemon/server/game/start?wait=true")).status).toBe(204);
    await backup("game");
    const said = async () => ((await t.json("GET", "/daemon/server/game/console")).logs as string[]).join("");
    await eventually(async () => (await said()).includes("got save-on"), 5000, "save-on");
    const text = await said();
    expect(text.indexOf("got save-off")).toBeLessThan(text.indexOf("got save-all"));
    expect(text.indexOf("got save-all")).toBeLessThan(text.indexOf("backup: finished"));
    expect(text.indexOf("backup: finished")).toBeLessThan(text.indexOf("got save-on"));
    expect((await t.call("POST", "/daemon/server/game/backup-settings/policy", { before: ["flush"], after: [] })).status).toBe(200);
    await backup("game");
    await eventually(async () => (await said()).includes("got flush"), 5000, "flush");
    expect((await said()).split("got save-off").length).toBe(2);
    await t.call("POST", "/daemon/server/game/kill");
  }, 30_000);

  test("a node stopped half-way through a restore: staging removed, a folder moved aside put back", async () => {
    const before = treeChecksums(folder("small"));
    const root = join(t.config.dataDir, "servers");
    await t.stop();
    mkdirSync(join(root, ".restoring-small-0123456789ab"));
    writeFileSync(join(root, ".restoring-small-0123456789ab", "half.bin"), "half");
    renameSync(folder("small"), join(root, ".replaced-small-ba9876543210"));
    t = await t.restart();
    expect(existsSync(folder("small"))).toBe(true);
    expect(treeChecksums(folder("small"))).toEqual(before);
    expect(leftovers()).toEqual([]);
  }, 30_000);
});
