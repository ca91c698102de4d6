// Attack: a server's process makes a backup unrestorable by naming a file with bytes that are not
// UTF-8. restic keeps such a name; the restored tree was then handed to the server's user by names
// read as text, the odd one reached nothing, and the whole restore failed: the owner's backups
// were all useless while the file was in them. The restore must bring it back, byte for byte.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, linkSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tempDir } from "../helpers/process";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { writeAsProcess } from "../helpers/process-names";
import { hasRestic } from "../helpers/require-part";

const resticHere = hasRestic();
let ctx: PanelWithNode;
let id = "";
let folder = "";

const FOLDER = Buffer.from([0x6f, 0x6c, 0x64, 0xe9]); // "old\xE9"
const FILE = Buffer.from([0x66, 0xff, 0x2e, 0x64, 0x61, 0x74]); // "f\xFF.dat"
const inFolder = (...parts: Buffer[]) => Buffer.concat([Buffer.from(`${folder}/`), ...parts.flatMap((part, i) => (i ? [Buffer.from("/"), part] : [part]))]);

beforeAll(async () => {
  if (!resticHere) return;
  ctx = await panelWithNode();
  id = await ctx.createServer("odd backup");
  folder = ctx.node.folder(id);
  await writeAsProcess(folder, [{ path: "world.dat", content: "the world" }, { path: FOLDER }, { path: Buffer.concat([FOLDER, Buffer.from("/"), FILE]), content: "kept by its bytes" }]);
}, 60_000);
afterAll(() => ctx?.node.stop());

describe.skipIf(!resticHere)("a backup holding names that are not UTF-8", () => {
  test("is restored whole, the odd names with their exact bytes", async () => {
    const holder = await ctx.userWith(id, { backups: true });
    const backup = (await ctx.node.json("POST", `/daemon/server/${id}/backups?wait=true`)) as { id: string };
    rmSync(inFolder(FOLDER), { recursive: true, force: true });
    writeFileSync(`${folder}/world.dat`, "changed since");
    const restored = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup.id}/restore?wait=true`, { token: holder.token, ...jsonInit("POST", {}) });
    expect([restored.status, restored.status < 300 ? "" : await restored.text()]).toEqual([expect.any(Number), ""]);
    expect(readFileSync(`${folder}/world.dat`, "utf8")).toBe("the world");
    expect(readdirSync(inFolder(FOLDER), { encoding: "buffer" }).map((name) => name.toString("hex"))).toEqual([FILE.toString("hex")]);
    expect(readFileSync(inFolder(FOLDER, FILE), "utf8")).toBe("kept by its bytes");
  }, 60_000);
});

// A restore leaves out what is not the server's own (here a hard link to a host file), by the name
// restic lists it under, which is text. Taken as a wire
// name, "x\uEF80.txt" (the bytes EE BE 80) was the raw byte 0x80: the server's own "x\x80.txt" was
// removed in its place, and the foreign file handed to the server.
describe.skipIf(!resticHere)("a backup holding a foreign file whose name is text in the escapes' range", () => {
  test("the foreign file is left out, not the server's own file its name would spell as a wire name", async () => {
    const own = Buffer.from([0x78, 0x80, 0x2e, 0x74, 0x78, 0x74]); // "x\x80.txt"
    await writeAsProcess(folder, [{ path: own, content: "the server's own" }]);
    const host = `${tempDir("kiln-odd-host-")}/host.txt`;
    writeFileSync(host, "the host's");
    linkSync(host, `${folder}/x\uEF80.txt`); // a string path: the name's UTF-8 bytes, EE BE 80 for U+EF80
    const holder = await ctx.userWith(id, { backups: true });
    const backup = (await ctx.node.json("POST", `/daemon/server/${id}/backups?wait=true`)) as { id: string };
    const restored = await ctx.panel.request(`/proxy/daemon/server/${id}/backups/${backup.id}/restore?wait=true`, { token: holder.token, ...jsonInit("POST", {}) });
    expect([restored.status, restored.status < 300 ? "" : await restored.text()]).toEqual([expect.any(Number), ""]);
    expect(existsSync(`${folder}/x\uEF80.txt`)).toBe(false);
    expect(readFileSync(host, "utf8")).toBe("the host's");
    expect(readFileSync(Buffer.concat([Buffer.from(`${folder}/`), own]), "utf8")).toBe("the server's own");
  }, 60_000);
});
