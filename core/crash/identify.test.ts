// Each recorded crash log (test/fixtures/crash: the text the JVM, Minecraft, Paper, Fabric Loader,
// Forge, NeoForge, the dynamic linker and Node.js print) is named by its cause, with the detail the
// message needs and the line that showed it; a crash nothing in the table explains is unrecognised
// and keeps its last lines.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RE2JS } from "re2js";
import { CRASH_CAUSES, CRASH_CAUSE_IDS } from "./causes";
import { identify, type CrashSource } from "./identify";
import { DETAIL_SHAPES, detailShape } from "./message";

const FIXTURES = join(import.meta.dir, "../../test/fixtures/crash");
const fixture = (name: string, whole = true): CrashSource => ({ name, lines: readFileSync(join(FIXTURES, name), "utf8").split("\n"), whole });

describe("the table of causes", () => {
  test("every regular expression is RE2 syntax (the English words of each row: test/crash-cause.test.ts)", () => {
    for (const row of CRASH_CAUSES) {
      for (const pattern of row.patterns) if (pattern instanceof RegExp) expect(() => RE2JS.compile(pattern.source)).not.toThrow();
    }
    expect(CRASH_CAUSES.map((row) => row.id)).toEqual([...CRASH_CAUSE_IDS]);
  });
});

describe("recorded crash logs", () => {
  const cases: [string, string, Record<string, string | number> | undefined, number][] = [
    ["paper-heap-oom.log", "outOfMemory", { kind: "Java heap space" }, 6],
    ["hs_err_pid4242.log", "outOfMemory", undefined, 2],
    ["unsupported-class-version.txt", "javaVersion", { needs: 21, runs: 17 }, 2],
    ["paper-unsupported-java.txt", "javaVersion", { needs: 21, runs: 17 }, 1],
    ["vanilla-port-bind.log", "portInUse", undefined, 6],
    ["node-eaddrinuse.txt", "portInUse", { port: 27015 }, 5],
    ["eula.log", "eulaNotAccepted", undefined, 4],
    ["fabric-missing-dependency.log", "modDependency", { mod: "sodium", dependency: "fabric-api" }, 7],
    ["forge-missing-dependency.log", "modDependency", { mod: "roughlyenoughitems", dependency: "architectury" }, 3],
    ["neoforge-fabric-mod.log", "modWrongLoader", { file: "sodium-fabric-0.5.8+mc1.20.4.jar", loader: "Fabric" }, 2],
    ["corrupt-jar.txt", "corruptFile", { file: "server.jar" }, 1],
    ["region-truncated.log", "corruptFile", { file: "world/region/r.0.-1.mca" }, 2],
    ["shared-library.txt", "missingLibrary", { library: "libtinfo.so.5" }, 2],
    ["access-denied.log", "permissionDenied", { path: "./world/session.lock" }, 4],
  ];
  for (const [name, cause, detail, line] of cases) {
    test(`${name}: ${cause}`, () => {
      const found = identify([fixture(name)]);
      expect(found.cause as string).toBe(cause);
      expect(found.detail).toEqual(detail);
      expect(found.where).toEqual({ source: name, line });
      expect(found.excerpt).toHaveLength(1);
      // Its detail has a shape the locale files word, so the message carries it.
      if (detail) expect(DETAIL_SHAPES[cause]).toContain(detailShape(found.detail!));
    });
  }

  test("a crash report the table does not explain is unrecognised, with its last lines", () => {
    const found = identify([{ name: "console", lines: ["[13:40:02] [Server thread/ERROR]: Encountered an unexpected exception", ""], whole: false }, fixture("crash-2024-03-02_13.40.02-server.txt")]);
    expect(found.cause).toBe("unrecognised");
    expect(found.where).toBeUndefined();
    expect(found.excerpt).toEqual(["[13:40:02] [Server thread/ERROR]: Encountered an unexpected exception"]);
  });

  test("a source read from its end counts lines back from the end; the table's order wins over the sources' order", () => {
    const console: CrashSource = { name: "console", lines: ["Permission denied", "x", "y"], whole: false };
    const found = identify([console, fixture("paper-heap-oom.log")]);
    expect(found.cause).toBe("outOfMemory");
    expect(identify([console]).where).toEqual({ source: "console", fromEnd: 3 });
  });
});
