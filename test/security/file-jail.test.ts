// Attack: the file jail, from outside. A user with the file flags (and no more) goes through the
// panel's proxy over a real socket (raw request lines, so ".." reaches the server unnormalized)
// and through the real `sftp` client, at markers planted outside the server's folder: a sibling
// folder, another server's folder, and the host. Links pointing out are planted on disk as a
// server process would make them. Every answer must be a catalogue error, carry no host path and
// no marker, and every marker must keep its content and modification time.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ERROR_CODES } from "../../core/errors";
import { loginAs } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { tempDir } from "../helpers/process";
import { hasSftpClient, sftpBatch, sftpRig, type SftpRig } from "../helpers/sftp";
import { rawZip } from "../../daemon/files/extract-test-archives";

const MARK = randomBytes(6).toString("hex");
const OLD = new Date("2001-02-03T04:05:06Z");
let rig: SftpRig;
let id = "";
let victimId = "";
let folder = "";
let outside = "";
let user: { token: string; email: string };
/** Every file outside the server's folder the attacks aim at: path → content. */
const markers = new Map<string, string>();

function plantMarker(path: string, content: string): void {
  writeFileSync(path, content);
  utimesSync(path, OLD, OLD);
  markers.set(path, content);
}

/** Content and time of every marker unchanged, and nothing added beside them. */
function expectMarkersUntouched(): void {
  for (const [path, content] of markers) {
    expect([path, readFileSync(path, "utf8")]).toEqual([path, content]);
    expect(statSync(path).mtimeMs).toBe(OLD.getTime());
  }
  expect(readdirSync(outside).sort()).toEqual(["hard-target.txt", "outside.zip", "secret.txt"]);
}

/** An answer from outside names no host folder and holds no marker. */
function expectClean(text: string): void {
  for (const secret of [rig.config.dataDir, outside, tmpdir(), "root:x:0", `MARK-${MARK}`]) expect(text).not.toContain(secret);
}

/** One HTTP request written by hand on a real socket, so the request line reaches the panel exactly as spelled. */
function rawHttp(method: string, target: string, body = "", headers: Record<string, string> = {}): Promise<{ status: number; text: string; head: string }> {
  const port = Number(new URL(rig.panelUrl).port);
  const head = [`${method} ${target} HTTP/1.1`, "Host: 127.0.0.1", `Authorization: Bearer ${user.token}`, "Connection: close", `Content-Length: ${Buffer.byteLength(body)}`, ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(`${head.join("\r\n")}\r\n\r\n${body}`));
    let out = "";
    socket.on("data", (chunk) => (out += chunk));
    socket.on("end", () => resolve({ status: Number(out.split(" ")[1]), head: out.slice(0, out.indexOf("\r\n\r\n")), text: out.slice(out.indexOf("\r\n\r\n") + 4) }));
    socket.on("error", reject);
  });
}

const BOUNDARY = "----kilnattack";
const multipart = (content: string) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\n${content}\r\n--${BOUNDARY}--\r\n`;
const UPLOAD = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };

type Answer = { status: number; text: string; head: string };

/**
 * An answer an outsider may get: clean, and a catalogue error (4xx), or a success (a spelling that
 * is only an odd name inside the folder, like "%2e%2e%2f" double-encoded), or, for a request line
 * that climbs above the proxy's prefix (the HTTP server resolves it before any route), the
 * panel's not-found page for a path that names no page. `refusedWith` demands a refusal.
 */
async function expectSafe(answer: Promise<Answer>, what: string, refusedWith?: string[]): Promise<void> {
  const { status, text, head } = await answer;
  expectClean(text);
  if (status === 302 && !refusedWith) return expect(head).toMatch(/\r\nlocation: \/errors\/404\r\n/i);
  if (status < 300 && !refusedWith) return;
  expect([what, status, text.slice(0, 300)]).toEqual([what, status >= 400 && status < 500 ? status : -1, text.slice(0, 300)]);
  const code = JSON.parse(text.replace(/^[0-9a-f]+\r\n/, "").replace(/\r\n0\r\n\r\n$/, "")).error.code;
  expect(ERROR_CODES).toContain(code);
  if (refusedWith) expect([what, code]).toEqual([what, refusedWith.includes(code) ? code : refusedWith.join("|")]);
}
const expectRefused = (answer: Promise<Answer>, what: string) => expectSafe(answer, what, ["ErrPathOutside", "ErrNotFound"]);

beforeAll(async () => {
  rig = await sftpRig();
  id = await rig.createServer("jail target");
  victimId = await rig.createServer("jail victim");
  folder = rig.folder(id);
  outside = tempDir("kiln-jail-outside-");
  plantMarker(join(outside, "secret.txt"), `MARK-${MARK}-outside`);
  plantMarker(join(outside, "hard-target.txt"), `MARK-${MARK}-hard`);
  writeFileSync(join(outside, "outside.zip"), rawZip([{ name: "from-outside.txt", data: `MARK-${MARK}-zip` }]));
  utimesSync(join(outside, "outside.zip"), OLD, OLD);
  mkdirSync(rig.folder(victimId), { recursive: true });
  plantMarker(rig.folder(victimId, "victim.txt"), `MARK-${MARK}-victim`);
  // Planted as the game would: links to a folder and a file outside, one climbing into the other
  // server's folder, one climbing to the root, a link to an outside archive, a hard link.
  symlinkSync(outside, join(folder, "link-dir"));
  symlinkSync(join(outside, "secret.txt"), join(folder, "link-file"));
  symlinkSync(`../${victimId}`, join(folder, "link-victim"));
  symlinkSync("../../../../../../..", join(folder, "link-root"));
  symlinkSync(join(outside, "outside.zip"), join(folder, "link.zip"));
  linkSync(join(outside, "hard-target.txt"), join(folder, "hard.txt"));
  writeFileSync(join(folder, "inside.zip"), rawZip([{ name: "in.txt", data: "inside" }]));
  const account = await loginAs(rig.panel.db, []);
  const shared = await rig.panel.request(`/api/servers/${id}/user/${account.email}`, { token: rig.admin.token, ...jsonInit("PUT", { viewServerFiles: true, putServerFiles: true, sftpServer: true }) });
  expect(shared.status).toBe(204);
  user = account;
}, 30_000);
afterAll(() => rig?.stop());

const file = (path: string) => `/proxy/daemon/server/${id}/file/${path}`;

describe("the file jail through the panel's proxy", () => {
  // Spellings of "climb out", each aimed at a marker by name.
  const spellings = () => [
    `../${victimId}/victim.txt`,
    `../../../../../../etc/passwd`,
    `..%2f${victimId}%2fvictim.txt`,
    `%2e%2e/${victimId}/victim.txt`,
    `%2e%2e%2f${victimId}%2fvictim.txt`,
    `.%2e/.%2E/../etc/passwd`,
    `%252e%252e%252f${victimId}%252fvictim.txt`,
    `..\\${victimId}\\victim.txt`,
    `..%5c${victimId}%5cvictim.txt`,
    `%c0%ae%c0%ae/${victimId}/victim.txt`,
    `%c0%ae%c0%ae%c0%af${victimId}`,
    `....//....//etc/passwd`,
    `%2fetc%2fpasswd`,
    `/etc/passwd`,
    `link-file%00.txt`,
    `motd.txt%00/../../${victimId}/victim.txt`,
    `%ff%fe`,
    "x".repeat(256),
    `${"y".repeat(255)}/${"z".repeat(4000)}`,
    `${"../".repeat(40)}etc/passwd`,
  ];

  test("'..' in every spelling, NUL bytes, absolute and overlong paths: refused for read, write and delete", async () => {
    const planted = readdirSync(folder);
    for (const spelling of spellings()) {
      await expectSafe(rawHttp("GET", file(spelling)), `GET ${spelling}`);
      await expectSafe(rawHttp("PUT", `${file(spelling)}?folder=true`), `PUT folder ${spelling}`);
      await expectSafe(rawHttp("PUT", file(spelling), multipart("planted"), UPLOAD), `PUT ${spelling}`);
      await expectSafe(rawHttp("GET", `/proxy/daemon/server/${id}/extract/inside.zip?destination=${spelling}`), `extract to ${spelling}`);
      await expectSafe(rawHttp("DELETE", file(spelling)), `DELETE ${spelling}`);
    }
    expectMarkersUntouched();
    // The other server's folder holds what its install wrote and the marker, nothing more.
    expect(readdirSync(rig.folder(victimId)).filter((name) => name !== "motd.txt")).toEqual(["victim.txt"]);
    // What the literal odd names made inside goes again.
    for (const name of readdirSync(folder)) if (!planted.includes(name)) rmSync(join(folder, name), { recursive: true });
  }, 30_000);

  test("links planted inside that point out: nothing is read, listed, written, deleted, archived or extracted through them", async () => {
    const reads = ["link-file", "link-dir", "link-dir/secret.txt", "link-victim", "link-victim/victim.txt", "link-root/etc/passwd", "hard.txt"];
    for (const path of reads) await expectRefused(rawHttp("GET", file(path)), `GET ${path}`);
    for (const path of ["link-dir/new", "link-victim/new", "link-root/tmp/new"]) await expectRefused(rawHttp("PUT", `${file(path)}?folder=true`), `mkdir ${path}`);
    for (const path of ["link-dir/planted.txt", "link-victim/victim.txt", "link-dir/secret.txt"]) await expectRefused(rawHttp("PUT", file(path), multipart("planted"), UPLOAD), `upload ${path}`);
    for (const path of ["link-dir/secret.txt", "link-victim/victim.txt", "link-root/tmp"]) await expectRefused(rawHttp("DELETE", file(path)), `DELETE ${path}`);
    await expectRefused(rawHttp("GET", `/proxy/daemon/server/${id}/extract/link.zip?destination=.`), "extract an archive outside");
    await expectRefused(rawHttp("GET", `/proxy/daemon/server/${id}/extract/inside.zip?destination=link-dir`), "extract into a link out");
    await expectRefused(rawHttp("POST", `/proxy/daemon/server/${id}/archive/link-dir/out.zip`, '["motd.txt"]', { "content-type": "application/json" }), "archive into a link out");
    // Archiving the links themselves: links out are left out; the hard link is refused whole.
    const archived = await rawHttp("POST", `/proxy/daemon/server/${id}/archive/links.zip`, '["link-file","link-dir","link-victim","link-root","motd.txt"]', { "content-type": "application/json" });
    expect(archived.status).toBe(200);
    await expectRefused(rawHttp("POST", `/proxy/daemon/server/${id}/archive/hard.zip`, '["hard.txt"]', { "content-type": "application/json" }), "archive a hard link");
    // What went into the zip, unpacked by the node itself: motd.txt only.
    mkdirSync(join(folder, "unpacked"));
    expect((await rawHttp("GET", `/proxy/daemon/server/${id}/extract/links.zip?destination=unpacked`)).status).toBe(204);
    expect(readdirSync(join(folder, "unpacked"))).toEqual(["motd.txt"]);
    expect(readdirSync(folder).filter((name) => name.startsWith("hard") && name.endsWith(".zip"))).toEqual([]);
    expectMarkersUntouched();
  });

  test("uploading over a link or a hard link replaces the name inside, never the file outside; deleting one removes the link only", async () => {
    writeFileSync(join(folder, "over-link"), "");
    symlinkSync(join(outside, "secret.txt"), join(folder, "over-link2"));
    const overHard = await rawHttp("PUT", file("hard.txt"), multipart("replaced"), UPLOAD);
    expectClean(overHard.text);
    if (overHard.status === 200) expect(readFileSync(join(folder, "hard.txt"), "utf8")).toBe("replaced");
    await expectRefused(rawHttp("PUT", file("over-link2"), multipart("replaced"), UPLOAD), "upload over a link out");
    expectMarkersUntouched();
    for (const path of ["over-link2", "link-file"]) expect((await rawHttp("DELETE", file(path))).status).toBe(204);
    expect(existsSync(join(folder, "link-file"))).toBe(false);
    symlinkSync(join(outside, "secret.txt"), join(folder, "link-file"));
    expectMarkersUntouched();
  });

  test("a folder flipped for a link out by a running process, 200 rounds: never followed", async () => {
    // The flipper stands in for a game server racing the node: swap is a folder, then a link out.
    const flipper = Bun.spawn(["sh", "-c", `cd '${folder}'; while :; do rm -rf swap; mkdir swap; echo inside > swap/secret.txt; rm -rf swap; ln -s '${outside}' swap; done`], { stdout: "ignore", stderr: "ignore" });
    try {
      const statuses = new Set<number>();
      for (let round = 0; round < 200; round++) {
        const path = round % 3 === 0 ? "swap/secret.txt" : round % 3 === 1 ? "swap" : "swap/planted.txt";
        const answer = round % 3 === 2 ? await rawHttp("PUT", file(path), multipart("planted"), UPLOAD) : await rawHttp("GET", file(path));
        expectClean(answer.text);
        expect(answer.status).toBeLessThan(500);
        statuses.add(answer.status);
        if (round % 10 === 0) await rawHttp("DELETE", file("swap/secret.txt")).then((a) => expect(a.status).toBeLessThan(500));
      }
      // Both sides of the race were seen: the folder read, and the link refused.
      expect(statuses.has(200)).toBe(true);
      expect(statuses.has(403) || statuses.has(404)).toBe(true);
    } finally {
      flipper.kill();
      await flipper.exited;
    }
    expectMarkersUntouched();
  }, 30_000);
});

describe.skipIf(!hasSftpClient())("the file jail through SFTP", () => {
  const login = () => ({ email: user.email, serverId: id, password: "password123" });

  test("reads, writes, renames, links and listings through links out and '..' spellings touch nothing outside", async () => {
    const local = tempDir("kiln-jail-sftp-");
    writeFileSync(join(local, "payload.txt"), "pwned");
    // The HTTP upload test replaced hard.txt with a file of its own: plant the hard link afresh.
    rmSync(join(folder, "hard.txt"), { force: true });
    linkSync(join(outside, "hard-target.txt"), join(folder, "hard.txt"));
    const result = await sftpBatch(
      rig.node.sftpPort,
      login(),
      [
        `-get ../${victimId}/victim.txt v1`,
        `-get /../../${victimId}/victim.txt v2`,
        `-get "..\\\\${victimId}\\\\victim.txt" v3`,
        "-get link-victim/victim.txt v4",
        "-get link-file v5",
        "-get link-dir/secret.txt v6",
        "-get hard.txt v7",
        "-get link-root/etc/passwd v8",
        "-ls link-dir",
        "-ls link-victim",
        "-ls link-root/",
        "-put payload.txt link-dir/planted.txt",
        "-put payload.txt link-victim/victim.txt",
        "-put payload.txt link-file",
        "-put payload.txt hard.txt",
        "-mkdir link-dir/made",
        "-rm link-dir/secret.txt",
        "-rm link-victim/victim.txt",
        "-rename motd.txt link-dir/moved.txt",
        "-rename link-dir/secret.txt stolen.txt",
        "-rename link-victim/victim.txt stolen2.txt",
        "-rename link-victim/victim.txt link-dir/victim.txt",
        "-ln hard.txt link-dir/hard2.txt",
        "-ln link-dir/secret.txt stolen3.txt",
        "-symlink ../../.. up",
        `-symlink ${outside} out`,
        "-chmod 777 link-dir",
        "-chmod 777 hard.txt",
        "ls -la",
      ],
      local,
    );
    expect(result.code).toBe(0);
    expectClean(result.out.split("\n").filter((line) => !line.startsWith("sftp>")).join("\n"));
    expectClean(result.err.replaceAll(outside, "<the test's own command>"));
    for (const name of ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8"]) expect([name, existsSync(join(local, name))]).toEqual([name, false]);
    for (const name of ["stolen.txt", "stolen2.txt", "stolen3.txt", "up", "out"]) expect([name, existsSync(join(folder, name))]).toEqual([name, false]);
    expect(readFileSync(join(folder, "motd.txt"), "utf8")).toBe("hello world");
    expectMarkersUntouched();
    expect(statSync(outside).mode & 0o777).not.toBe(0o777);
    expect(statSync(join(outside, "hard-target.txt")).mode & 0o777).not.toBe(0o777);
  }, 30_000);

  test("a folder flipped for a link out while a session reads and writes it, 200 rounds", async () => {
    const local = tempDir("kiln-jail-sftp-race-");
    writeFileSync(join(local, "payload.txt"), "pwned");
    const flipper = Bun.spawn(["sh", "-c", `cd '${folder}'; while :; do rm -rf swap2; mkdir swap2; echo inside > swap2/secret.txt; rm -rf swap2; ln -s '${outside}' swap2; done`], { stdout: "ignore", stderr: "ignore" });
    let result;
    try {
      const commands = Array.from({ length: 200 }, (_, i) => (i % 2 ? `-get swap2/secret.txt got${i}` : `-put payload.txt swap2/planted${i}.txt`));
      result = await sftpBatch(rig.node.sftpPort, login(), commands, local);
    } finally {
      flipper.kill();
      await flipper.exited;
    }
    expect(result.code).toBe(0);
    // The flipper's own file may be caught between its creation and its line.
    for (const name of readdirSync(local).filter((n) => n.startsWith("got"))) expect(["", "inside\n"]).toContain(readFileSync(join(local, name), "utf8"));
    expectMarkersUntouched();
  }, 30_000);
});
