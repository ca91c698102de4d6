// alterfile, writefile, move and mkdir against a real server folder, including jail escapes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stepSchema } from "../../core/definition/steps";
import { KilnError } from "../../core/errors";
import { runStep } from "./index";
import { startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

const run = (t: ReturnType<FixtureSources["context"]>, raw: unknown) => runStep(stepSchema.parse(raw), t.ctx);
const read = (path: string) => readFileSync(path, "utf8");

describe("alterfile", () => {
  test("regex is on by default: a global JavaScript replace with groups", async () => {
    const t = fixtures.context();
    writeFileSync(join(t.root, "server.properties"), "server-port=25565\nquery.port=25565\nmotd=hi\n");
    await run(t, { type: "alterfile", file: "server.properties", search: "(port)=\\d+", replace: "$1=25600" });
    expect(read(join(t.root, "server.properties"))).toBe("server-port=25600\nquery.port=25600\nmotd=hi\n");
  });

  test("the look-around forms Kiln's own templates once wrote still run, on RE2: add a missing key, replace after a prefix", async () => {
    const t = fixtures.context();
    // The steps of minecraft-vanilla and 7-days-to-die as servers made before RE2 hold them.
    const addPort = { type: "alterfile", file: "server.properties", search: "^(?![\\s\\S]*(?:^|\\n)server-port=)", replace: "server-port=25600\n" };
    const setPort = { type: "alterfile", file: "server.properties", search: "(^|\\n)server-port=[^\\r\\n]*", replace: "$1server-port=25600" };
    writeFileSync(join(t.root, "server.properties"), "motd=hi\n");
    for (const step of [addPort, setPort, addPort, setPort]) await run(t, step);
    expect(read(join(t.root, "server.properties"))).toBe("server-port=25600\nmotd=hi\n");
    writeFileSync(join(t.root, "server.properties"), "motd=hi\nserver-port=1\n");
    for (const step of [addPort, setPort]) await run(t, step);
    expect(read(join(t.root, "server.properties"))).toBe("motd=hi\nserver-port=25600\n");
    writeFileSync(join(t.root, "serverconfig.xml"), '<property name="ServerPort"\t\t\tvalue="26900"/>\n<property name="ServerName" value="x"/>\n');
    await run(t, { type: "alterfile", file: "serverconfig.xml", search: '(?<=<property\\s+name="ServerPort"\\s+value=")[^"]*', replace: "26950" });
    expect(read(join(t.root, "serverconfig.xml"))).toBe('<property name="ServerPort"\t\t\tvalue="26950"/>\n<property name="ServerName" value="x"/>\n');
    // Other look-around is refused, the file untouched.
    await expect(run(t, { type: "alterfile", file: "serverconfig.xml", search: "x(?=y)", replace: "z" })).rejects.toThrow("look-ahead and look-behind are not supported");
  });

  test("regex false replaces the text literally, everywhere, $ patterns included", async () => {
    const t = fixtures.context();
    writeFileSync(join(t.root, "a.cfg"), "price=(.*)\nprice=(.*)\n");
    await run(t, { type: "alterfile", file: "a.cfg", regex: false, search: "(.*)", replace: "$& $1" });
    expect(read(join(t.root, "a.cfg"))).toBe("price=$& $1\nprice=$& $1\n");
  });

  test("keeps the file's mode, leaves no temporary file, and edits the file a link leads to", async () => {
    const t = fixtures.context();
    writeFileSync(join(t.root, "run.sh"), "echo old\n", { mode: 0o750 });
    symlinkSync("run.sh", join(t.root, "start.sh"));
    await run(t, { type: "alterfile", file: "start.sh", search: "old", replace: "new" });
    expect(read(join(t.root, "run.sh"))).toBe("echo new\n");
    expect(statSync(join(t.root, "run.sh")).mode & 0o777).toBe(0o750);
    expect(lstatSync(join(t.root, "start.sh")).isSymbolicLink()).toBe(true);
    expect(readdirSync(t.root).sort()).toEqual(["run.sh", "start.sh"]);
  });

  test("a missing file, a bad pattern and an empty search fail clearly", async () => {
    const t = fixtures.context();
    writeFileSync(join(t.root, "x.txt"), "x");
    await expect(run(t, { type: "alterfile", file: "nope.txt", search: "a" })).rejects.toThrow("file not found: nope.txt");
    await expect(run(t, { type: "alterfile", file: "x.txt", search: "(" })).rejects.toThrow("invalid regular expression (");
    await expect(run(t, { type: "alterfile", file: "x.txt", search: "" })).rejects.toThrow("alterfile needs something to search for");
  });
});

describe("writefile, move, mkdir", () => {
  test("writefile creates folders and replaces an existing file", async () => {
    const t = fixtures.context();
    await run(t, { type: "writefile", target: "config/eula.txt", text: "eula=false\n" });
    await run(t, { type: "writefile", target: "config/eula.txt", text: "eula=true\n" });
    expect(read(join(t.root, "config/eula.txt"))).toBe("eula=true\n");
    expect(readdirSync(join(t.root, "config"))).toEqual(["eula.txt"]);
  });

  test("move renames, moves into an existing folder, and refuses a missing source", async () => {
    const t = fixtures.context();
    writeFileSync(join(t.root, "forge-installer.jar"), "jar");
    mkdirSync(join(t.root, "libraries"));
    await run(t, { type: "move", source: "forge-installer.jar", target: "installer.jar" });
    await run(t, { type: "move", source: "installer.jar", target: "libraries" });
    expect(read(join(t.root, "libraries/installer.jar"))).toBe("jar");
    await expect(run(t, { type: "move", source: "gone.jar", target: "x.jar" })).rejects.toThrow("nothing to move at gone.jar");
  });

  test("mkdir creates nested folders and accepts an existing one", async () => {
    const t = fixtures.context();
    await run(t, { type: "mkdir", target: "world/region" });
    await run(t, { type: "mkdir", target: "world" });
    expect(statSync(join(t.root, "world/region")).isDirectory()).toBe(true);
  });
});

describe("paths outside the server's folder are refused and nothing outside changes", () => {
  const escapes = ["../x", "/etc/passwd", "link-out/x"];
  const stepsFor = (path: string) => [
    { type: "alterfile", file: path, search: "a", replace: "b" },
    { type: "writefile", target: path, text: "pwned" },
    { type: "move", source: path, target: "moved" },
    { type: "move", source: "inside.txt", target: path },
    { type: "mkdir", target: path },
  ];

  for (const path of escapes) {
    test(path, async () => {
      const t = fixtures.context();
      const outside = fixtures.tempDir("outside");
      writeFileSync(join(outside, "x"), "a secret");
      symlinkSync(outside, join(t.root, "link-out"));
      writeFileSync(join(t.root, "inside.txt"), "inside");
      // "../x" from the server folder: give it a real neighbour to (fail to) touch.
      writeFileSync(join(t.root, "..", "x"), "a neighbour");
      for (const step of stepsFor(path)) {
        const error = await run(t, step).then(() => undefined, (e: unknown) => e);
        expect(error).toBeInstanceOf(KilnError);
        expect((error as KilnError).code).toBe("ErrPathOutside");
      }
      expect(read(join(outside, "x"))).toBe("a secret");
      expect(readdirSync(outside)).toEqual(["x"]);
      expect(read(join(t.root, "..", "x"))).toBe("a neighbour");
      expect(read(join(t.root, "inside.txt"))).toBe("inside");
      expect(existsSync(join(t.root, "moved"))).toBe(false);
      expect(read("/etc/passwd")).not.toContain("pwned");
    });
  }

  test("writing onto a link that points outside is refused", async () => {
    const t = fixtures.context();
    const outside = fixtures.tempDir("outside");
    writeFileSync(join(outside, "target.txt"), "untouched");
    symlinkSync(join(outside, "target.txt"), join(t.root, "eula.txt"));
    await expect(run(t, { type: "writefile", target: "eula.txt", text: "pwned" })).rejects.toThrow("outside the server's folder");
    await expect(run(t, { type: "alterfile", file: "eula.txt", search: "untouched", replace: "pwned" })).rejects.toThrow("outside");
    expect(read(join(outside, "target.txt"))).toBe("untouched");
  });
});
