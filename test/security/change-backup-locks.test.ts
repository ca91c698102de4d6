// Locking the backups add-on changes make. Those backups are kept among themselves, the newest 6
// per server, the oldest unlocked one forgotten once the next is made, and a change's backup is
// made whatever is locked. A user with the mods and backups rights locked each one as it came
// (a lock is one every 10 s past the first few), so rotation had nothing to forget: the server's
// change backups grew without end, past both the 6 and the server's own maximum, each a
// snapshot in the node's repository. Now the locked ones among them are at most as many as are
// kept: one more lock is ErrBackupLimit and the backup stays unlocked, so the next change's
// backup rotates it out and the count stays bounded.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import type { ChangeStatus } from "../../core/mods/change";

const resticHere = hasRestic();
/** Fewer than the real 6, so the test stays within the lock's burst (TagRate): the rule is the same. */
const KEPT = 2;
let t: TestNode;

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  t.node.backups.changeBackupsKept = KEPT;
  t.node.backups.changePace.gapMs = 0;
  expect((await t.call("PUT", "/daemon/server/locker", echoTemplate())).status).toBe(201);
  mkdirSync(t.folder("locker", "mods"), { recursive: true });
  writeFileSync(t.folder("locker", "mods", "a.jar"), "a");
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

interface Listed { id: string; shortId: string; locked: boolean; beforeChange?: true }
const changeBackups = async () => ((await t.json("GET", "/daemon/server/locker/backups")) as { backups: Listed[] }).backups.filter((b) => b.beforeChange);

/** One toggle of a.jar (as a user with the mods right alone would), to its end; answers its backup's id. */
async function toggle(i: number): Promise<string> {
  const body = i % 2 === 0 ? { folder: "mods", disable: ["a.jar"] } : { folder: "mods", enable: ["a.jar"] };
  const response = await t.fetch(`${t.node.url}/daemon/server/locker/mods/changes`, { method: "POST", headers: { "content-type": "application/json", "x-kiln-by": "user:modder" }, body: JSON.stringify(body) });
  const answer = await response.json();
  expect(response.status).toBe(202);
  let status: ChangeStatus | undefined;
  await eventually(async () => (status = (await t.json("GET", `/daemon/server/locker/mods/changes/${answer.changeId}`)) as ChangeStatus).state !== "running", 60_000, "the change to end");
  expect(status!.state).toBe("done");
  return status!.backup!;
}

const lock = (backup: string) => t.call("POST", `/daemon/server/locker/backups/${backup}/lock`, { locked: true });

describe.skipIf(!resticHere)("locking every backup an add-on change makes", () => {
  test("the locked ones are at most as many as are kept; one more lock is refused and rotation keeps the count", async () => {
    // As many as are kept, each locked as it comes: allowed.
    for (let i = 0; i < KEPT; i++) expect((await lock(await toggle(i))).status).toBe(204);
    // One more change: its backup is made beside the locked ones, and locking it too is refused.
    const extra = await toggle(KEPT);
    const refused = await lock(extra);
    expect(refused.status).toBe(409);
    expect((await refused.json()).error.code).toBe("ErrBackupLimit");
    expect((await changeBackups()).find((b) => b.shortId === extra.slice(0, 8) || b.id === extra)?.locked).toBe(false);
    // The loop goes on: the unlocked one rotates out each time, never more than KEPT + 1 in all.
    for (let i = KEPT + 1; i < KEPT + 4; i++) {
      const made = await toggle(i);
      expect((await lock(made)).status).toBe(409);
      const left = await changeBackups();
      expect(left.length).toBeLessThanOrEqual(KEPT + 1);
      expect(left.filter((b) => b.locked).length).toBe(KEPT);
    }
    // Unlocking one makes room: another may be locked again.
    const [first] = (await changeBackups()).filter((b) => b.locked);
    expect((await t.call("POST", `/daemon/server/locker/backups/${first!.id}/lock`, { locked: false })).status).toBe(204);
    const newest = (await changeBackups()).find((b) => !b.locked && b.id !== first!.id);
    expect((await lock(newest!.id)).status).toBe(204);
  }, 120_000);
});
