// Attack: changing the mode of the server's folder itself. The file manager's chmod refused the
// path "" but followed a link to the folder (`here -> .`), and SFTP's SETSTAT had no such rule at
// all: `chmod 777 .` with the real sftp client opened the folder to every user of the host. One
// rule now judges the opened folder, however it is named; every attempt is refused and the
// folder's mode stays what the node set. Modes inside the folder still change.
import { describe, expect, test } from "bun:test";
import { chmodSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { errorOf } from "../helpers/refusal";
import { hasSftpClient, sftpBatch, sftpServerForFile, type SftpRig, type SftpServer } from "../helpers/sftp";

let rig: SftpRig;
let id = "";
let root = "";
let login: SftpServer["login"];

sftpServerForFile("root mode", "modeuser", (server) => {
  ({ rig, id, root, login } = server);
  chmodSync(root, 0o750);
  symlinkSync(".", join(root, "here"));
  writeFileSync(join(root, "inside.txt"), "x", { mode: 0o644 });
});

const modeOf = (path: string) => statSync(path).mode & 0o7777;

describe.skipIf(!hasSftpClient())("the server's folder keeps its mode", () => {
  test("SFTP: chmod of '.', '/' and a link to the folder is refused; a file inside still changes", async () => {
    const result = await sftpBatch(rig.node.sftpPort, login, ["-chmod 777 .", "-chmod 777 /", "-chmod 777 here", "chmod 600 inside.txt"]);
    expect(result.code).toBe(0);
    expect(result.err.match(/Permission denied/g)?.length).toBe(3);
    expect(modeOf(root)).toBe(0o750);
    expect(modeOf(join(root, "inside.txt"))).toBe(0o600);
  }, 60_000);

  test("file manager: the folder, by its own name or through a link to it, is refused", async () => {
    for (const path of [".", "here", "here/", "here/here"]) {
      const response = await rig.daemon.call("POST", `/daemon/server/${id}/mode`, { path, mode: "777" });
      expect([path, await errorOf(response)]).toEqual([path, { status: 403, code: "ErrNoPermission" }]);
    }
    expect(modeOf(root)).toBe(0o750);
  });
});
