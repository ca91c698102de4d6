// Attack: a server's process (or a user by SFTP) names a .jar in plugins/ so that the add-ons list
// leaves it out: bytes that are not UTF-8, a line break, a bidi override, a hidden name, a name
// past the characters Kiln gives downloads. The game loads every .jar there whatever its name, so
// the owner could neither see nor remove a plugin it runs. Each is now listed by its wire name
// (core/files/raw-name) and disabled, enabled and removed as that exact file; names that climb out
// or are not jars are still refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { hasRestic } from "../helpers/require-part";
import { writeAsProcess } from "../helpers/process-names";
import { nameFromBytes } from "../../core/files/raw-name";
import type { ChangeStatus } from "../../core/mods/change";

const resticHere = hasRestic();
let t: TestNode;
const ID = "odd-plugins";

beforeAll(async () => {
  if (!resticHere) return;
  t = await startTestNode({ stopTimeoutMs: 2000 });
  expect((await t.call("PUT", `/daemon/server/${ID}`, echoTemplate())).status).toBe(201);
});
afterAll(() => t?.stop());

const RAW = Buffer.concat([Buffer.from("evil"), Buffer.from([0xff, 0xe9]), Buffer.from(".jar")]);
const NAMES: Array<Buffer | string> = [RAW, "line\nbreak.jar", "spaced\u202Egnp.jar", ".hidden.jar", "café plugin ~ v2!.jar", "plain.jar"];
const wire = (name: Buffer | string) => (typeof name === "string" ? name : nameFromBytes(name));
const onDisk = () => readdirSync(join(t.folder(ID), "plugins"), { encoding: "buffer" }).map((name) => name.toString("hex")).sort();
const hex = (name: Buffer | string) => Buffer.from(name).toString("hex");

async function change(body: unknown): Promise<ChangeStatus> {
  const started = await t.call("POST", `/daemon/server/${ID}/mods/changes`, body);
  const answer = await started.json();
  expect([started.status, answer.error?.code]).toEqual([202, undefined]);
  let status!: ChangeStatus;
  await eventually(async () => (status = await t.json("GET", `/daemon/server/${ID}/mods/changes/${answer.changeId}`)).state !== "running", 30_000, "the change to end");
  return status;
}

describe.skipIf(!resticHere)("plugins a server's process named", () => {
  test("every .jar is listed by its wire name, and disabled, enabled and removed as that exact file", async () => {
    await writeAsProcess(t.folder(ID), [{ path: "plugins" }, ...NAMES.map((name) => ({ path: Buffer.concat([Buffer.from("plugins/"), Buffer.from(name)]), content: `bytes of ${hex(name)}` })), { path: "plugins/notes.txt", content: "not a jar" }]);
    const listed = async () => ((await t.json("GET", `/daemon/server/${ID}/mods/installed?folder=plugins`)) as { files: { fileName: string; enabled: boolean }[] }).files;
    expect((await listed()).map((f) => f.fileName).sort()).toEqual(NAMES.map(wire).sort());

    const disabled = await change({ folder: "plugins", disable: [wire(RAW), "line\nbreak.jar"] });
    expect(disabled).toMatchObject({ state: "done", disabled: [wire(RAW), "line\nbreak.jar"] });
    expect(onDisk()).toContain(hex(Buffer.concat([RAW, Buffer.from(".disabled")])));
    expect(onDisk()).toContain(hex("line\nbreak.jar.disabled"));
    expect((await listed()).find((f) => f.fileName === wire(RAW))?.enabled).toBe(false);

    expect(await change({ folder: "plugins", enable: [wire(RAW)] })).toMatchObject({ state: "done" });
    expect(onDisk()).toContain(hex(RAW));

    expect(await change({ folder: "plugins", remove: [wire(RAW), "spaced\u202Egnp.jar", "line\nbreak.jar"] })).toMatchObject({ state: "done" });
    expect(onDisk()).toEqual([".hidden.jar", "café plugin ~ v2!.jar", "notes.txt", "plain.jar"].map(hex).sort());
  }, 120_000);

  test("names that are not one .jar in the folder are still refused", async () => {
    for (const name of ["../kept.jar", "a/b.jar", "notes.txt", ".jar", "x.jar.disabled", "\uEFC3\uEFA9.jar", `${"\uEFFF".repeat(247)}.jar`]) {
      const refused = await t.call("POST", `/daemon/server/${ID}/mods/changes`, { folder: "plugins", remove: [name] });
      expect([name, refused.status]).toEqual([name, 400]);
    }
  });
});
