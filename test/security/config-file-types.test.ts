// Attack (low): config-file values that change type when a template's configfile step rewrites
// the file. Real eggs from the shared fixtures, converted as the import does, their config.files
// steps run by the node's step runner on a config file as the game ships it: a password "0777"
// must not become the number 777, a string "yes" or "12:30" must not read back as a boolean or a
// number (YAML 1.1, what Bukkit's and BungeeCord's SnakeYAML read), a boolean must stay a
// boolean, and the values no replacement names keep their spelling (0777, 1.20, yes, ~, 64-bit
// ids), which a document written anew does not.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { importTemplate } from "../../core/definition/import";
import { templateSchema, type Step } from "../../core/definition";
import { Jail } from "../../daemon/files/jail";
import { runSteps } from "../../daemon/processors";
import type { StepContext } from "../../daemon/processors/types";
import { partAvailable } from "../helpers/require-part";

const EGGS = join(process.env.KILN_EGGS || resolve(import.meta.dir, "../../../shared/fixtures/eggs"), "parkervcp-eggs");
const eggsHere = partAvailable(`the parkervcp/eggs fixtures (${EGGS})`, () => existsSync(EGGS));
const egg = (path: string) => JSON.parse(readFileSync(join(EGGS, path), "utf8"));
const describeEggs = eggsHere ? describe : describe.skip;

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The egg's configfile steps run on `file` holding `before`; the file as they leave it. */
async function rewrite(eggPath: string, file: string, before: string, values: Record<string, string>): Promise<string> {
  // Converted and checked as the panel stores it.
  const template = templateSchema.parse(importTemplate(egg(eggPath), { name: "egg" }).template);
  const steps = [...template.install, ...template.run.pre].filter((step: Step) => step.type === "configfile" && step.file.replace(/^\//, "") === file);
  expect(steps.length).toBe(1);
  const base = mkdtempSync(join(tmpdir(), "kiln-config-types-"));
  temps.push(base);
  const root = join(base, "server");
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), before);
  const ctx: StepContext = {
    jail: new Jail(root),
    binariesDir: join(base, "bin"),
    sources: {} as StepContext["sources"],
    log: () => undefined,
    execute: () => Promise.reject(new Error("configfile runs nothing")),
    serverId: "s1",
    placeholders: { facts: { port: "25600", ip: "0.0.0.0", memory: "1024", uuid: "s1" }, dockerInterface: "172.17.0.1" },
  };
  await runSteps(steps, values, ctx);
  return readFileSync(join(root, file), "utf8");
}

const lineOf = (text: string, key: string) => text.split("\n").find((line) => line.trimStart().startsWith(`${key}:`))?.trim();

/** Nested block YAML with every path of the egg's config file at `value` (as the game writes its file), then `extra`. */
function yamlWith(eggPath: string, file: string, value: string, extra: string[]): string {
  const config = egg(eggPath).config;
  const find = (typeof config.files === "string" ? JSON.parse(config.files) : config.files)[file].find as Record<string, string>;
  const tree: Record<string, unknown> = {};
  for (const path of Object.keys(find)) {
    const parts = path.split(".");
    let node = tree;
    for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
    node[parts.at(-1)!] = value;
  }
  const lines: string[] = [];
  const write = (node: Record<string, unknown>, indent: string) => {
    for (const [key, child] of Object.entries(node)) {
      if (typeof child === "string") lines.push(`${indent}${key}: ${child}`);
      else {
        lines.push(`${indent}${key}:`);
        write(child as Record<string, unknown>, `${indent}  `);
      }
    }
  };
  write(tree, "");
  return [...lines, ...extra, ""].join("\n");
}

describeEggs("a YAML config (ree6's config.yml, read by SnakeYAML)", () => {
  const REE6 = "bots/discord/ree6/egg-ree6.json";
  const CONFIG = yamlWith(REE6, "config.yml", "none", ["# kept as written", "extra:", "  creation: 1698323400000", "  filemode: 0644", "  ratio: 1.20", "  debug: yes", "  proxy: ~"]).replace("port: none", "port: 3306");
  const values = { DATABASE_USER: "yes", DATABASE_DB: "12:30", DATABASE_PW: "0777", DATABASE_HOST: "2001-12-14", DATABASE_PORT: "3307", DATABASE_TYP: "on", DATABASE_FILE: "1_000" };

  test("strings that YAML 1.1 or 1.2 would read as another type are written quoted; a number stays a number", async () => {
    const after = await rewrite(REE6, "config.yml", CONFIG, values);
    expect(Bun.YAML.parse(after)).toMatchObject({ hikari: { sql: { user: "yes", db: "12:30", pw: "0777", host: "2001-12-14", port: 3307 }, misc: { storage: "on" } } });
    // Read by YAML 1.1 too: each is quoted, so none is a boolean, a sexagesimal number, an octal or a date.
    for (const key of ["user", "db", "pw", "host", "storage"]) expect(lineOf(after, key), key).toMatch(/^\w+: "[^"]*"$/);
    expect(lineOf(after, "port")).toBe("port: 3307");
  });

  test("everything no replacement names keeps its comments and its spelling", async () => {
    const after = await rewrite(REE6, "config.yml", CONFIG, values);
    for (const line of ["# kept as written", "  creation: 1698323400000", "  filemode: 0644", "  ratio: 1.20", "  debug: yes", "  proxy: ~"]) expect(after.split("\n")).toContain(line);
  });
});

describeEggs("a YAML config with booleans (Empyrion's dedicated.yaml)", () => {
  const CONFIG = ["ServerConfig:", "    Srv_Port: 30000", "    Srv_Name: My Server", "    Srv_Password: 'secret'", "    Srv_MaxPlayers: 8", "    Tel_Enabled: false", "    Tel_Port: 30004", "    Srv_Description: A server", "GameConfig:", "    GameName: DediGame", "    Seed: 42", "    Claim: 0777", ""].join("\n");

  test("a boolean stays a boolean, a quoted string keeps its quotes, a number its type", async () => {
    const after = await rewrite("game_eggs/steamcmd_servers/empyrion/egg-empyrion--galactic-survival.json", "empyrion/dedicated.yaml", CONFIG, {
      SRV_NAME: "on",
      SRV_PWD: "0777",
      MAX_PLAYERS: "20",
      TELNET_ENABLED: "true",
      TELNET_PORT: "30005",
      SRV_DESC: "yes: it's #1",
      SEED: "1011345",
    });
    expect(Bun.YAML.parse(after)).toMatchObject({ ServerConfig: { Srv_Port: 25600, Srv_Name: "on", Srv_Password: "0777", Srv_MaxPlayers: 20, Tel_Enabled: true, Tel_Port: 30005, Srv_Description: "yes: it's #1" } });
    expect(lineOf(after, "Srv_Password")).toBe("Srv_Password: '0777'");
    expect(lineOf(after, "Tel_Enabled")).toBe("Tel_Enabled: true");
    expect(lineOf(after, "Srv_Name")).toBe('Srv_Name: "on"');
    expect(lineOf(after, "Seed")).toBe("Seed: 1011345");
    expect(lineOf(after, "Claim")).toBe("Claim: 0777");
  });
});

describeEggs("a JSON config (open.mp's config.json)", () => {
  const CONFIG = JSON.stringify({ network: { port: 7777, mtu: 576 }, rcon: { enable: false, password: "changeme" }, game: { gravity: 0.0080 }, discord: { owner: 1 } }, null, 4).replace('"gravity": 0.008', '"gravity": 0.0080').replace('"owner": 1', '"owner": 76561198000000001');

  test("a password of digits stays a string; the port a number; other numbers keep their digits", async () => {
    const after = await rewrite("game_eggs/gta/openmp/egg-open-m-p.json", "config.json", CONFIG, { RCON_PASSWORD: "0777" });
    expect(JSON.parse(after)).toMatchObject({ network: { port: 25600, mtu: 576 }, rcon: { enable: false, password: "0777" } });
    expect(after).toContain('"gravity": 0.0080');
    expect(after).toContain('"owner": 76561198000000001');
  });

  test("a password that looks like a whole number stays a string too", async () => {
    const after = await rewrite("game_eggs/gta/openmp/egg-open-m-p.json", "config.json", CONFIG, { RCON_PASSWORD: "123456" });
    expect(JSON.parse(after).rcon.password).toBe("123456");
  });
});
