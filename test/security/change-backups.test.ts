// Backups made by add-on changes: every change (mods, plugins, a modpack, a version switch) makes a
// backup of the server first. A user with the mods right alone (no `backups`) made a backup per
// change, each reading the whole folder and writing to the node's repository: a target without a
// maximum filled, and under one (or under keep rules) the server's own backups were pushed out,
// one per change. Now those backups are kept among themselves, the newest 6 per server, the
// oldest unlocked one forgotten once the next is made; they neither count towards the server's
// maximum nor take part in its keep rules. A change is never refused for how many came before
// (seven installs in a row all succeed); against a machine's loop the next backup waits its turn
// (one per server every 10 s). The undo of a switch whose backup is no longer there says so
// (ErrModSwitchUndoBackupGone) and changes nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { switchTemplate } from "../helpers/mods";
import { hasRestic } from "../helpers/require-part";
import { startFileHost } from "../helpers/file-host";
import type { ChangeStatus } from "../../core/mods/change";

const resticHere = hasRestic();
let t: TestNode;
const files = startFileHost();

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000, sources: { modrinthCdn: files.origin } });
  for (const id of ["target", "owner"]) {
    expect((await t.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBe(201);
    mkdirSync(t.folder(id, "mods"), { recursive: true });
    writeFileSync(t.folder(id, "mods", "a.jar"), "a");
  }
}, 60_000);
afterAll(async () => {
  await t?.stop();
  files.stop();
});

interface Listed { id: string; shortId: string; time: string; locked: boolean; note?: string; beforeChange?: true }
const listed = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/backups`)) as { backups: Listed[] }).backups;
/** Backups made before add-on changes carry their note ("before: …", "before an add-on change"). */
const beforeChanges = (backups: Listed[]) => backups.filter((b) => b.note?.startsWith("before"));
const own = (backups: Listed[]) => backups.filter((b) => !b.note?.startsWith("before"));
/** Snapshots in the node's repository: the servers' backups and each server's one definition. */
const snapshotFiles = () => readdirSync(join(t.config.dataDir, "backups", "local", "snapshots")).length;

async function backup(id: string): Promise<Listed> {
  const response = await t.fetch(`${t.node.url}/daemon/server/${id}/backups?wait=true`, { method: "POST", headers: { "x-kiln-by": "user:owner" } });
  expect(response.status).toBe(201);
  return (await response.json()) as Listed;
}

async function change(id: string, body: unknown, path = "changes"): Promise<ChangeStatus> {
  const response = await t.fetch(`${t.node.url}/daemon/server/${id}/mods/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-kiln-by": "user:modder" }, body: JSON.stringify(body) });
  const answer = await response.json();
  expect({ status: response.status, error: answer.error }).toEqual({ status: 202, error: undefined });
  let status: ChangeStatus | undefined;
  await eventually(async () => (status = (await t.json("GET", `/daemon/server/${id}/mods/changes/${answer.changeId}`)) as ChangeStatus).state !== "running", 60_000, "the change to end");
  return status!;
}

const hostedFile = (name: string) => files.host(name, `the jar ${name}`);

describe.skipIf(!resticHere)("a backup per add-on change", () => {
  test("a loop of toggles pushes none of the server's own backups out (maximum, keep rules) and keeps 6 backups before changes", async () => {
    t.node.backups.changePace.gapMs = 0;
    const mine = [await backup("target"), await backup("target")];
    // Room for one more of the server's own, and keep rules that would keep 3 of everything.
    expect((await t.call("POST", "/daemon/server/target/backup-settings/policy", { maxBackups: 3, retention: { last: 3 } })).status).toBe(200);
    const made: string[] = [];
    for (let i = 0; i < 9; i++) {
      const done = await change("target", i % 2 === 0 ? { folder: "mods", disable: ["a.jar"] } : { folder: "mods", enable: ["a.jar"] });
      expect({ state: done.state, error: done.error }).toEqual({ state: "done", error: undefined });
      made.push(done.backup!);
    }
    const left = await listed("target");
    // The server's own are all there; of the backups before changes, the newest 6.
    expect(own(left).map((b) => b.shortId).sort()).toEqual(mine.map((b) => b.shortId).sort());
    expect(beforeChanges(left).map((b) => b.shortId).sort()).toEqual(made.slice(-6).sort());
    // Listed as made before a change (the tab's badge), and each one rotated out named on the console.
    expect(left.filter((b) => b.beforeChange).map((b) => b.shortId).sort()).toEqual(made.slice(-6).sort());
    const rotated = t.node.manager.get("target").console.since().logs.join("\n").match(/removed \w+, an older backup made before an add-on change/g) ?? [];
    expect(rotated.map((line) => line.split(" ")[1]!.slice(0, -1)).sort()).toEqual(made.slice(0, 3).sort());
    // The target holds no more than those (and the server's definition).
    expect(snapshotFiles()).toBe(2 + 6 + 1);

    // All of the server's own locked at its maximum: a backup of its own is refused, a change is not.
    expect((await t.call("POST", "/daemon/server/target/backup-settings/policy", { maxBackups: 2 })).status).toBe(200);
    for (const b of mine) expect((await t.call("POST", `/daemon/server/target/backups/${b.id}/lock`, { locked: true })).status).toBe(204);
    expect((await (await t.call("POST", "/daemon/server/target/backups?wait=true")).json()).error.code).toBe("ErrBackupLimit");
    const after = await change("target", { folder: "mods", disable: ["a.jar"] });
    expect(after.state).toBe("done");
    expect(beforeChanges(await listed("target")).map((b) => b.shortId).sort()).toEqual([...made, after.backup!].slice(-6).sort());
  }, 240_000);

  test("seven installs in a row all succeed, each after its backup, the backups paced", async () => {
    const gapMs = 3000;
    t.node.backups.changePace.gapMs = gapMs;
    const backups: string[] = [];
    const started = Date.now();
    for (let i = 1; i <= 7; i++) {
      const done = await change("owner", { folder: "mods", add: [hostedFile(`mod-${i}.jar`)], note: `+mod ${i}` });
      expect({ i, state: done.state, error: done.error, added: done.added }).toEqual({ i, state: "done", error: undefined, added: [`mod-${i}.jar`] });
      backups.push(done.backup!);
    }
    expect(readdirSync(t.folder("owner", "mods")).sort()).toEqual(["a.jar", ...[1, 2, 3, 4, 5, 6, 7].map((i) => `mod-${i}.jar`)].sort());
    const kept = beforeChanges(await listed("owner")).sort((a, b) => a.time.localeCompare(b.time));
    expect(kept.map((b) => b.shortId)).toEqual(backups.slice(-6));
    // One backup before a change per server every gapMs: each next one waited, none was refused, so
    // the seventh began at least six gaps after the first (restic's snapshot times are taken when
    // restic gets going, which a busy machine delays unevenly, so they are not compared).
    expect(Date.now() - started).toBeGreaterThanOrEqual(6 * gapMs);
  }, 240_000);

  test("the undo of a switch whose backup is no longer there says so, and changes nothing", async () => {
    t.node.backups.changePace.gapMs = 0;
    expect((await t.call("PUT", "/daemon/server/switching", switchTemplate())).status).toBe(201);
    expect((await t.call("POST", "/daemon/server/switching/install?wait=true")).status).toBe(204);
    const switched = await change("switching", { variable: "version", value: "1.20.1", folder: null }, "versions");
    expect({ state: switched.state, error: switched.error }).toEqual({ state: "done", error: undefined });
    expect(readFileSync(t.folder("switching", "installed.txt"), "utf8")).toBe("Minecraft 1.20.1");
    // Deleted by a user with the backups right (or left behind on another target).
    expect((await t.call("DELETE", `/daemon/server/switching/backups/${switched.backup}`)).status).toBe(204);
    const undo = await t.call("POST", `/daemon/server/switching/mods/changes/${switched.changeId}/undo`);
    expect({ status: undo.status, error: (await undo.json()).error }).toMatchObject({ status: 409, error: { code: "ErrModSwitchUndoBackupGone", metadata: { backup: switched.backup } } });
    expect(readFileSync(t.folder("switching", "installed.txt"), "utf8")).toBe("Minecraft 1.20.1");
  }, 120_000);
});
