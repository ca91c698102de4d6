// The shipped templates: each file is a valid, self-consistent template, and the parts that hold
// logic (shell wrappers, regex edits of server.properties, stop signals) do what they claim when
// run by the daemon's own step processors and standard environment.
import { afterAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { checkDefinitionValues, checkTemplateScripts, commandArgv, parsePortBinding, splitCommandLine, substitute, templateSchema, type Step, type Template } from "../core/definition";
import { codeWordIndexes } from "../core/definition/command-line";
import { EXPORTED_NAME } from "../core/definition/invocation";
import { looksLikeV1Template } from "../core/definition/v1";
import { patternProblem } from "../core/patterns";
import { SHIPPED_TEMPLATES, SHIPPED_TEMPLATE_SOURCES } from ".";
import { defaults, sandbox as makeSandbox, shipped, start, waitFor } from "./test-sandbox";

const DIR = import.meta.dir;
const FILES = readdirSync(DIR).filter((f) => f.endsWith(".json")).sort();
const RAW: Record<string, Record<string, unknown>> = Object.fromEntries(
  FILES.map((f) => [f, JSON.parse(readFileSync(join(DIR, f), "utf8"))]),
);
const PARSED: Record<string, Template> = Object.fromEntries(FILES.map((f) => [f, templateSchema.parse(RAW[f])]));
const TEMPLATE_FIELDS = Object.keys(templateSchema.shape);
const ALWAYS_THERE = ["rootDir", "serverId"];
const VARIABLE_REF = /\$\{([A-Za-z0-9_.-]+)\}/g;

/** Keys of `raw` that parsing dropped, i.e. that no schema knows (zod strips them silently). */
function unknownKeys(raw: unknown, parsed: unknown, path: string): string[] {
  if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((item, i) => unknownKeys(item, parsed[i], `${path}[${i}]`));
  if (!raw || typeof raw !== "object" || !parsed || typeof parsed !== "object") return [];
  return Object.entries(raw).flatMap(([key, value]) =>
    key in parsed ? unknownKeys(value, (parsed as Record<string, unknown>)[key], `${path}.${key}`) : [`${path}.${key}`],
  );
}

function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

/** Every ${name} the daemon substitutes (install steps and the whole run section), and every "$name" a script reads from its environment. */
function references(t: Template): Set<string> {
  const substituted = strings([t.install, t.run]).flatMap((s) => [...s.matchAll(VARIABLE_REF)].map((m) => m[1]!));
  // A script's own shell variables (a loop's $archive) are not the template's.
  return new Set([...substituted, ...scriptReferences(t).filter((name) => Object.hasOwn(t.data, name))]);
}

/** Names the scripts of a template read as environment variables ($name or ${name…}). */
function scriptReferences(t: Template): string[] {
  return commandLines(t).flatMap((line) => {
    const argv = splitCommandLine(line);
    return [...codeWordIndexes(argv)].flatMap((i) => [...argv[i]!.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!));
  });
}

function commandLines(t: Template): string[] {
  const steps = [...t.install, ...t.run.pre, ...t.run.post];
  return [t.run.command as string, ...steps.flatMap((s) => (s.type === "command" ? s.commands : []))];
}

const temps: string[] = [];
function tempFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-templates-"));
  temps.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe.each(FILES)("%s", (file) => {
  const raw = RAW[file]!;
  const t = PARSED[file]!;

  test("parses, with no field the schema does not know", () => {
    expect(() => templateSchema.parse(raw)).not.toThrow();
    expect(Object.keys(raw).filter((k) => !TEMPLATE_FIELDS.includes(k))).toEqual([]);
    expect(unknownKeys(raw, t, "")).toEqual([]);
  });

  test("is named after its file, in kebab-case, and says what it is", () => {
    expect(t.name).toBe(basename(file, ".json"));
    expect(t.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(t.display).not.toBe("");
    expect(t.type).toMatch(/^[a-z0-9-]+$/);
    expect(t.type).not.toBe("other");
    expect(t.readme?.trim()).toBeTruthy();
    expect(t.id).toBeUndefined();
  });

  test("uses only declared variables, and uses every one it declares", () => {
    const used = references(t);
    const declared = Object.keys(t.data);
    expect([...used].filter((name) => !declared.includes(name) && !ALWAYS_THERE.includes(name))).toEqual([]);
    expect(declared.filter((name) => !used.has(name))).toEqual([]);
    // A variable named like a built-in would be overridden by it.
    expect(declared.filter((name) => ALWAYS_THERE.includes(name))).toEqual([]);
  });

  test("declares variables with valid names, matching values and a way to fill them in", () => {
    for (const [name, v] of Object.entries(t.data)) {
      const where = `${t.name}.${name}`;
      expect(name, where).toMatch(/^[A-Za-z0-9_.-]+$/);
      expect(v.display, where).not.toBe("");
      expect(v.desc, where).not.toBe("");
      if (v.required && !v.userEdit) expect(v.value, `${where} is required, fixed and empty`).not.toBe("");
      if (v.type === "boolean") expect(typeof v.value, where).toBe("boolean");
      if (v.type === "integer") expect(Number.isInteger(v.value), where).toBe(true);
      if (v.type === "string") expect(typeof v.value, where).toBe("string");
      if (v.type === "option") {
        expect(v.options?.length, where).toBeGreaterThan(0);
        expect(v.options!.map((o) => o.value), where).toContain(v.value);
      }
      for (const o of v.options ?? []) expect(o.display, where).not.toBe("");
    }
  });

  test("leaves the EULA to the user", () => {
    const eula = t.data.eula;
    if (!eula) return;
    expect(eula).toMatchObject({ type: "boolean", value: false, required: true, userEdit: true });
  });

  test("defaults to one of its supported environments, each offered once", () => {
    const types = t.supportedEnvironments.map((e) => e.type);
    expect(new Set(types).size).toBe(types.length);
    expect(types).toContain("standard");
    expect(t.supportedEnvironments).toContainEqual(t.environment);
    for (const env of t.supportedEnvironments) {
      if (env.type !== "docker") continue;
      expect(env.image).not.toBe("kiln/generic");
      // A variable in the tag (the Java a pack needs) is filled in when the server runs: with its default here.
      const image = env.image!.replace(/\$\{([A-Za-z0-9_]+)\}/g, (_, name: string) => String(t.data[name]?.value ?? "?"));
      expect(image).toMatch(/^[a-z0-9./_-]+:[A-Za-z0-9._-]+$/);
      for (const binding of env.portBindings) {
        expect(binding).not.toContain("${");
        expect(parsePortBinding(binding)).not.toBeNull();
      }
    }
  });

  test("has command lines that split into words, before and after substitution", () => {
    const values = defaults(t, "/srv/kiln/servers/0123abcd");
    for (const line of commandLines(t)) {
      expect(() => splitCommandLine(line), line).not.toThrow();
      expect(commandArgv(line, values).length, line).toBeGreaterThan(0);
    }
  });

  test("passes template validation: no variable written into a script, and default values of their types", () => {
    expect(() => checkTemplateScripts(t)).not.toThrow();
    // Empty required values are the creator's to fill in; every other default passes as it is.
    expect(() => checkDefinitionValues({ data: Object.fromEntries(Object.entries(t.data).filter(([, v]) => v.value !== "")) })).not.toThrow();
    // What a script reads from its environment is exported (a variable) or its own (set in it).
    const declared = new Set([...Object.keys(t.data), ...ALWAYS_THERE]);
    for (const name of scriptReferences(t)) if (declared.has(name)) expect(name, `${t.name}: ${name}`).toMatch(EXPORTED_NAME);
  });

  test("stops one way, starts only when asked, and runs on Linux", () => {
    expect(Boolean(t.run.stop) !== Boolean(t.run.stopCode)).toBe(true);
    expect(t.run).toMatchObject({ autostart: false, autorestart: false, autorecover: false });
    expect(t.requirements.os).toBe("linux");
    // Binaries are checked before install, so none may be one the install provides (java17).
    for (const bin of t.requirements.binaries ?? []) expect(bin).not.toMatch(/^java\d+$/);
    // A template that runs a shell says so, so a node without one fails before it starts.
    if (commandLines(t).some((line) => splitCommandLine(line)[0] === "sh")) expect(t.requirements.binaries).toContain("sh");
  });

  test("reaches sites only through the node's sources or a fixed base-URL variable", () => {
    // A literal address in a step could not be pointed at a mirror, or at a test's fixture server.
    expect(strings([t.install, t.run]).filter((s) => /[a-z]+:\/\//i.test(s))).toEqual([]);
    for (const [name, v] of Object.entries(t.data)) {
      if (typeof v.value === "string" && /^https?:\/\//.test(v.value)) expect(v.userEdit, `${t.name}.${name}`).toBe(false);
    }
  });

  test("has steps whose regular expressions compile and whose paths stay relative", () => {
    const steps: Step[] = [...t.install, ...t.run.pre, ...t.run.post];
    for (const step of steps) {
      if (step.type === "alterfile" && step.regex) expect(patternProblem(step.search), step.search).toBeNull();
      for (const path of ["file", "target", "source", "targetFile", "filename"] as const) {
        const value = (step as Record<string, unknown>)[path];
        if (typeof value === "string") expect(value.startsWith("/"), `${step.type}.${path}`).toBe(false);
      }
    }
  });
});

describe("the shipped list", () => {
  test("holds every template file once, parsed, under its name", () => {
    expect(SHIPPED_TEMPLATES.map((t) => t.name).sort()).toEqual(FILES.map((f) => basename(f, ".json")).sort());
    expect(Object.keys(SHIPPED_TEMPLATE_SOURCES).sort()).toEqual(FILES.map((f) => basename(f, ".json")).sort());
    for (const t of SHIPPED_TEMPLATES) {
      expect(t).toEqual(PARSED[`${t.name}.json`]!);
      expect(SHIPPED_TEMPLATE_SOURCES[t.name]).toEqual(RAW[`${t.name}.json`]!);
    }
  });

  test("has the templates Kiln promises", () => {
    const names = SHIPPED_TEMPLATES.map((t) => t.name);
    const promised = [
      "minecraft-vanilla", "minecraft-paper", "minecraft-fabric", "minecraft-forge", "minecraft-sponge", "minecraft-bedrock", "velocity",
      "terraria-tshock", "valheim", "counter-strike-2", "garrys-mod", "team-fortress-2", "rust", "ark-survival-evolved", "project-zomboid",
      "7-days-to-die", "satisfactory", "palworld", "factorio", "dont-starve-together", "nodejs-app", "python-app", "java-app",
    ];
    expect(promised).toHaveLength(23);
    for (const name of promised) expect(names).toContain(name);
  });

  test("none reads as a 1.x template (the import would offer to convert it)", () => {
    expect(Object.keys(SHIPPED_TEMPLATE_SOURCES).length).toBeGreaterThan(0);
    for (const [key, source] of Object.entries(SHIPPED_TEMPLATE_SOURCES)) expect(looksLikeV1Template(source), key).toBe(false);
  });
});

// ---- Behaviour, with the daemon's own step processors and standard environment ----

const sandbox = () => makeSandbox(tempFolder());

describe.each(["minecraft-vanilla", "minecraft-fabric"])("%s at start", (name) => {
  const t = shipped(name);

  test("pre-start writes the EULA answer and puts port and MOTD into server.properties", async () => {
    const box = sandbox();
    const props = join(box.dir, "server.properties");
    // After install: an empty file (the install's `touch`).
    writeFileSync(props, "");
    await box.steps(t.run.pre, { ...defaults(t, box.dir), eula: true, port: 25570, motd: "Hello $there & co" });
    expect(readFileSync(join(box.dir, "eula.txt"), "utf8")).toBe("eula=true\n");
    expect(readFileSync(props, "utf8").split("\n").filter(Boolean).sort()).toEqual(["motd=Hello $there & co", "server-port=25570"]);

    // After Minecraft has written its own file: lines replaced in place, the rest untouched.
    const written = "#Minecraft server properties\r\nquery.port=25565\r\nmotd=A Minecraft Server\r\nserver-port=25565\r\ndifficulty=easy\r\n";
    writeFileSync(props, written);
    await box.steps(t.run.pre, { ...defaults(t, box.dir), port: 25599, motd: "Changed" });
    expect(readFileSync(props, "utf8")).toBe(written.replace("motd=A Minecraft Server", "motd=Changed").replace("server-port=25565", "server-port=25599"));
    expect(readFileSync(join(box.dir, "eula.txt"), "utf8")).toBe("eula=false\n");

    // Running it twice changes nothing more.
    const once = readFileSync(props, "utf8");
    await box.steps(t.run.pre, { ...defaults(t, box.dir), port: 25599, motd: "Changed" });
    expect(readFileSync(props, "utf8")).toBe(once);
  });

  test("the run command execs the Java that javadl installed, with the console reaching it", async () => {
    const box = sandbox();
    // A stand-in for <binaries>/bin/java17: prints its arguments, exits on "stop".
    const fake = join(box.bin, "java17");
    writeFileSync(fake, '#!/bin/sh\necho "java17 args: $*"\nwhile read -r line; do [ "$line" = stop ] && { echo stopped; exit 0; }; done\n');
    chmodSync(fake, 0o755);
    const { exited } = await start(box, t, { ...defaults(t, box.dir), memory: 1536 });
    await waitFor(box.output, /java17 args: .*nogui/);
    expect(box.output()).toContain("-Xms1536M -Xmx1536M -jar");
    await box.env.sendInput(`${t.run.stop}\n`);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(box.output()).toContain("stopped");
  });
});

test("minecraft: in an image without java17 the wrapper falls back to java", async () => {
  const t = shipped("minecraft-vanilla");
  const box = sandbox();
  const fake = join(box.bin, "java");
  writeFileSync(fake, '#!/bin/sh\necho "plain java: $*"\n');
  chmodSync(fake, 0o755);
  const { exited } = await start(box, t, defaults(t, box.dir));
  expect(await exited).toEqual({ code: 0, signal: null });
  expect(box.output()).toContain("plain java: -Xms2048M -Xmx2048M -jar server.jar nogui");
});

test("valheim: the command keeps names with spaces and apostrophes as one argument each", () => {
  const t = shipped("valheim");
  const argv = commandArgv(t.run.command as string, { ...defaults(t, "/srv/my servers/1"), serverName: "Bob's Hall", world: "Mid gard", password: "open sesame" });
  const after = (flag: string) => argv[argv.indexOf(flag) + 1];
  expect(argv[0]).toBe("./valheim_server.x86_64");
  expect(after("-name")).toBe("Bob's Hall");
  expect(after("-world")).toBe("Mid gard");
  expect(after("-password")).toBe("open sesame");
  expect(after("-port")).toBe("2456");
  expect(after("-public")).toBe("0");
  expect(after("-savedir")).toBe("/srv/my servers/1/saves");
  expect(argv).not.toContain("-crossplay");
  expect(argv.at(-1)).toBe("/srv/my servers/1/saves");
  const crossplay = commandArgv(t.run.command as string, { ...defaults(t, "/x"), crossplay: "-crossplay" });
  expect(crossplay.at(-1)).toBe("-crossplay");
  expect(substitute(t.run.environmentVars.LD_LIBRARY_PATH!, defaults(t, "/x"))).toBe("/x/linux64");
});

const hasNode = Bun.which("node") !== null;
const hasPython = Bun.which("python3") !== null;

describe.skipIf(!hasNode)("nodejs-app", () => {
  const t = shipped("nodejs-app");
  const install = t.install[0]!;
  if (install.type !== "command") throw new Error("the install step is a command");

  test("install skips a folder without package.json and runs the chosen command in one with it", async () => {
    const box = sandbox();
    // A stand-in for npm on the node's PATH: records its arguments, fails when told to.
    writeFileSync(join(box.bin, "npm"), '#!/bin/sh\necho "$*" >> npm-calls.txt\n[ -f npm-fails ] && exit 3\nexit 0\n');
    chmodSync(join(box.bin, "npm"), 0o755);
    const values = { ...defaults(t, box.dir), installCommand: "npm ci --omit=dev" };
    expect(await box.exec(install.commands[0]!, values)).toEqual({ code: 0, signal: null });
    expect(box.output()).toContain("nothing to install");
    writeFileSync(join(box.dir, "package.json"), "{}");
    expect(await box.exec(install.commands[0]!, values)).toEqual({ code: 0, signal: null });
    expect(readFileSync(join(box.dir, "npm-calls.txt"), "utf8")).toBe("ci --omit=dev\n");
    // "Nothing" is a no-op, not a shell syntax error; a failing command fails the step.
    expect(await box.exec(install.commands[0]!, { ...values, installCommand: "" })).toEqual({ code: 0, signal: null });
    writeFileSync(join(box.dir, "npm-fails"), "");
    expect((await box.exec(install.commands[0]!, values)).code).toBe(3);
    // The command is one of the template's options: anything else is refused before it could run.
    expect(() => checkDefinitionValues({ data: { ...t.data, installCommand: { ...t.data.installCommand!, value: "touch pwned" } } })).toThrow();
  });

  test("runs the entry file with PORT set and stops on its stop signal", async () => {
    const box = sandbox();
    // The handler comes before the line the test waits for, so the signal cannot arrive before it.
    writeFileSync(join(box.dir, "index.js"), 'process.on("SIGTERM", () => { console.log("bye"); process.exit(0); });\nconsole.log("port " + process.env.PORT + " " + process.env.NODE_ENV);\nsetInterval(() => {}, 1000);\n');
    const { exited } = await start(box, t, defaults(t, box.dir));
    await waitFor(box.output, /port 3000 production/);
    await box.env.signal(t.run.stopCode!);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(box.output()).toContain("bye");
  });
});

describe.skipIf(!hasPython)("python-app", () => {
  const t = shipped("python-app");
  const install = t.install[0]!;
  if (install.type !== "command") throw new Error("the install step is a command");

  test("install skips a folder without requirements.txt", async () => {
    const box = sandbox();
    expect(await box.exec(install.commands[0]!, defaults(t, box.dir))).toEqual({ code: 0, signal: null });
    expect(box.output()).toContain("nothing to install");
  });

  test("runs the entry file unbuffered and lets KeyboardInterrupt handlers run on stop", async () => {
    const box = sandbox();
    writeFileSync(join(box.dir, "main.py"), 'import os, time\nprint("port", os.environ["PORT"])\ntry:\n    while True: time.sleep(0.1)\nexcept KeyboardInterrupt:\n    print("cleaned up")\n');
    const { exited } = await start(box, t, defaults(t, box.dir));
    await waitFor(box.output, /port 8000/);
    await box.env.signal(t.run.stopCode!);
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(box.output()).toContain("cleaned up");
  });
});
