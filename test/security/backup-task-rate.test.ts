// A task's backup step around the bound on backups a server's users ask for (2 in 10 minutes).
// A task's scheduled runs are bounded by their schedule, so a task's backups did not count; but
// a task can be run by hand (run now, the editServerData right with `backups`) or by a trigger
// (a console line the server's players can make), and those ran back to back: a user could take
// a backup per run forever, each reading the whole folder and writing to the repository. A run by
// hand or by a trigger now counts as asked for: past the bound its backup step fails with
// ErrTooManyRequests and no backup is made; a scheduled run still backs up.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
let t: TestNode;

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  expect((await t.call("PUT", "/daemon/server/looped", echoTemplate())).status).toBe(201);
  writeFileSync(t.folder("looped", "world.dat"), "world");
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const snapshots = () => readdirSync(join(t.config.dataDir, "backups", "local", "snapshots")).sort();
const backups = async () => ((await t.json("GET", "/daemon/server/looped/backups")) as { backups: unknown[] }).backups.length;

describe.skipIf(!resticHere)("a backup task run again and again", () => {
  test("run now past the bound: the backup step fails and makes nothing; Back up now is refused too; a scheduled run still backs up", async () => {
    const task = await t.json("POST", "/daemon/server/looped/tasks", { name: "loop", cronSchedule: null, operations: [{ type: "backup" }] });
    for (let i = 0; i < 2; i++) expect((await t.json("POST", `/daemon/server/looped/tasks/${task.id}/run?wait=true`)).succeeded).toBe(true);
    const before = snapshots();
    expect(await backups()).toBe(2);
    expect((await t.json("POST", `/daemon/server/looped/tasks/${task.id}/run?wait=true`)).succeeded).toBe(false);
    expect(snapshots()).toEqual(before);
    // The same bound as the users' own Back up now.
    const asked = await t.fetch(`http://127.0.0.1:${t.node.port}/daemon/server/looped/backups?wait=true`, { method: "POST", headers: { "x-kiln-by": "user:someone" } });
    expect({ status: asked.status, code: (await asked.json()).error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(snapshots()).toEqual(before);
    // A run of the task's schedule is bounded by the schedule, not by this.
    await (await t.node.backups.forTask("looped", "task:loop", "scheduled")).finished;
    expect(await backups()).toBe(3);
  }, 120_000);
});
