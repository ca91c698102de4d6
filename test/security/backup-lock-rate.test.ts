// Locking and unlocking a backup in a loop. Each runs restic tag in the target's queue (for an
// off-node target about half a second and 60 MiB of key derivation), so a user with the backups
// right alone, alternating lock and unlock, kept the node's CPU and memory busy and held up every
// other change of that target. Per server a few at once, then one every 10 s: past it
// ErrTooManyRequests and the backup stays as it was.
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
  for (const id of ["looped", "other"]) {
    expect((await t.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBe(201);
    writeFileSync(t.folder(id, "world.dat"), "world");
    await (await t.node.backups.forTask(id, "task:first", "scheduled")).finished;
  }
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const snapshots = () => readdirSync(join(t.config.dataDir, "backups", "local", "snapshots")).sort();
const listed = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/backups`)) as { backups: Array<{ id: string; locked: boolean }> }).backups;

describe.skipIf(!resticHere)("lock and unlock of a backup in a loop", () => {
  test("past a few, ErrTooManyRequests and the backup unchanged; another server's backups are not held up by it", async () => {
    const [backup] = await listed("looped");
    // Until refused, at most 20 times (the bound allows a few); every change before it went through.
    let locked = false;
    let refused: Response | undefined;
    let before: string[] = [];
    for (let i = 0; i < 20 && !refused; i++) {
      before = snapshots();
      const answer = await t.call("POST", `/daemon/server/looped/backups/${backup!.id}/lock`, { locked: !locked });
      if (answer.status === 204) locked = !locked;
      else refused = answer;
    }
    expect({ status: refused?.status, code: (await refused?.json())?.error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(snapshots()).toEqual(before);
    expect((await listed("looped"))[0]!.locked).toBe(locked);
    // Asking for what is already so changes nothing and is answered as before.
    expect((await t.call("POST", `/daemon/server/looped/backups/${backup!.id}/lock`, { locked })).status).toBe(204);
    // The bound is the server's: another server's backups are locked as usual.
    const [theirs] = await listed("other");
    expect((await t.call("POST", `/daemon/server/other/backups/${theirs!.id}/lock`, { locked: true })).status).toBe(204);
    expect((await listed("other"))[0]!.locked).toBe(true);
  }, 120_000);
});
