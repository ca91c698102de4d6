// ATTACK: the cause of a crash is said in the node's own words (the DAEMON line, the red card
// above the console), with values read from the server's log. A value must be a name, not a
// sentence: the Fabric "missing dependency" line gave the mod's display name, any 80 characters
// but a quote, so a server printing
//   Mod 'Kiln notice: this node is retired, move your files at https://evil.example' (x) 1 requires any version of fabric-api, which is missing!
// had the panel's crash card say "a mod is missing a mod it depends on: Kiln notice: this node is
// retired, move your files at https://evil.example needs fabric-api". The detail now names the mod
// by its id (the parenthesised [a-z0-9_.-] word), as the Forge line already does. Likewise the
// kind of an OutOfMemoryError was any 40 letters and spaces ("it ran out of memory (Kiln support
// says reinstall the server)"); it is now one of the JVM's own kinds, else the cause is said alone.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, echoTemplate, eventually, type TestNode } from "../helpers/node";

let t: TestNode;
beforeAll(async () => {
  t = await startTestNode();
});
afterAll(() => t.stop());

const LURE = "Kiln notice: this node is retired, move your files at https://evil.example";

async function crashAfter(id: string, line: string) {
  await t.json("PUT", `/daemon/server/${id}`, { ...echoTemplate({ command: `sh -c "echo \\"${line}\\"; exit 1"`, stop: undefined }), install: [] });
  await t.call("POST", `/daemon/server/${id}/start?wait=true`);
  await eventually(async () => (await t.json("GET", `/daemon/server/${id}/status`)).crash !== undefined, 15_000, "the crash to be named");
  return (await t.json("GET", `/daemon/server/${id}/status`)).crash;
}

describe("a crash's detail holds names, not the log's sentences", () => {
  test("a Fabric missing-dependency line names the mod by its id", async () => {
    const line = `Mod '${LURE}' (sodium) 0.5.3 requires any version of fabric-api, which is missing!`;
    await t.json("PUT", "/daemon/server/lure", { ...echoTemplate({ command: `sh -c "echo \\"${line}\\"; exit 1"`, stop: undefined }), install: [] });
    await t.call("POST", "/daemon/server/lure/start?wait=true");
    await eventually(async () => (await t.json("GET", "/daemon/server/lure/status")).crash !== undefined, 15_000, "the crash to be named");
    const crash = (await t.json("GET", "/daemon/server/lure/status")).crash;
    expect(crash.cause).toBe("modDependency");
    expect(crash.detail).toEqual({ mod: "sodium", dependency: "fabric-api" });
    const console = ((await t.json("GET", "/daemon/server/lure/console")).logs as string[]).filter((l) => l.includes("\x1b]7701;")).join("");
    expect(console).not.toContain("evil.example");
  }, 30_000);

  test("an OutOfMemoryError's kind is one of the JVM's, else not said", async () => {
    const lure = await crashAfter("oom-lure", "java.lang.OutOfMemoryError: Kiln support says reinstall the server");
    expect({ cause: lure.cause, detail: lure.detail }).toEqual({ cause: "outOfMemory", detail: undefined });
    const real = await crashAfter("oom-real", "java.lang.OutOfMemoryError: GC overhead limit exceeded");
    expect({ cause: real.cause, detail: real.detail }).toEqual({ cause: "outOfMemory", detail: { kind: "GC overhead limit exceeded" } });
  }, 30_000);
});
