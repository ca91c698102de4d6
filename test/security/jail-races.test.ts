// Attack: a server's own process races the node's file steps. While tasks run writefile, move,
// mkdir and alterfile steps on a real node, a separate process flips a folder of the server
// between a real folder and a symlink out (into another server's folder, and into a folder of
// the host) in a tight loop, 200 rounds. Nothing may be written, made or changed outside, no
// other server's file may be moved in, and every failure on the console must be a catalogue
// error naming no host path. Then hard links planted to a file outside, and SFTP symlinks that
// would lead out through a chain of links.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { closeSync, constants, existsSync, linkSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loginAs } from "../helpers/app";
import { startFlipper } from "../helpers/folder-flipper";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { jsonInit } from "../helpers/panel-node";
import { tempDir } from "../helpers/process";
import { hasSftpClient, sftpBatch, sftpRig, type SftpRig } from "../helpers/sftp";
import { decodeDaemonLine } from "../../core/live/daemon-message";
import en from "../../locales/en.json";
import { beneathAvailable, openBeneath } from "../../daemon/files/openat2";

const MARK = `MARK-${randomBytes(6).toString("hex")}`;
const OLD = new Date("2001-02-03T04:05:06Z");

/** A file outside the attacked folder, with what must never change about it. */
interface Marker {
  path: string;
  content: string;
  uid: number;
  mode: number;
}

function plantMarker(path: string, content: string): Marker {
  writeFileSync(path, content, { mode: 0o600 });
  utimesSync(path, OLD, OLD);
  const stats = statSync(path);
  return { path, content, uid: stats.uid, mode: stats.mode };
}

function expectUntouched(marker: Marker): void {
  const stats = statSync(marker.path);
  expect([marker.path, readFileSync(marker.path, "utf8"), stats.mtimeMs, stats.uid, stats.mode]).toEqual([marker.path, marker.content, OLD.getTime(), marker.uid, marker.mode]);
}

/**
 * What a failed file step may say on the console: a catalogue error's sentence (locales/en.json
 * "errors.*") with a path as the task gave it, or, where the error names no path,
 * the jail's own words for it; never a host path.
 */
const CATALOGUE_REASONS = [
  ...Object.entries(en)
    .filter(([key]) => key.startsWith("errors.Err"))
    .map(([, text]) => new RegExp(`^${text.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\\?\{\w+\\?\}/g, "[\\w./-]+")}$`)),
  /^no such file or folder$/,
  /^something with that name exists$/,
  /^that is a folder$/,
  /^[\w./-]+ (exists and )?is not a folder$/,
];

describe("file steps raced by a folder flipped for a link out", () => {
  let node: TestNode;
  let folder = "";
  let neighbour = "";
  let outside = "";
  const markers: Marker[] = [];

  beforeAll(async () => {
    node = await startTestNode();
    for (const id of ["racer", "neighbour"]) expect((await node.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBe(201);
    folder = node.folder("racer");
    neighbour = node.folder("neighbour");
    outside = tempDir("kiln-race-outside-");
    markers.push(plantMarker(join(neighbour, "secret.txt"), `${MARK} neighbour`));
    markers.push(plantMarker(join(outside, "secret.txt"), `${MARK} host`));
  });
  afterAll(() => node.stop());

  const task = async (name: string, operations: unknown[]): Promise<string> => {
    const response = await node.call("POST", "/daemon/server/racer/tasks", { name, cronSchedule: null, operations });
    expect(response.status).toBe(201);
    return (await response.json()).id;
  };
  const run = async (taskId: string): Promise<boolean> => (await node.json("POST", `/daemon/server/racer/tasks/${taskId}/run?wait=true`)).succeeded;

  test("writefile, move, mkdir and alterfile, 200 rounds: nothing outside is touched or taken", async () => {
    // d flips into the other server's folder, e into a folder of the host.
    const tasks = {
      writeInto: await task("write into d", [{ type: "writefile", target: "d/w.txt", text: "racer" }]),
      writeDeep: await task("write deep in e", [{ type: "writefile", target: "e/deep/w.txt", text: "racer" }]),
      steal: await task("steal from d", [{ type: "move", source: "d/secret.txt", target: "stolen.txt" }]),
      plant: await task("plant into e", [{ type: "writefile", target: "plant.txt", text: "racer" }, { type: "move", source: "plant.txt", target: "e/plant.txt" }]),
      plantInto: await task("plant into e as a folder", [{ type: "writefile", target: "plant2.txt", text: "racer" }, { type: "move", source: "plant2.txt", target: "e" }]),
      mkdir: await task("mkdir in e", [{ type: "mkdir", target: "e/made/deep" }]),
      alterOther: await task("alter in d", [{ type: "alterfile", file: "d/secret.txt", search: MARK, replace: "pwned", regex: false }]),
      alterOwn: await task("alter own in d", [{ type: "alterfile", file: "d/own.txt", search: "inside", replace: "altered", regex: false }]),
    };
    const outcomes = new Map<string, Set<boolean>>();
    const flippers = [startFlipper(folder, "d", neighbour), startFlipper(folder, "e", outside)];
    try {
      for (let round = 0; round < 200; round++) {
        for (const [name, taskId] of Object.entries(tasks)) {
          const succeeded = await run(taskId);
          outcomes.set(name, (outcomes.get(name) ?? new Set()).add(succeeded));
        }
      }
    } finally {
      for (const flipper of flippers) await flipper.stop();
    }
    // Both sides of the race were met: the real folder was written, the link refused.
    expect([...(outcomes.get("writeInto") ?? [])].sort()).toEqual([false, true]);
    expect(outcomes.get("steal")).toEqual(new Set([false]));
    expect(outcomes.get("alterOther")).toEqual(new Set([false]));

    expect(readdirSync(neighbour).sort()).toEqual(["secret.txt"]);
    expect(readdirSync(outside).sort()).toEqual(["secret.txt"]);
    for (const marker of markers) expectUntouched(marker);
    expect(existsSync(join(folder, "stolen.txt"))).toBe(false);

    const text = ((await node.json("GET", "/daemon/server/racer/console")).logs as string[]).join("");
    for (const secret of [node.config.dataDir, outside, "/proc/", MARK]) expect(text).not.toContain(secret);
    const said = text.split("\n").map((line) => decodeDaemonLine(line).text).join("\n");
    const reasons = [...said.matchAll(/failed: (.*)$/gm)].map((match) => match[1]!);
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of new Set(reasons)) expect([reason, CATALOGUE_REASONS.some((pattern) => pattern.test(reason))]).toEqual([reason, true]);
  }, 180_000);

  test("a hard link to a file outside: alterfile refuses it, writefile and move change only the name inside, and the file is never handed to the server's user", async () => {
    const hardTarget = plantMarker(join(outside, "hard-target.txt"), `${MARK} hard`);
    rmSync(join(folder, "d"), { recursive: true, force: true });
    linkSync(hardTarget.path, join(folder, "hard.txt"));
    const alter = await task("alter hard", [{ type: "alterfile", file: "hard.txt", search: MARK, replace: "pwned", regex: false }]);
    expect(await run(alter)).toBe(false);
    expectUntouched(hardTarget);

    const move = await task("move hard", [{ type: "move", source: "hard.txt", target: "moved-hard.txt" }]);
    expect(await run(move)).toBe(true);
    expectUntouched(hardTarget);
    const alterMoved = await task("alter moved hard", [{ type: "alterfile", file: "moved-hard.txt", search: MARK, replace: "pwned", regex: false }]);
    expect(await run(alterMoved)).toBe(false);
    expectUntouched(hardTarget);

    const write = await task("write hard", [{ type: "writefile", target: "moved-hard.txt", text: "replaced" }]);
    expect(await run(write)).toBe(true);
    expect(readFileSync(join(folder, "moved-hard.txt"), "utf8")).toBe("replaced");
    expect(statSync(join(folder, "moved-hard.txt")).nlink).toBe(1);
    expectUntouched(hardTarget);

    const text = ((await node.json("GET", "/daemon/server/racer/console")).logs as string[]).join("");
    const failures = text.split("\n").map((line) => decodeDaemonLine(line).text).filter((line) => / hard": .* failed: /.test(line));
    expect(failures).toEqual([
      `[kiln] task "alter hard": step 1/1 (alterfile) failed: The path hard.txt is outside the server's folder`,
      `[kiln] task "alter moved hard": step 1/1 (alterfile) failed: The path moved-hard.txt is outside the server's folder`,
    ]);
    expect(text).not.toContain(MARK);
  });
});

describe.skipIf(!hasSftpClient())("SFTP symlinks that lead out through a chain of links", () => {
  let rig: SftpRig;
  let id = "";
  let folder = "";
  let login: { email: string; serverId: string; password: string };

  beforeAll(async () => {
    rig = await sftpRig();
    id = await rig.createServer("chain target");
    const victimId = await rig.createServer("chain victim");
    folder = rig.folder(id);
    writeFileSync(rig.folder(victimId, "victim.txt"), `${MARK} victim`);
    const user = await loginAs(rig.panel.db, []);
    const shared = await rig.panel.request(`/api/servers/${id}/user/${user.email}`, { token: rig.admin.token, ...jsonInit("PUT", { viewServerFiles: true, putServerFiles: true, sftpServer: true }) });
    expect(shared.status).toBe(204);
    login = { email: user.email, serverId: id, password: "password123" };
  }, 30_000);
  afterAll(() => rig?.stop());

  test("d2/s -> .. is made (it stays inside); L -> d2/s/.. is refused like ../ itself, and nothing outside is reached", async () => {
    const local = tempDir("kiln-chain-sftp-");
    const result = await sftpBatch(rig.node.sftpPort, login, [
      "mkdir d2",
      "symlink .. d2/s",
      "-symlink d2/s/.. L",
      "-symlink s/.. d2/L2",
      "-symlink d2/s/d2/s/.. L3",
      "-symlink ../.. L4",
      "-get L/victim.txt got",
      "-ls L/",
    ], local);
    expect(result.code).toBe(0);
    expect(lstatSync(join(folder, "d2", "s")).isSymbolicLink()).toBe(true);
    for (const link of ["L", "d2/L2", "L3", "L4"]) expect([link, existsSync(join(folder, link)) || isLink(join(folder, link))]).toEqual([link, false]);
    expect(existsSync(join(local, "got"))).toBe(false);
    const refusals = result.err.split("\n").filter((line) => line.includes("symlink"));
    expect(refusals.length).toBe(4);
    for (const line of refusals) expect(line).toMatch(/Permission denied/);
    expect(`${result.out}${result.err}`).not.toContain(MARK);
    expect(`${result.out}${result.err}`).not.toContain(rig.config.dataDir);
  }, 30_000);
});

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

// The kernel answers EAGAIN to a beneath-the-root lookup through ".." when anything on the machine
// renames meanwhile (it cannot then be sure ".." stayed inside) and asks for the call again. A
// server's process renaming in a loop made other servers' file reads through a link with ".."
// fail with a 500; the jail asks again.
describe.if(beneathAvailable && Bun.which("perl") !== null)("the jail while something on the machine renames in a loop", () => {
  test("lookups through '..' keep working: every one of 3,000 opens succeeds", async () => {
    const root = tempDir("kiln-rename-storm-");
    const elsewhere = tempDir("kiln-renamer-");
    writeFileSync(join(root, "f"), "content");
    mkdirSync(join(root, "d"));
    writeFileSync(join(elsewhere, "a"), "");
    const renamer = Bun.spawn(["perl", "-e", 'chdir $ARGV[0]; while (1) { rename "a", "b"; rename "b", "a"; }', elsewhere], { stdout: "ignore", stderr: "ignore" });
    try {
      await Bun.sleep(100);
      let failed = 0;
      for (let i = 0; i < 3000; i++) {
        try {
          closeSync(openBeneath(root, "d/../f", constants.O_RDONLY));
        } catch {
          failed++;
        }
      }
      expect(failed).toBe(0);
    } finally {
      renamer.kill();
      await renamer.exited;
      rmSync(root, { recursive: true, force: true });
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
