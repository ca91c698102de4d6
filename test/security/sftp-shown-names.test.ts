// Attack: a server's process names a file so that an SFTP client's listing lies. READDIR answers
// each entry with its name (exact: what the client acts by) and an `ls -l` line (longname) that
// clients print as it is. The name was put into that line as written: a line break made one
// entry print as two (a forged line for a file that is not there), a terminal escape (ESC [)
// reached the user's terminal, a right-to-left override turned "raj.txt" around, and bytes that
// are not UTF-8 went as the private-use characters of their wire form. The line shows the name
// as the file manager does (core/files/shown-name); the name itself is unchanged.
import { expect, test } from "bun:test";
import type { FileEntry } from "ssh2";
import { nameFromBytes } from "../../core/files/raw-name";
import { writeAsProcess } from "../helpers/process-names";
import { call, ssh2Sftp } from "../helpers/ssh2-client";
import { hasSftpClient, sftpServerForFile, type SftpServer } from "../helpers/sftp";

let made: SftpServer | undefined;
sftpServerForFile("sftp shown names", "shownnames", (server) => {
  made = server;
});

const FORGED = "a\n-rw-r--r--   1 0        0               1 Jan  1 00:00 server.jar";
const TERMINAL = "b\u001b[2J\u001b[31mred";
const OVERRIDE = "evil\u202Eraj.txt";
const RAW = Buffer.from([0x63, 0xff]);

test.skipIf(!hasSftpClient())("an SFTP listing's ls -l lines show names escaped; the names stay exact", async () => {
  const { rig, id, root, login } = made!;
  await writeAsProcess(root, [FORGED, TERMINAL, OVERRIDE, RAW].map((path) => ({ path, content: "x" })));
  const { client, sftp } = await ssh2Sftp(rig.node.sftpPort, { ...login, serverId: id });
  try {
    const handle = await call<Buffer>((cb) => sftp.opendir("/", cb));
    const entries: FileEntry[] = [];
    for (;;) {
      const page = await call<FileEntry[] | false>((cb) => sftp.readdir(handle, cb)).catch(() => false as const);
      if (!page) break;
      entries.push(...page);
    }
    const line = (name: string) => entries.find((entry) => entry.filename === name)?.longname;
    // The names themselves are exact: what the client renames, reads or deletes by.
    for (const name of [FORGED, TERMINAL, OVERRIDE, nameFromBytes(RAW)]) expect(line(name)).toBeDefined();
    expect(line(FORGED)).toEndWith(" a\\n-rw-r--r--   1 0        0               1 Jan  1 00:00 server.jar");
    expect(line(TERMINAL)).toEndWith(" b\\u001B[2J\\u001B[31mred");
    expect(line(OVERRIDE)).toEndWith(" evil\\u202Eraj.txt");
    expect(line(nameFromBytes(RAW))).toEndWith(" c\\xFF");
  } finally {
    client.end();
  }
}, 30_000);
