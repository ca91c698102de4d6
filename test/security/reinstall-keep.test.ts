// Attack: keeping changed files through a reinstall moves entries out of a server's folder and
// back. Links pointing out of the folder (planted as a server process or an SFTP user would) must
// never be followed: not when the changes are listed, not when entries are moved aside, and not
// when they are put back after an install that swapped a kept file's folder for a link out.
// Every marker outside keeps its content and place; nothing new appears beside it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, type TestNode } from "../helpers/node";
import { tempDir } from "../helpers/process";

let t: TestNode;
let outside = "";
beforeAll(async () => {
  t = await startTestNode({ stopTimeoutMs: 1500 });
  outside = tempDir("kiln-outside-");
  writeFileSync(join(outside, "secret.txt"), "host secret");
  mkdirSync(join(outside, "dir"));
  writeFileSync(join(outside, "dir", "inner.txt"), "inner");
});
afterAll(() => t.stop());

const folder = (id: string) => t.folder(id);

function expectOutsideUntouched(): void {
  expect(readFileSync(join(outside, "secret.txt"), "utf8")).toBe("host secret");
  expect(readFileSync(join(outside, "dir", "inner.txt"), "utf8")).toBe("inner");
  expect(readdirSync(outside).sort()).toEqual(["dir", "secret.txt"]);
  expect(readdirSync(join(outside, "dir"))).toEqual(["inner.txt"]);
}

describe("keeping changed files through a reinstall", () => {
  test("links out are listed and moved as links, never followed", async () => {
    expect((await t.call("PUT", "/daemon/server/links1", echoTemplate())).status).toBe(201);
    expect((await t.call("POST", "/daemon/server/links1/install?wait=true")).status).toBe(204);
    symlinkSync(join(outside, "secret.txt"), join(folder("links1"), "cfg.txt"));
    symlinkSync(join(outside, "dir"), join(folder("links1"), "world"));
    const changes = await t.json("GET", "/daemon/server/links1/install/changes");
    expect(changes.paths.sort()).toEqual(["cfg.txt", "world"]);
    expect(JSON.stringify(changes)).not.toContain("inner.txt");
    expect(JSON.stringify(changes)).not.toContain(outside);
    expect((await t.call("POST", "/daemon/server/links1/install?wait=true")).status).toBe(204);
    expectOutsideUntouched();
    // The links came back as links.
    expect(readdirSync(folder("links1")).sort()).toEqual(["cfg.txt", "motd.txt", "world"]);
  });

  test("an install that swaps a kept file's folder for a link out cannot carry the file out", async () => {
    const template = echoTemplate();
    template.install = [
      { type: "mkdir", target: "data" },
      { type: "writefile", target: "data/config.txt", text: "install's" },
      // On the reinstall (data/config.txt kept aside), the folder becomes a link out.
      { type: "command", commands: [`sh -c 'if [ -e data/first ]; then rm -rf data && ln -s ${outside}/dir data; else touch data/first; fi'`] },
    ];
    expect((await t.call("PUT", "/daemon/server/links2", template)).status).toBe(201);
    expect((await t.call("POST", "/daemon/server/links2/install?wait=true")).status).toBe(204);
    writeFileSync(join(folder("links2"), "data", "config.txt"), "host's own");
    await t.call("POST", "/daemon/server/links2/install?wait=true");
    expectOutsideUntouched();
    expect(existsSync(join(outside, "dir", "config.txt"))).toBe(false);
    const text = ((await t.json("GET", "/daemon/server/links2/console")).logs as string[]).join("");
    expect(text).toContain("data/config.txt could not be put back after the install");
  });
});
