// Files a server's own process names: made by a real child process (Bun writing Buffer paths, as
// a game or a plugin writes any bytes a Linux name may hold), never by the test's own fs calls.

/** An entry to make, its path's bytes relative to the folder (a string is its UTF-8). */
export interface NamedEntry {
  path: Uint8Array | string;
  /** the file's content; a folder when absent (and no link) */
  content?: string;
  /** a symbolic link's text, its bytes (a string is its UTF-8) */
  link?: Uint8Array | string;
}

const SCRIPT = `
const fs = require("node:fs");
for (const { path, content, link } of JSON.parse(fs.readFileSync(0, "utf8"))) {
  const name = Buffer.from(path, "hex");
  if (link !== undefined) fs.symlinkSync(Buffer.from(link, "hex"), name);
  else if (content === undefined) fs.mkdirSync(name);
  else fs.writeFileSync(name, content);
}`;

/** Makes the entries, in order, in `folder` by a child process whose working folder it is. */
export async function writeAsProcess(folder: string, entries: NamedEntry[]): Promise<void> {
  const hex = (bytes: Uint8Array | string) => Buffer.from(typeof bytes === "string" ? Buffer.from(bytes) : bytes).toString("hex");
  const list = entries.map(({ path, content, link }) => ({ path: hex(path), content, link: link === undefined ? undefined : hex(link) }));
  const child = Bun.spawn([process.execPath, "-e", SCRIPT], { cwd: folder, stdin: Buffer.from(JSON.stringify(list)), stdout: "ignore", stderr: "pipe" });
  if ((await child.exited) !== 0) throw new Error(`the process failed: ${await new Response(child.stderr).text()}`);
}

/** Names a server's process can give: not UTF-8 (a folder, two files alike but for one byte), and one holding a line break. */
export const ODD_NAMES = {
  folder: Buffer.from([0x6f, 0x6c, 0x64, 0xe9]), // "old\xE9"
  ff: Buffer.from([0x66, 0xff, 0x2e, 0x64, 0x61, 0x74]), // "f\xFF.dat"
  fe: Buffer.from([0x66, 0xfe, 0x2e, 0x64, 0x61, 0x74]), // "f\xFE.dat"
  line: "line\nfolder",
};

/** A path of such names, as bytes: the parts joined by "/". */
export const bytesPath = (...parts: Array<Buffer | string>): Buffer => Buffer.concat(parts.flatMap((part, i) => (i ? [Buffer.from("/"), Buffer.from(part)] : [Buffer.from(part)])));
