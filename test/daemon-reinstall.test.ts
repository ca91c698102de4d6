// Reinstalling a server that has files: what the host changed since the last install is kept
// (the install's own version skipped, or written beside it when the template says "beside"),
// keepChanged=false overwrites as before, a running server is started again afterwards, and a
// node that stopped half way puts the kept files back when it starts. A real node, real files.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";
import type { TemplateInput } from "../core/definition";
import { InstallRecord } from "../daemon/servers/install-record";
import { Jail } from "../daemon/files/jail";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode({ stopTimeoutMs: 1500 });
});
afterAll(() => t.stop());

const folder = (id: string) => t.folder(id);
const read = (id: string, path: string) => readFileSync(join(folder(id), path), "utf8");
const consoleText = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

/** The echo server, whose install also writes a config file and a "server.jar" that names the version. */
function template(extra: Partial<TemplateInput> = {}): TemplateInput {
  const base = echoTemplate();
  return {
    ...base,
    install: [
      { type: "writefile", target: "config.txt", text: "motd=${greeting}" },
      { type: "writefile", target: "server.jar", text: "jar ${version}" },
      { type: "writefile", target: "motd.txt", text: "hello ${greeting}" },
    ],
    data: { ...base.data, version: { display: "Version", desc: "", type: "string", value: "1", required: true, userEdit: true } },
    ...extra,
  };
}

async function installed(id: string, definition = template()): Promise<void> {
  expect((await t.call("PUT", `/daemon/server/${id}`, definition)).status).toBe(201);
  expect((await t.call("POST", `/daemon/server/${id}/install?wait=true`)).status).toBe(204);
}

/** What the host does between installs: edits the config, and the game makes a world. */
function hostChanges(id: string): void {
  writeFileSync(join(folder(id), "config.txt"), "motd=my own, edited by hand\n");
  mkdirSync(join(folder(id), "world", "region"), { recursive: true });
  writeFileSync(join(folder(id), "world", "region", "r.0.0.mca"), "blocks");
}

describe("a reinstall", () => {
  test("lists what it would keep: the edited file, and a folder the install did not make as one entry", async () => {
    await installed("keep1");
    const before = await t.json("GET", "/daemon/server/keep1/install/changes");
    expect(before).toEqual({ recorded: true, paths: [], count: 0, mode: "skip" });
    hostChanges("keep1");
    const after = await t.json("GET", "/daemon/server/keep1/install/changes");
    expect(after.recorded).toBe(true);
    expect(after.paths.sort()).toEqual(["config.txt", "world"]);
    expect(after.count).toBe(2);
  });

  test("keeps the host's changes by default; files the host did not change take the install's new version", async () => {
    hostChanges("keep1");
    expect((await t.call("POST", "/daemon/server/keep1/data", { data: { version: "2" } })).status).toBe(204);
    expect((await t.call("POST", "/daemon/server/keep1/install?wait=true")).status).toBe(204);
    expect(read("keep1", "config.txt")).toBe("motd=my own, edited by hand\n");
    expect(read("keep1", "world/region/r.0.0.mca")).toBe("blocks");
    expect(read("keep1", "server.jar")).toBe("jar 2");
    expect(existsSync(join(folder("keep1"), "config.txt.kiln-new"))).toBe(false);
    const text = await consoleText("keep1");
    expect(text).toContain("[kiln] keeping 2 files changed since the last install: ");
    expect(text).toContain("[kiln] kept 2 changed files; the install's own versions of them were not written");
    // Still changes for the next reinstall: the record is of what the install wrote.
    expect((await t.json("GET", "/daemon/server/keep1/install/changes")).paths.sort()).toEqual(["config.txt", "world"]);
  });

  test("keepChanged=false overwrites them with the install's version (files it does not write stay)", async () => {
    expect((await t.call("POST", "/daemon/server/keep1/install?wait=true&keepChanged=false")).status).toBe(204);
    expect(read("keep1", "config.txt")).toBe("motd=world");
    expect(read("keep1", "world/region/r.0.0.mca")).toBe("blocks");
    // The record is of the folder as this install left it, the world included: nothing has changed since.
    expect((await t.json("GET", "/daemon/server/keep1/install/changes")).paths).toEqual([]);
  });

  test("a template with changedFiles \"beside\" writes the install's version next to the kept file", async () => {
    await installed("beside1", template({ changedFiles: "beside" }));
    hostChanges("beside1");
    expect((await t.call("POST", "/daemon/server/beside1/install?wait=true")).status).toBe(204);
    expect(read("beside1", "config.txt")).toBe("motd=my own, edited by hand\n");
    expect(read("beside1", "config.txt.kiln-new")).toBe("motd=world");
    expect(await consoleText("beside1")).toContain("their versions from this install are beside them, named with .kiln-new");
  });

  test("the socket's install message takes keepChanged beside its type", async () => {
    hostChanges("beside1");
    const socket = await t.socket("beside1");
    try {
      socket.send("install", { keepChanged: false });
      await eventually(() => read("beside1", "config.txt") === "motd=world", 10_000, "the overwriting install");
    } finally {
      socket.close();
    }
  });

  test("a running server is stopped for the install and started again afterwards", async () => {
    await installed("running1");
    expect((await t.call("POST", "/daemon/server/running1/start?wait=true")).status).toBe(204);
    hostChanges("running1");
    expect((await t.call("POST", "/daemon/server/running1/install?wait=true")).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/running1/status")).running).toBe(true);
    const text = await consoleText("running1");
    expect(text.lastIndexOf("[kiln] starting the server")).toBeGreaterThan(text.lastIndexOf("[kiln] installation finished"));
    expect(read("running1", "config.txt")).toBe("motd=my own, edited by hand\n");
    expect((await t.call("POST", "/daemon/server/running1/stop?wait=true")).status).toBe(204);
  });

  test("a stopped server stays stopped after its install", async () => {
    expect((await t.call("POST", "/daemon/server/running1/install?wait=true")).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/running1/status")).running).toBe(false);
  });

  test("without a record of the last install, everything in the folder counts as changed", async () => {
    await installed("old1");
    // A server installed before the node kept records.
    new InstallRecord(join(t.config.dataDir, "servers", ".install"), "old1").remove();
    const changes = await t.json("GET", "/daemon/server/old1/install/changes");
    expect(changes.recorded).toBe(false);
    expect(changes.paths.sort()).toEqual(["config.txt", "motd.txt", "server.jar"]);
  });

  test("files kept aside when the node stopped half way are put back when it starts again", async () => {
    await installed("crash1");
    hostChanges("crash1");
    const record = new InstallRecord(join(t.config.dataDir, "servers", ".install"), "crash1");
    record.keepAside(new Jail(folder("crash1")), ["config.txt", "world"]);
    expect(existsSync(join(folder("crash1"), "config.txt"))).toBe(false);
    t = await t.restart();
    expect(read("crash1", "config.txt")).toBe("motd=my own, edited by hand\n");
    expect(read("crash1", "world/region/r.0.0.mca")).toBe("blocks");
    expect(readdirSync(join(t.config.dataDir, "servers", ".install")).includes("crash1.kept")).toBe(false);
  });

  test("the disk figure is measured again when an install ends, not a minute later", async () => {
    const big = template({ install: [{ type: "command", commands: ["sh -c 'head -c 3000000 /dev/zero > big.bin'"] }] });
    expect((await t.call("PUT", "/daemon/server/disk1", big)).status).toBe(201);
    // A first figure of the empty folder.
    await eventually(async () => (await t.json("GET", "/daemon/server/disk1/stats")).disk !== null, 5000, "a first disk figure");
    expect((await t.json("GET", "/daemon/server/disk1/stats")).disk).toBeLessThan(100_000);
    expect((await t.call("POST", "/daemon/server/disk1/install?wait=true")).status).toBe(204);
    expect((await t.json("GET", "/daemon/server/disk1/stats")).disk).toBeGreaterThanOrEqual(3_000_000);
  });

  test("deleting the server removes its record", async () => {
    expect((await t.call("DELETE", "/daemon/server/crash1")).status).toBe(204);
    expect(readdirSync(join(t.config.dataDir, "servers", ".install")).some((name) => name.startsWith("crash1"))).toBe(false);
  });
});
