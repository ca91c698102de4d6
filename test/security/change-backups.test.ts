// Backups made by add-on changes: every change (mods, plugins, a modpack, a version switch) makes a
// backup of the server first, and these counted against no bound. A user with the mods right alone
// (no `backups`) made a backup per change, each reading the whole folder and writing to the
// node's repository: a target without a maximum filled, and under one the server's other backups
// were pushed out, one per change. Now a server's changes make at most 6 backups in an hour; the
// next change is refused (429 ErrTooManyRequests, with retryAfter) before anything changes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import type { ChangeStatus } from "../../core/mods/change";

const resticHere = hasRestic();
let t: TestNode;

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  expect((await t.call("PUT", "/daemon/server/target", echoTemplate())).status).toBe(201);
  mkdirSync(t.folder("target", "mods"), { recursive: true });
  writeFileSync(t.folder("target", "mods", "a.jar"), "a");
}, 60_000);
afterAll(async () => {
  await t?.stop();
});

const snapshots = () => readdirSync(join(t.config.dataDir, "backups", "local", "snapshots")).sort();
const mods = () => readdirSync(t.folder("target", "mods")).sort();

async function change(body: unknown): Promise<{ status: number; body: ChangeStatus & { error?: { code: string; metadata?: { retryAfter?: number } } } }> {
  const response = await t.call("POST", "/daemon/server/target/mods/changes", body);
  const answer = await response.json();
  if (response.status === 202) {
    let status: ChangeStatus | undefined;
    await eventually(async () => (status = (await t.json("GET", `/daemon/server/target/mods/changes/${answer.changeId}`)) as ChangeStatus).state !== "running", 30_000, "the change to end");
    return { status: 202, body: status! as never };
  }
  return { status: response.status, body: answer };
}

describe.skipIf(!resticHere)("a backup per add-on change", () => {
  test("six changes in an hour make six backups; the seventh is refused before anything changes", async () => {
    // Disabled, enabled again, and so on: each change changes one file's name, and makes a backup first.
    for (let i = 0; i < 6; i++) {
      const made = await change(i % 2 === 0 ? { folder: "mods", disable: ["a.jar"] } : { folder: "mods", enable: ["a.jar"] });
      expect({ status: made.status, state: made.body.state, backup: typeof made.body.backup }).toEqual({ status: 202, state: "done", backup: "string" });
    }
    const before = { snapshots: snapshots(), mods: mods() };
    expect(before.mods).toEqual(["a.jar"]);
    const seventh = await change({ folder: "mods", disable: ["a.jar"] });
    expect({ status: seventh.status, code: seventh.body.error?.code }).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(seventh.body.error?.metadata?.retryAfter).toBeGreaterThan(3000);
    // No backup was made and nothing changed, nor did a modpack get past it (a version switch is
    // checked the same way, after its request's own checks).
    for (const [path, body] of [["/daemon/server/target/mods/packs", { url: `${t.config.sources.modrinthCdn}/x.mrpack`, size: 10, sha512: "0".repeat(128) }]] as const) {
      const response = await t.call("POST", path, body);
      expect({ path, status: response.status, code: (await response.json()).error?.code }).toEqual({ path, status: 429, code: "ErrTooManyRequests" });
    }
    expect({ snapshots: snapshots(), mods: mods() }).toEqual(before);
  }, 120_000);
});
