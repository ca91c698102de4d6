// Attack: a relative link that points inside, moved to where it points out. `a/b/link -> ../x`
// leads to `a/x`; moved to the server's root it would lead above the folder, a link the rules
// forbid whoever makes it (the server's own process follows links and is not jailed). A user with
// the file rights tries it through the file manager's move and SFTP's rename, with the link alone
// and with a folder holding such a link; each is refused with ErrPathOutside (SFTP: "Permission
// denied") and nothing moves. Moves that keep every link inside still work.
import { beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileTree } from "../helpers/file-tree";
import { errorOf } from "../helpers/refusal";
import { freshFolder, hasSftpClient, sftpBatch, sftpServerForFile, type SftpRig, type SftpServer } from "../helpers/sftp";

let made: SftpServer | undefined;
let rig: SftpRig;
let id = "";
let root = "";
let login: SftpServer["login"];
sftpServerForFile("moved links", "links", (server) => void ({ rig, id, root, login } = made = server));

beforeEach(() => {
  if (!made) return;
  freshFolder(made);
  // a/x is what the links lead to; a/b/link and a/b/c/deep point at it from one and two folders down.
  mkdirSync(join(root, "a", "b", "c"), { recursive: true });
  mkdirSync(join(root, "d"));
  writeFileSync(join(root, "a", "x"), "x");
  symlinkSync("../x", join(root, "a", "b", "link"));
  symlinkSync("../../x", join(root, "a", "b", "c", "deep"));
});

const move = (from: string, to: string) => rig.daemon.call("POST", `/daemon/server/${id}/move`, { from, to });

describe.skipIf(!hasSftpClient())("a moved link never points out of the server's folder", () => {
  test("file manager: the link moved to the root, or a folder whose link would climb out, is refused and nothing moves", async () => {
    const before = fileTree(root);
    expect(await errorOf(await move("a/b/link", "link"))).toEqual({ status: 403, code: "ErrPathOutside" });
    expect(await errorOf(await move("a/b/c", "c"))).toEqual({ status: 403, code: "ErrPathOutside" });
    expect(fileTree(root)).toEqual(before);
  });

  test("file manager: moves that keep every link inside still happen", async () => {
    // Renamed in place, the links mean what they meant; one level down elsewhere, they lead to d/x.
    expect((await move("a/b/link", "a/b/renamed")).status).toBe(200);
    expect((await move("a/b", "d/b")).status).toBe(200);
    expect(fileTree(root)).toMatchObject({ "d/b/renamed": "link ../x", "d/b/c/deep": "link ../../x" });
  });

  test("SFTP: rename of the link, or of a folder holding a climbing link, to the root is refused", async () => {
    const before = fileTree(root);
    const result = await sftpBatch(rig.node.sftpPort, login, ["-rename a/b/link link", "-rename a/b/c c", "rename a/b/c/deep a/b/c/deep2"]);
    expect(result.code).toBe(0);
    expect(result.err.match(/Permission denied/g)?.length).toBe(2);
    const { "a/b/c/deep": deep, ...rest } = before;
    expect(fileTree(root)).toEqual({ ...rest, "a/b/c/deep2": deep! });
  }, 60_000);
});
