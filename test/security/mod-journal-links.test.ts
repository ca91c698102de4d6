// Attacks on the journal of an add-on change when a node's server folders sit on another
// filesystem than its data folder (servers/ on a disk of its own: here on /dev/shm, a tmpfs), so
// that moving a file into the journal and back is a copy, not a rename. The server's own process
// plants links in mods/:
// - a link to a host file where a change replaces a file: the node must not read the host file
//   into its journal (and the undo must not drop it into the folder as a regular file);
// - the file a change placed swapped for a link to a host file: the undo must not write the
//   journal's bytes (the server's, chosen by it) onto the host file.
// Either way the host files are as they were, and no host bytes reach the server's folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ChangeStatus } from "../../core/mods/change";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";
import { hasRestic } from "../helpers/require-part";
import { startFileHost } from "../helpers/file-host";

const SHM = "/dev/shm";
// Only where /dev/shm is a filesystem of its own (a rename from it to the data folder is EXDEV).
const base = tempDir("kiln-mod-journal-");
const apart = existsSync(SHM) && statSync(SHM).dev !== statSync(base).dev;
const resticHere = hasRestic();
const servers = apart ? tempDirIn(SHM) : "";
const host = tempDir("kiln-host-"); // stands for the host's own files (/root/.ssh, the node's config)
const hostTarget = join(host, "authorized_keys");
const hostSecret = join(host, "secret.txt");

function tempDirIn(parent: string): string {
  const dir = join(parent, `kiln-mod-journal-${process.pid}-${Date.now()}`);
  mkdirSync(dir, { mode: 0o755 });
  return dir;
}

const fileHost = startFileHost();
const hostedFile = (name: string, text: string) => fileHost.host(name, text);

let t: TestNode;
describe.skipIf(!apart || !resticHere)("the journal across filesystems", () => {
  beforeAll(async () => {
    symlinkSync(servers, join(base, "servers"));
    writeFileSync(hostTarget, "root's own key\n", { mode: 0o600 });
    writeFileSync(hostSecret, "HOST SECRET: node token abc123\n", { mode: 0o644 });
    t = await startTestNode({ dataDir: base, stopTimeoutMs: 2000, sources: { modrinthCdn: fileHost.origin } });
  });
  afterAll(async () => {
    await t?.stop();
    fileHost.stop();
    rmSync(servers, { recursive: true, force: true });
  });

  async function change(id: string, body: unknown): Promise<ChangeStatus & { error?: { code: string } }> {
    const { changeId } = (await (await t.call("POST", `/daemon/server/${id}/mods/changes`, body)).json()) as ChangeStatus;
    let status: any;
    await eventually(async () => (status = await t.json("GET", `/daemon/server/${id}/mods/changes/${changeId}`)).state !== "running", 30_000, "the change to end");
    return status;
  }
  const journalFiles = (id: string) => {
    const dir = join(base, "mod-changes", id, "files");
    return existsSync(dir) ? readdirSync(dir).map((name) => readFileSync(join(dir, name), "utf8")) : [];
  };

  test("a link to a host file where a change replaces one: the host file is not read into the journal, nor into the folder", async () => {
    expect((await t.call("PUT", "/daemon/server/reader", echoTemplate())).status).toBe(201);
    const mods = t.folder("reader", "mods");
    mkdirSync(mods, { recursive: true });
    symlinkSync(hostSecret, join(mods, "lib.jar"));
    const made = await change("reader", { folder: "mods", add: [hostedFile("lib.jar", "a lib")] });
    expect(journalFiles("reader").some((text) => text.includes("HOST SECRET"))).toBe(false);
    // The link is not a file the node copies: the change fails, nothing changed.
    expect(made).toMatchObject({ state: "failed", error: { code: "ErrPathOutside" } });
    await t.call("POST", `/daemon/server/reader/mods/changes/${made.changeId}/undo`);
    const entry = join(mods, "lib.jar");
    expect(lstatSync(entry).isSymbolicLink()).toBe(true);
    expect(readdirSync(mods).filter((name) => !lstatSync(join(mods, name)).isSymbolicLink()).map((name) => readFileSync(join(mods, name), "utf8")).some((text) => text.includes("HOST SECRET"))).toBe(false);
    expect(readFileSync(hostSecret, "utf8")).toBe("HOST SECRET: node token abc123\n");
  }, 60_000);

  test("a placed file swapped for a link to a host file: the undo does not write onto the host file", async () => {
    expect((await t.call("PUT", "/daemon/server/victim", echoTemplate())).status).toBe(201);
    const mods = t.folder("victim", "mods");
    mkdirSync(mods, { recursive: true });
    // The bytes the server wants on the host, under the name a mod will take: the change keeps them for its undo.
    writeFileSync(join(mods, "cool-mod.jar"), "ssh-ed25519 AAAA attacker@evil\n");
    const made = await change("victim", { folder: "mods", add: [hostedFile("cool-mod.jar", "the real mod")] });
    expect(made.state).toBe("done");
    expect(readFileSync(join(mods, "cool-mod.jar"), "utf8")).toBe("the real mod");
    unlinkSync(join(mods, "cool-mod.jar"));
    symlinkSync(hostTarget, join(mods, "cool-mod.jar"));
    const undone = await t.json("POST", `/daemon/server/victim/mods/changes/${made.changeId}/undo`);
    expect(undone.state).toBe("undone");
    expect(readFileSync(hostTarget, "utf8")).toBe("root's own key\n");
    // The kept file is back in the folder as a file of its own, in place of the link.
    const entry = join(mods, "cool-mod.jar");
    expect(lstatSync(entry).isFile()).toBe(true);
    expect(readFileSync(entry, "utf8")).toBe("ssh-ed25519 AAAA attacker@evil\n");
  }, 60_000);
});
