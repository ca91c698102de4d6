// Each rule of the template importer (./import): which format a template is read as, how
// PufferPanel's 2.x and v3 readings are written out, the script rewrite, and that the result is
// a valid Kiln template that means what the original meant.
import { describe, expect, test } from "bun:test";
import { detectTemplateFormat, importTemplate } from "./import";
import { rewriteShellScript } from "./script-rewrite";
import { checkTemplateScripts } from "./script-check";
import { commandArgv } from "./command-line";
import { templateSchema } from "./template";
import { KilnError } from "../errors";

const V2 = {
  type: "minecraft-java",
  display: "Paper - Minecraft",
  data: {
    memory: { value: "1024", required: true, desc: "Heap in MB", display: "Memory", internal: false, type: "integer" },
    eula: { value: "false", desc: "Do you agree to the <a href='https://example.test/eula'>EULA</a>?", display: "EULA", type: "boolean" },
    motd: { value: "Hello", display: "MOTD", userEdit: true },
    hidden: { value: "x", display: "Hidden", required: true, userEdit: true, internal: true },
  },
  install: [
    { type: "download", files: "https://example.test/paper-${version}.jar" },
    { type: "writefile", target: "eula.txt", text: "eula=${eula}", metadata: { kept: true } },
  ],
  run: { command: "java -Xmx${memory}M -jar paper.jar", stop: "stop" },
  environment: { type: "tty" },
  requirements: { os: "linux||windows", arch: "amd64" },
  tasks: { backup: { name: "Backup", operations: [] } },
};

const V3 = {
  type: "minecraft-java",
  display: "Minecraft",
  icon: "minecraft-java",
  data: {
    javaversion: { type: "string", value: "21", display: "Java", desc: "", required: true, userEdit: true },
    loader: { type: "string", value: "", display: "Loader", desc: "", required: false, userEdit: true, options: [{ value: "", display: "None" }, { value: "fabric", display: "Fabric" }] },
    port: { type: "integer", value: "", display: "Port", desc: "", required: true, userEdit: false },
    resolved: { type: "string", value: "", display: "Resolved", desc: "internal", required: true, userEdit: true, internal: true },
  },
  groups: [{ if: "loader == 'fabric'", display: "Fabric", description: "Fabric settings", variables: ["loader"], order: 1 }],
  install: [
    { if: "env == 'host'", type: "javadl", version: "${javaversion}" },
    { if: "loader == 'fabric'", type: "fabricdl" },
    { type: "extract", source: "server.zip", destination: "." },
  ],
  run: {
    command: [{ command: "java${javaversion} -jar server.jar", if: "env == 'host'" }, { command: "java -jar server.jar" }],
    stop: "stop",
    stdin: { type: "telnet", port: "8081" },
    autostart: false,
    autorecover: false,
    autorestart: false,
  },
  environment: { type: "host" },
  supportedEnvironments: [{ type: "host" }, { type: "docker", image: "eclipse-temurin:${javaversion}", portBindings: ["0.0.0.0:${port}:${port}/tcp"] }],
  requirements: {},
  stats: { type: "jcmd" },
};

const KILN = {
  display: "Echo",
  data: { word: { display: "Word", value: "hi", required: true, userEdit: true } },
  run: { command: "echo ${word}" },
};

/** The same with its flags left out: nothing tells it from a 2.x file. */
const UNMARKED = {
  display: "Echo",
  data: { word: { display: "Word", value: "hi" }, port: { display: "Port", value: 25565, type: "integer", userEdit: true } },
  run: { command: "echo ${word}" },
};

describe("detectTemplateFormat", () => {
  test("v1 by its wrapper or its run.program, v3 by its own terms, v2 by PufferPanel-only markers, else Kiln's", () => {
    expect(detectTemplateFormat({ pufferd: { run: { program: "x" } } })).toBe("v1");
    expect(detectTemplateFormat(V3)).toBe("v3");
    expect(detectTemplateFormat({ environment: { type: "host" } })).toBe("v3");
    expect(detectTemplateFormat({ install: [{ type: "command", commands: ["x"], if: "env == 'docker'" }] })).toBe("v3");
    expect(detectTemplateFormat({ run: { command: [{ command: "x" }] } })).toBe("v3");
    expect(detectTemplateFormat({ run: { command: "x", stdin: { type: "stdin" } } })).toBe("v3");
    expect(detectTemplateFormat(V2)).toBe("v2");
    expect(detectTemplateFormat({ run: { command: "x", program: "" } })).toBe("v2");
    expect(detectTemplateFormat(KILN)).toBe("kiln");
    // Flags left unsaid and no marker of either format: read as 2.x, the safe reading.
    expect(detectTemplateFormat(UNMARKED)).toBe("v2");
    // A field only Kiln's format has makes it Kiln's, with Kiln's defaults for what is unsaid.
    for (const marked of [{ ...UNMARKED, readme: "" }, { ...UNMARKED, source: "kiln" }, { ...UNMARKED, run: { ...UNMARKED.run, readyMarkers: ["Done"] } }, { ...UNMARKED, data: { ...UNMARKED.data, word: { ...UNMARKED.data.word, multiLine: false } } }]) {
      expect(detectTemplateFormat(marked)).toBe("kiln");
    }
    // PufferPanel 3's `query` in a Kiln template: Kiln's when it also has a field only Kiln writes.
    expect(detectTemplateFormat({ ...KILN, query: { type: "minecraft" } })).toBe("v3");
    expect(detectTemplateFormat({ ...KILN, query: { type: "minecraft" }, addons: { platform: "paper" } })).toBe("kiln");
    // From a PufferPanel repository, an unmarked template is a 2.x one.
    expect(detectTemplateFormat(KILN, "pufferpanel")).toBe("v2");
    // Neither a template nor an egg: no format, and importing refuses it.
    expect(detectTemplateFormat(null)).toBeNull();
    expect(detectTemplateFormat({})).toBeNull();
    expect(detectTemplateFormat({ hello: "world" })).toBeNull();
    expect(detectTemplateFormat({ meta: { version: "PLCN_v9" }, name: "future" })).toBeNull();
    expect(detectTemplateFormat({ meta: { version: "PTDL_v2" } })).toBe("egg");
    expect(() => importTemplate({ hello: "world" })).toThrow("not a Kiln or PufferPanel template");
  });
});

describe("2.x templates", () => {
  const { format, template, notes } = importTemplate(V2);
  const t = templateSchema.parse(template);

  test("missing required and userEdit read as false, as PufferPanel reads them, each change noted", () => {
    expect(format).toBe("v2");
    expect(t.data.eula!.required).toBe(false);
    expect(t.data.eula!.userEdit).toBe(false);
    expect(t.data.memory!.userEdit).toBe(false);
    expect(t.data.motd!.required).toBe(false);
    expect(t.data.motd!.userEdit).toBe(true);
    expect(notes).toContainEqual({ rule: "flagDefault", field: "data.eula.required", detail: "false" });
    expect(notes).toContainEqual({ rule: "flagDefault", field: "data.memory.userEdit", detail: "false" });
  });

  test("an internal variable is neither required from nor editable by users, and stays marked internal", () => {
    expect(t.data.hidden).toMatchObject({ required: false, userEdit: false, internal: true });
    expect(notes).toContainEqual({ rule: "internal", field: "data.hidden" });
  });

  test("types default to string; integer and boolean values written as text are typed", () => {
    expect(t.data.motd!.type).toBe("string");
    expect(t.data.memory).toMatchObject({ type: "integer", value: 1024 });
    expect(t.data.eula).toMatchObject({ type: "boolean", value: false });
    const odd = importTemplate({ data: { n: { type: "integer", value: "lots", internal: false } } });
    expect(odd.template.data).toMatchObject({ n: { type: "string", value: "lots" } });
    expect(odd.notes).toContainEqual({ rule: "valueType", field: "data.n.type", detail: "string" });
  });

  test("HTML descriptions become markdown: http(s) links kept, other tags removed", () => {
    expect(t.data.eula!.desc).toBe("Do you agree to the [EULA](https://example.test/eula)?");
    expect(notes).toContainEqual({ rule: "description", field: "data.eula.desc" });
    const evil = importTemplate({
      data: { x: { internal: false, desc: `<script>alert(1)</script><a href="javascript:alert(2)">click</a> <a href='data:text/html,x'>d</a> <img src=x onerror=alert(3)>ok` } },
    });
    expect((evil.template.data as Record<string, { desc: string }>).x!.desc).toBe("alert(1)click d ok");
  });

  test("supportedEnvironments missing: the environment alone; unknown fields and PufferPanel's requirement syntax are kept", () => {
    expect(t.supportedEnvironments).toEqual([{ type: "tty" }]);
    expect(notes).toContainEqual({ rule: "supportedEnvironments", field: "supportedEnvironments" });
    expect(t.requirements).toEqual({ os: "linux||windows", arch: "amd64" });
    expect(t.install[1]).toMatchObject({ type: "writefile", metadata: { kept: true } });
    expect((t as Record<string, unknown>).tasks).toEqual(V2.tasks);
  });

  test("the legacy run.program and run.arguments make the command, as PufferPanel's loader joins them", () => {
    const legacy = importTemplate({ run: { program: "./srcds_run", arguments: ["-game", "${game}", "+map de_dust2"], command: "" } });
    expect(legacy.template.run).toEqual({ command: "./srcds_run -game ${game} +map de_dust2" });
    expect(legacy.notes).toContainEqual({ rule: "legacyRun", field: "run.command" });
    const empty = importTemplate({ run: { program: "", command: "./ark" } });
    expect(empty.template.run).toEqual({ command: "./ark" });
    expect(empty.notes).toContainEqual({ rule: "dropped", field: "run.program", detail: "empty" });
  });

  test("the source is not changed", () => {
    expect(V2.data.eula).not.toHaveProperty("required");
  });
});

describe("v3 templates", () => {
  const { format, template, notes } = importTemplate(V3);
  const t = templateSchema.parse(template);

  test("v3's structure is kept as written: host, conditions, command entries, console, groups, icon, stats", () => {
    expect(format).toBe("v3");
    expect(t.environment).toEqual({ type: "host" });
    expect(t.install.map((s) => s.if)).toEqual(["env == 'host'", "loader == 'fabric'", undefined]);
    expect(t.run.command).toEqual(V3.run.command);
    expect(t.run.stdin).toEqual({ type: "telnet", port: "8081" });
    expect(t.groups).toEqual(V3.groups);
    expect(t).toMatchObject({ icon: "minecraft-java", stats: { type: "jcmd" } });
    expect(t.supportedEnvironments[1]).toMatchObject({ type: "docker", image: "eclipse-temurin:${javaversion}" });
  });

  test("v3 reads an empty integer as 0, and internal variables as hidden", () => {
    expect(t.data.port).toMatchObject({ type: "integer", value: 0 });
    expect(t.data.resolved).toMatchObject({ required: false, userEdit: false, internal: true });
    expect(notes.map((n) => n.rule)).toEqual(["internal"]);
  });

  test("importing what Kiln stored changes nothing more (a template is read the same way twice)", () => {
    const again = importTemplate(JSON.parse(JSON.stringify(t)));
    expect(templateSchema.parse(again.template)).toEqual(t);
    expect(again.notes).toEqual([]);
  });
});

describe("Kiln's own templates", () => {
  test("are taken as written, with Kiln's defaults", () => {
    const { format, template, notes } = importTemplate(KILN);
    expect(format).toBe("kiln");
    expect(template).toBe(KILN as never);
    expect(notes).toEqual([]);
    expect(templateSchema.parse(template).data.word).toMatchObject({ required: true, userEdit: true });
  });

  test("one whose variables leave their flags unsaid, with nothing else to tell, is read safely: neither required nor editable by users, and says so", () => {
    const { format, template, notes } = importTemplate(UNMARKED);
    expect(format).toBe("v2");
    const data = templateSchema.parse(template).data;
    expect(data.word).toMatchObject({ required: false, userEdit: false });
    // A flag the file does say is kept.
    expect(data.port).toMatchObject({ required: false, userEdit: true });
    expect(notes[0]).toEqual({ rule: "unmarkedV2", field: "data" });
    expect(notes.filter((n) => n.rule === "flagDefault").map((n) => n.field)).toEqual(["data.word.required", "data.word.userEdit", "data.port.required"]);
    // What Kiln stored from it reads the same again, with nothing left to note.
    expect(importTemplate(templateSchema.parse(template)).notes).toEqual([]);
  });
});

describe("variables in shell scripts", () => {
  const names = { known: new Set(["memory", "name", "Motd", "bot-file"]), shadowed: new Set<string>() };

  test("each quoting context gets a read of the environment variable with the same meaning", () => {
    expect(rewriteShellScript("java -Xmx${memory}M -jar x", names).script).toBe('java -Xmx$memory""M -jar x');
    expect(rewriteShellScript('echo "hi ${name}!" ${name} end', names).script).toBe('echo "hi $name!" $name end');
    expect(rewriteShellScript("echo 'hi ${name}'", names).script).toBe(`echo 'hi '"$name"''`);
    expect(rewriteShellScript("echo ${name}_x", names).script).toBe('echo $name""_x');
    expect(rewriteShellScript("echo \\${name} ${unknown}", names)).toEqual({ script: "echo \\${name} ${unknown}", rewritten: [] });
  });

  test("a shell gives the rewritten script the value the substituted text gave, as data", () => {
    const { template, notes } = importTemplate({
      data: { name: { value: "world", internal: false }, memory: { value: "512", type: "integer", internal: false } },
      install: [{ type: "command", commands: ["sh -c 'echo hello ${name} > greeting.txt; echo \"${memory}M\" >> greeting.txt'"] }],
      run: { command: "bash -c \"exec java -Xmx${memory}M -jar server.jar\"" },
    });
    expect(notes.filter((n) => n.rule === "scriptVariable")).toEqual([
      { rule: "scriptVariable", field: "run.command", detail: "memory" },
      { rule: "scriptVariable", field: "install.0.commands.0", detail: "name" },
      { rule: "scriptVariable", field: "install.0.commands.0", detail: "memory" },
    ]);
    const t = templateSchema.parse(template);
    expect(() => checkTemplateScripts(t)).not.toThrow();
    expect(commandArgv(t.run.command as string, { memory: 512 })).toEqual(["bash", "-c", 'exec java -Xmx$memory""M -jar server.jar']);
    const script = commandArgv((t.install[0] as { commands: string[] }).commands[0]!, {})[2]!;
    const out = Bun.spawnSync(["sh", "-c", script.replace("> greeting.txt", "").replace(">> greeting.txt", "")], { env: { name: "world; rm -rf /", memory: "512" } });
    expect(out.stdout.toString()).toBe("hello world; rm -rf /\n512M\n");
  });

  test("names a shell cannot read, names the template's environmentVars shadow and other interpreters' code are left, and refused", () => {
    for (const [command, variable] of [
      ["sh -c 'node ${bot-file}'", "bot-file"],
      ["python3 -c 'print(\"${name}\")'", "name"],
    ] as const) {
      const { template, notes } = importTemplate({ data: { name: { internal: false }, "bot-file": { internal: false } }, run: { command } });
      expect(notes.some((n) => n.rule === "scriptVariable")).toBe(false);
      const error = (() => {
        try {
          checkTemplateScripts(templateSchema.parse(template));
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(KilnError);
      expect((error as KilnError).metadata).toMatchObject({ field: "run.command", variable });
    }
    const shadowed = importTemplate({ data: { name: { internal: false } }, run: { command: "sh -c 'echo ${name}'", environmentVars: { name: "fixed" } } });
    expect(shadowed.notes.some((n) => n.rule === "scriptVariable")).toBe(false);
  });

  test("a script file's own options are not a script: `bash start.sh -steamvac ${vac}` keeps its value", () => {
    const { template, notes } = importTemplate({ data: { vac: { value: "true", internal: false } }, run: { command: "bash start-server.sh -steamvac ${vac}" } });
    expect(notes.some((n) => n.rule === "scriptVariable")).toBe(false);
    const t = templateSchema.parse(template);
    expect(() => checkTemplateScripts(t)).not.toThrow();
    expect(commandArgv(t.run.command as string, { vac: "true" })).toEqual(["bash", "start-server.sh", "-steamvac", "true"]);
  });
});
