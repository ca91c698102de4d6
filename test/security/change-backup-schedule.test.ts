// A user with the mods right alone, toggling a jar, keeps the server's backup slot busy: each
// change makes its backup first (paced one per server every 2 s), one backup or restore runs per
// server at a time, and a scheduled backup that came while a change's backup ran was refused
// (ErrServerBusy): on a server whose backup takes longer than the pace, the loop left the
// schedule's backups nearly never made, the owner's own history starved by someone who may not
// touch backups. A task's backup now waits for a change's backup under way and is made after it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import type { ChangeStatus } from "../../core/mods/change";

const resticHere = hasRestic();
let t: TestNode;

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  t.node.backups.changePace.gapMs = 0;
  expect((await t.call("PUT", "/daemon/server/starved", echoTemplate())).status).toBe(201);
  mkdirSync(t.folder("starved", "mods"), { recursive: true });
  writeFileSync(t.folder("starved", "mods", "a.jar"), "a");
  // A world that takes restic a while to read (random bytes: nothing to deduplicate or compress).
  for (let i = 0; i < 12; i++) writeFileSync(t.folder("starved", `region-${i}.mca`), randomBytes(16 * 1024 * 1024));
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

describe.skipIf(!resticHere)("a scheduled backup while a change's backup runs", () => {
  test("waits for it and is made, not refused; the change goes through too", async () => {
    const response = await t.fetch(`${t.node.url}/daemon/server/starved/mods/changes`, { method: "POST", headers: { "content-type": "application/json", "x-kiln-by": "user:modder" }, body: JSON.stringify({ folder: "mods", disable: ["a.jar"] }) });
    expect(response.status).toBe(202);
    const { changeId } = await response.json();
    // The change's backup is under way.
    await eventually(async () => ((await t.json("GET", "/daemon/server/starved/backups")) as { running: unknown }).running !== null, 10_000, "the change's backup to run");
    const scheduled = await t.node.backups.forTask("starved", "task:nightly", "scheduled").then(
      (run) => run.finished,
      (error: { code?: string }) => ({ refused: error.code }),
    );
    expect(scheduled).not.toHaveProperty("refused");
    expect((scheduled as { by: string }).by).toBe("task:nightly");
    let status: ChangeStatus | undefined;
    await eventually(async () => (status = (await t.json("GET", `/daemon/server/starved/mods/changes/${changeId}`)) as ChangeStatus).state !== "running", 60_000, "the change to end");
    expect(status!.state).toBe("done");
    const listed = ((await t.json("GET", "/daemon/server/starved/backups")) as { backups: Array<{ by: string; beforeChange?: true }> }).backups;
    expect(listed.filter((b) => !b.beforeChange).map((b) => b.by)).toEqual(["task:nightly"]);
    expect(listed.filter((b) => b.beforeChange).length).toBe(1);
  }, 120_000);
});
