// Attacks on a template's fileDenylist through every door a user has to a server's files: the
// real OpenSSH sftp client, the node's file API and file manager, archive extraction and a
// scheduled task's file steps. The denylist must hold for what a folder holds after a rename, a
// move, a copy or an unpacking: denied content never comes out under a name the denylist does not
// match, and no content goes in under a denied name (a link to a folder on the way included).
// Every attempt is refused (ErrFileDenied, or SFTP's "Permission denied") and changes nothing.
import { beforeEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ZipFile } from "yazl";
import { fileTree } from "../helpers/file-tree";
import { errorOf } from "../helpers/refusal";
import { freshFolder, hasSftpClient, sftpBatch, sftpServerForFile, type SftpRig, type SftpServer } from "../helpers/sftp";
import { tempDir } from "../helpers/process";

const DENYLIST = ["*.jar", "/config/secret.yml", "/private/"];
const SECRET = "token: s3cret";
const DENIED = { status: 403, code: "ErrFileDenied" };

let made: SftpServer | undefined;
let rig: SftpRig;
let id = "";
let root = "";
let login: SftpServer["login"];

sftpServerForFile("denylist doors", "doors", async (server) => {
  ({ rig, id, root, login } = made = server);
  const definition = await rig.daemon.json("GET", `/daemon/server/${id}`);
  expect((await rig.daemon.call("POST", `/daemon/server/${id}`, { ...definition, fileDenylist: DENYLIST })).status).toBe(204);
});

beforeEach(() => {
  if (!made) return;
  freshFolder(made);
  mkdirSync(join(root, "config"));
  writeFileSync(join(root, "config", "secret.yml"), SECRET);
  writeFileSync(join(root, "config", "other.yml"), "ok: true");
  mkdirSync(join(root, "private"));
  writeFileSync(join(root, "private", "notes.txt"), "private notes");
  writeFileSync(join(root, "server.jar"), "protected");
  writeFileSync(join(root, "mine.txt"), "the user's own text");
});

const api = (path: string, init: RequestInit = {}) => {
  const url = `${rig.node.url}/daemon/server/${id}/${path}`;
  return fetch(url, { ...init, headers: { ...rig.daemon.headers(init.method ?? "GET", url), ...(init.headers ?? {}) } });
};
const post = (path: string, body: unknown) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const upload = (path: string, text: string) => {
  const form = new FormData();
  form.append("file", new Blob([text]), "x");
  return api(`file/${path}`, { method: "PUT", body: form });
};
/** An attack over HTTP: refused as ErrFileDenied, the folder exactly as before. */
async function refused(attack: () => Promise<Response>) {
  const before = fileTree(root);
  expect(await errorOf(await attack())).toEqual(DENIED);
  expect(fileTree(root)).toEqual(before);
}
async function zipOf(entries: Record<string, string>): Promise<Uint8Array> {
  const zip = new ZipFile();
  for (const [path, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), path);
  zip.end();
  return new Uint8Array(await new Response(zip.outputStream as unknown as ReadableStream).arrayBuffer());
}

describe.skipIf(!hasSftpClient())("the fileDenylist after renames, moves, copies and unpacking", () => {
  test("SFTP: a folder holding a denied file is not renamed, so the file never shows under another name", async () => {
    const before = fileTree(root);
    const cwd = tempDir("kiln-deny-doors-");
    const result = await sftpBatch(rig.node.sftpPort, login, ["-rename config cfg", "-get cfg/secret.yml got.yml", "mkdir deeper", "-rename config deeper/config", "-rename private open", "-get open/notes.txt got.txt"], cwd);
    expect(result.code).toBe(0);
    expect(result.err.match(/Permission denied/g)?.length).toBe(3);
    expect(existsSync(join(cwd, "got.yml"))).toBe(false);
    expect(existsSync(join(cwd, "got.txt"))).toBe(false);
    expect(fileTree(root)).toEqual({ ...before, deeper: "folder" });
    // Nor through the file API, which would serve what the rename left under a new name.
    expect((await api("file/cfg/secret.yml")).status).toBe(404);
  }, 60_000);

  test("SFTP: a folder is not renamed to where its content would take denied names", async () => {
    rmSync(join(root, "config"), { recursive: true });
    const cwd = tempDir("kiln-deny-doors-");
    writeFileSync(join(cwd, "secret.yml"), "token: the user's own");
    const result = await sftpBatch(rig.node.sftpPort, login, ["mkdir drop", "put secret.yml drop/secret.yml", "-rename drop config"], cwd);
    expect(result.code).toBe(0);
    expect(result.err).toContain("Permission denied");
    expect(existsSync(join(root, "config"))).toBe(false);
    expect(existsSync(join(root, "drop", "secret.yml"))).toBe(true);
  }, 60_000);

  test("SFTP: a link is never made under a denied name; a link to a denied file reads and writes nothing", async () => {
    rmSync(join(root, "server.jar"));
    const before = fileTree(root);
    const cwd = tempDir("kiln-deny-doors-");
    writeFileSync(join(cwd, "mine.yml"), "token: the user's own");
    const result = await sftpBatch(
      rig.node.sftpPort,
      login,
      ["-symlink mine.txt server.jar", "-symlink mine.txt private/notes2.txt", "symlink config/secret.yml s.yml", "-get s.yml got.yml", "-put mine.yml s.yml"],
      cwd,
    );
    expect(result.code).toBe(0);
    expect(result.err.match(/Permission denied/g)?.length).toBe(4);
    expect(existsSync(join(cwd, "got.yml"))).toBe(false);
    // Only the harmless link was made: its name is not denied, and nothing came or went through it.
    expect(fileTree(root)).toEqual({ ...before, "s.yml": "link config/secret.yml" });
  }, 60_000);

  test("file manager: a move, copy or rename never takes content out of, or into, a denied name (a linked folder on the way too)", async () => {
    await refused(() => post("move", { from: "config", to: "cfg" }));
    await refused(() => post("copy", { from: "private", to: "open" }));
    symlinkSync("config", join(root, "l"));
    rmSync(join(root, "config", "secret.yml"));
    await refused(() => post("move", { from: "mine.txt", to: "l/secret.yml" }));
    await refused(() => post("copy", { from: "mine.txt", to: "l/secret.yml" }));
    mkdirSync(join(root, "drop"));
    writeFileSync(join(root, "drop", "notes.txt"), "mine");
    rmSync(join(root, "private"), { recursive: true });
    await refused(() => post("move", { from: "drop", to: "private" }));
    await refused(() => post("copy", { from: "drop", to: "private" }));
    // What the denylist leaves alone still works.
    expect((await post("move", { from: "mine.txt", to: "l/mine.txt" })).status).toBe(200);
  });

  test("file API: an upload or a new folder through a linked folder onto a denied name is refused", async () => {
    symlinkSync("config", join(root, "l"));
    symlinkSync("private", join(root, "lp"));
    rmSync(join(root, "config", "secret.yml"));
    await refused(() => upload("l/secret.yml", "token: mine"));
    await refused(() => api("file/lp/new?folder=true", { method: "PUT" }));
    await refused(() => upload("lp/new.txt", "mine"));
  });

  test("extraction: an archive unpacked into a linked folder cannot drop an entry on a denied name", async () => {
    symlinkSync("config", join(root, "l"));
    rmSync(join(root, "config", "secret.yml"));
    writeFileSync(join(root, "drop.zip"), await zipOf({ "secret.yml": "token: mine", "readme.txt": "hi" }));
    await refused(() => api("extract/drop.zip?destination=/l"));
  });

  test("a scheduled task's file steps keep to the denylist: no move out, no write in, no edit", async () => {
    const before = fileTree(root);
    for (const operation of [
      { type: "move", source: "config", target: "cfg" },
      { type: "move", source: "private", target: "config" },
      { type: "writefile", target: "server.jar", text: "replaced" },
      { type: "writefile", target: "config/secret.yml", text: "token: mine" },
      { type: "alterfile", file: "config/secret.yml", search: "s3cret", replace: "mine" },
      { type: "mkdir", target: "private/inner" },
    ]) {
      const task = await rig.daemon.json("POST", `/daemon/server/${id}/tasks`, { name: `attack ${operation.type}`, cronSchedule: null, operations: [operation] });
      const run = await rig.daemon.json("POST", `/daemon/server/${id}/tasks/${task.id}/run?wait=true`);
      expect({ operation, succeeded: run.succeeded }).toEqual({ operation, succeeded: false });
      expect(fileTree(root)).toEqual(before);
    }
  }, 30_000);
});

describe.skipIf(!hasSftpClient())("the node's staging folders (a modpack's, a CurseForge install's): the node's alone", () => {
  const STAGE = ".kiln-pack-0b5e8a42-6c1f-4d0e-9a7e-3f2b1c0d9e8a";
  const CURSE = ".kiln-curseforge-1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f";
  beforeEach(() => {
    if (!rig) return;
    // As the node leaves one while a pack is made ready: unpacked overrides it has hashed.
    mkdirSync(join(root, STAGE, "unpacked", "overrides", "config"), { recursive: true });
    writeFileSync(join(root, STAGE, "unpacked", "overrides", "config", "pack.toml"), "the pack's own");
    mkdirSync(join(root, CURSE));
    writeFileSync(join(root, CURSE, "manifest.json"), "{}");
  });

  test("the file API and file manager neither read, write, rename nor create one, whatever the template's denylist allows", async () => {
    const definition = await rig.daemon.json("GET", `/daemon/server/${id}`);
    // A template cannot lift the node's own: its "!" patterns come before the node's.
    expect((await rig.daemon.call("POST", `/daemon/server/${id}`, { ...definition, fileDenylist: [...DENYLIST, "!/.kiln-pack-*", "!.kiln-curseforge-*"] })).status).toBe(204);
    try {
      await refused(() => api(`file/${STAGE}/unpacked/overrides/config/pack.toml`));
      await refused(() => upload(`${STAGE}/unpacked/overrides/config/pack.toml`, "the user's instead"));
      await refused(() => upload(`${CURSE}/manifest.json`, "{\"files\":[]}"));
      await refused(() => post("move", { from: `${STAGE}/unpacked/overrides/config/pack.toml`, to: "mine.toml" }));
      await refused(() => post("move", { from: "mine.txt", to: `${STAGE}/unpacked/overrides/config/pack.toml` }));
      await refused(() => post("copy", { from: STAGE, to: "copied" }));
      await refused(() => api("file/.kiln-pack-planted?folder=true", { method: "PUT" }));
      symlinkSync(STAGE, join(root, "l"));
      await refused(() => upload("l/unpacked/overrides/config/pack.toml", "through a link"));
    } finally {
      expect((await rig.daemon.call("POST", `/daemon/server/${id}`, { ...definition, fileDenylist: DENYLIST })).status).toBe(204);
    }
  });

  test("SFTP neither reads nor writes one; deleting it (which fails the node's work) stays possible", async () => {
    const cwd = tempDir("kiln-deny-doors-");
    writeFileSync(join(cwd, "mine.toml"), "the user's instead");
    const result = await sftpBatch(rig.node.sftpPort, login, [`-get ${STAGE}/unpacked/overrides/config/pack.toml got.toml`, `-put mine.toml ${STAGE}/unpacked/overrides/config/pack.toml`, `-rename ${CURSE} mine`], cwd);
    expect(result.code).toBe(0);
    expect(result.err.match(/Permission denied/g)?.length).toBe(3);
    expect(existsSync(join(cwd, "got.toml"))).toBe(false);
    expect(Bun.file(join(root, STAGE, "unpacked", "overrides", "config", "pack.toml")).size).toBe("the pack's own".length);
    expect((await api(`file/${CURSE}/manifest.json`, { method: "DELETE" })).status).toBeLessThan(300);
    expect(existsSync(join(root, CURSE, "manifest.json"))).toBe(false);
  }, 60_000);
});
