// Kiln's own templates in PufferPanel's formats and layout (test/fixtures/pufferpanel-templates,
// written for these tests) imported through the panel, always: every one keeps PufferPanel's
// meaning (./pufferpanel-reading), and each conversion rule shows in what was stored.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { commandArgv } from "../../core/definition/command-line";
import { substitute } from "../../core/definition/substitute";
import { variableEnvironment } from "../../core/definition/invocation";
import { listRepositories } from "../../server/services/templates/repositories";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { testPanel } from "../helpers/app";
import { serveFolder } from "../helpers/template-folder-server";
import { BRANCHES } from "./pufferpanel-reading";
import { importBranch, summary, type BranchOutcome, type TemplateOutcome } from "./template-harness";

const FIXTURES = resolve(import.meta.dir, "../fixtures/pufferpanel-templates");
const results = new Map<string, BranchOutcome>();
beforeAll(async () => {
  for (const branch of BRANCHES) results.set(branch, await importBranch(FIXTURES, branch));
}, 120_000);

function stored(branch: string, file: string): NonNullable<TemplateOutcome["stored"]> {
  const outcome = results.get(branch)!.outcomes.find((o) => o.file === file);
  if (!outcome?.stored) throw new Error(`${branch}/${file} was not imported: ${outcome?.problems.join("; ")}`);
  return outcome.stored;
}

test("every fixture imports through the panel and keeps PufferPanel's meaning", () => {
  const all = [...results.values()];
  expect(summary(all)).not.toContain("  ");
  expect(all.map((r) => [r.branch, r.outcomes.length])).toEqual([["v3", 3], ["v2.6", 4], ["v2", 2], ["v1", 1]]);
});

describe("what the conversion wrote out", () => {
  test("2.x: missing required and userEdit are false; HTML descriptions are markdown with http(s) links only; the readme comes along", () => {
    const t = stored("v2.6", "blocks/blocks.json");
    expect(t.data.version).toMatchObject({ required: true, userEdit: false });
    expect(t.data.memory).toMatchObject({ type: "integer", value: 1024 });
    expect(t.data.eula).toMatchObject({ type: "boolean", value: false });
    expect(t.data.version!.desc).toBe("Version to install ([maintained versions](https://example.test/versions))");
    expect(t.data.motd!.desc).toBe("Supports [formatting codes](https://example.test/codes). alert(1)not a link");
    expect(t.readme).toContain("Paper builds of the block game");
    expect(t.supportedEnvironments).toEqual([{ type: "tty" }]);
    const chat = stored("v2.6", "chatbot/chatbot.json");
    expect(chat.data.botfile).toMatchObject({ required: true, userEdit: false });
    expect(chat.data.token).toMatchObject({ required: false, userEdit: true });
    // PufferPanel's own spelling of requirements is kept for the node to read.
    expect(chat.requirements).toMatchObject({ os: "windows||linux", binaries: ["node", "npm"] });
    expect(stored("v2.6", "blocks/blocks-docker.json").supportedEnvironments).toEqual([
      { type: "docker", image: "eclipse-temurin:21", networkMode: "host", networkName: "", bindings: {}, portBindings: [] },
    ]);
  });

  test("2.x: an internal variable is hidden (not required, not user-editable), the empty legacy program goes, unknown fields stay", () => {
    const t = stored("v2", "arena/arena.json");
    expect(t.data.rcon).toMatchObject({ required: false, userEdit: false, internal: true, value: "secret" });
    expect(t.data.ip).toMatchObject({ required: true, userEdit: false });
    expect(t.run).not.toHaveProperty("program");
    expect(t.run.command).toBe("./srcds_run -game arena +map ${map} +ip ${ip} -port ${port}");
    expect(t.install[3]).toMatchObject({ type: "writefile", metadata: {} });
    expect(t.name).toBe("arena");
  });

  test("a name Kiln cannot use as an id (`+`) imports under a spelled-out one", () => {
    expect(results.get("v2")!.outcomes.map((o) => o.id)).toEqual(["arena", "modpack-117plus"]);
    expect(stored("v2", "modpack-117+/modpack-117+.json").name).toBe("modpack-117plus");
  });

  test("v3: conditions, command entries, groups, the console and the host environment are kept; data.json is not a template", () => {
    const t = stored("v3", "craft/craft.json");
    expect(results.get("v3")!.outcomes.map((o) => o.file)).toEqual(["craft/craft.json", "survival/survival.json", "tiles/tiles.json"]);
    expect(t.install[0]).toMatchObject({ if: "javaversion != '' && env == 'host'", type: "javadl", version: "${javaversion}" });
    expect(t.groups?.[1]).toMatchObject({ if: "loader == 'forge'", variables: ["forgebuild"] });
    expect(t.data.port).toMatchObject({ type: "integer", value: 25565 });
    expect(t.data.resolvedForge).toMatchObject({ required: false, userEdit: false, internal: true });
    expect(Array.isArray(t.run.command)).toBe(true);
    expect(t.environment).toEqual({ type: "host" });
    expect(stored("v3", "survival/survival.json").run.stdin).toEqual({ type: "telnet", port: "8081" });
    expect(stored("v3", "tiles/tiles.json").install[1]).toEqual({ type: "extract", source: "tiles-server.zip", destination: "." });
  });

  test("v1: program and arguments make the command word for word, ${rootdir} is ${rootDir}, internal is hidden", () => {
    const t = stored("v1", "blocks/blocks.json");
    expect(commandArgv(t.run.command as string, { memory: 1024, rootDir: "/srv/x" })).toEqual(["java", "-Xmx1024M", "-jar", "/srv/x/server.jar"]);
    expect(t.data.jar).toMatchObject({ required: false, userEdit: false });
    expect(t.data.memory!.desc).toBe("Heap in MB");
  });
});

describe("variables in scripts", () => {
  let dir: string;
  beforeAll(() => void (dir = mkdtempSync(join(tmpdir(), "kiln-scripts-"))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs a command line in `dir`: as PufferPanel does (substituted text) or as Kiln's node does (argv + exported variables). */
  const run = (argv: string[], env: Record<string, string>) => Bun.spawnSync(argv, { cwd: dir, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env } });

  test("the rewritten install scripts write what PufferPanel's substituted ones wrote, and a hostile value stays data", () => {
    const t = stored("v2.6", "scripted/scripted.json");
    const raw = JSON.parse(readFileSync(join(FIXTURES, "v2.6/scripted/scripted.json"), "utf8"));
    const values = { greeting: "hello there", port: 7777 };
    const kiln = (t.install[0] as { commands: string[] }).commands;
    expect(kiln).toEqual([`sh -c 'echo $greeting > motd.txt'`, `bash -c 'echo port=$port > port.txt'`]);
    const read = () => [readFileSync(join(dir, "motd.txt"), "utf8"), readFileSync(join(dir, "port.txt"), "utf8")];
    for (const line of raw.install[0].commands as string[]) run(commandArgv(substitute(line, values), {}), {});
    const pufferPanel = read();
    for (const line of kiln) run(commandArgv(line, values), variableEnvironment(values));
    expect(read()).toEqual(pufferPanel);
    expect(pufferPanel).toEqual(["hello there\n", "port=7777\n"]);
    const hostile = { greeting: "x; touch pwned", port: 1 };
    for (const line of kiln) run(commandArgv(line, hostile), variableEnvironment(hostile));
    expect(read()[0]).toBe("x; touch pwned\n");
    expect(Bun.file(join(dir, "pwned")).size).toBe(0);
    expect(t.run.command).toBe(`sh -c 'echo $greeting; exec ./server --port $port'`);
  });
});

describe("the repository listing", () => {
  test("offers each template of each folder by display name with its folder's readme, from nowhere but the base URL", async () => {
    const server = serveFolder(join(FIXTURES, "v2.6"));
    try {
      const panel = await testPanel();
      await setSetting(panel.db, SETTING_KEYS.templateRepositories, server.url);
      const [, repo] = await listRepositories(panel.db);
      expect(repo).toMatchObject({ id: server.url, layout: "pufferpanel", builtIn: false });
      expect(repo!.templates.map((t) => [t.id, t.display])).toEqual([
        ["blocks-docker", "Blocks - Paper (fixture, Docker)"],
        ["blocks", "Blocks - Paper (fixture)"],
        ["chatbot", "chat bot (fixture)"],
        ["scripted", "Scripted (fixture)"],
      ]);
      expect(repo!.templates.find((t) => t.id === "blocks-docker")!.readme).toContain("Paper builds");
      expect(repo!.templates.find((t) => t.id === "chatbot")!.readme).toBe("");
      expect(server.hits.every((path) => path.startsWith("/") && !path.includes(".."))).toBe(true);
    } finally {
      server.stop();
    }
  });
});
