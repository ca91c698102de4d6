// PufferPanel v3 templates install and run end to end. Three of Kiln's own fixture
// templates in v3's format (test/fixtures/pufferpanel-v3: Minecraft with `if` branches, Terraria
// with `extract`, 7 Days to Die with a telnet console) are imported as the panel imports them,
// made into servers on a real node, installed from local fixture sites and run, for the host
// environment and for docker (the local busybox image, host networking), so each condition is
// seen evaluated both ways.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { importTemplate } from "../../core/definition/import";
import { templateSchema, type Environment, type ServerDefinition } from "../../core/definition";
import { startTestNode, eventually, type TestNode } from "../helpers/node";
import { startFixtureSources, type FixtureSources } from "../helpers/step-sources";
import { startV3FixtureSite, FAKE_7DTD, type V3FixtureSite } from "../helpers/v3-fixture-site";
import { ensureTestImage, hasDocker } from "../helpers/docker";

const FIXTURES = join(import.meta.dir, "..", "fixtures", "pufferpanel-v3");

let sources: FixtureSources;
let site: V3FixtureSite;
let node: TestNode;

beforeAll(async () => {
  sources = startFixtureSources();
  site = await startV3FixtureSite();
  node = await startTestNode({ sources: { ...sources.sources, steamcmd: site.steamcmd }, stopTimeoutMs: 5000 });
});
afterAll(async () => {
  await node.stop();
  site.stop();
  sources.stop();
});

/** A fixture template as the panel imports it, made into a definition for one environment with some values. */
function definition(file: string, environment: Environment["type"], values: Record<string, string | number | boolean> = {}): ServerDefinition {
  const { format, template } = importTemplate(JSON.parse(readFileSync(join(FIXTURES, file), "utf8")));
  expect(format).toBe("v3");
  const parsed = templateSchema.parse(template);
  const env = parsed.supportedEnvironments.find((e) => e.type === environment)!;
  const data = Object.fromEntries(Object.entries(parsed.data).map(([name, v]) => [name, Object.hasOwn(values, name) ? { ...v, value: values[name]! } : v]));
  return templateSchema.parse({ ...parsed, data, environment: env, supportedEnvironments: [] });
}

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const folder = (id: string) => node.folder(id);

async function create(id: string, def: ServerDefinition): Promise<void> {
  const res = await node.call("PUT", `/daemon/server/${id}`, def);
  expect(res.status).toBeLessThan(300);
}

/**
 * Installs, overwriting: these servers were never installed, so a reinstall that keeps changes
 * would move every file aside while the steps run, among them the stand-ins for what SteamCMD
 * leaves that the steps work on.
 */
async function installed(id: string): Promise<string> {
  const res = await node.call("POST", `/daemon/server/${id}/install?wait=true&keepChanged=false`);
  const text = await consoleText(id);
  if (res.status >= 300) throw new Error(`install failed (${res.status}): ${await res.text()}\n${text}`);
  return text;
}

describe("Minecraft (if branches)", () => {
  test("host: javadl and mojangdl run, server.properties only once, the host command entry runs", async () => {
    await create("mc-host", definition("minecraft.json", "host", { port: 25601 }));
    let log = await installed("mc-host");
    expect(log).toContain("install: step 1/4: javadl");
    expect(log).toContain("install: step 2/4: mojangdl");
    expect(log).toContain("install: step 3/4: writefile");
    expect(readFileSync(join(folder("mc-host"), "server.properties"), "utf8")).toBe("server-port=25601\nmotd=A Kiln test server\n");
    expect(readFileSync(join(folder("mc-host"), "eula.txt"), "utf8")).toBe("eula=true");
    // A second install leaves the edited server.properties alone: its condition no longer holds.
    await installed("mc-host");
    expect(await consoleText("mc-host")).toContain(`step 3/4 (writefile) skipped: its condition !file_exists("server.properties") does not hold`);
    await node.json("POST", "/daemon/server/mc-host/start?wait=true");
    await eventually(async () => (await consoleText("mc-host")).includes("Minecraft 1.20.1 server (Kiln test fixture) starting"), 10_000, "the server");
    log = await consoleText("mc-host");
    expect(log).toContain("-Dkiln.env=host");
    await node.json("POST", "/daemon/server/mc-host/stop?wait=true");
    expect(await consoleText("mc-host")).toContain("exited with code 0");
  });

  test("docker: javadl is skipped, the docker entry runs in the container", async () => {
    if (!hasDocker()) return;
    await ensureTestImage();
    await create("mc-docker", definition("minecraft.json", "docker", { port: 25602 }));
    const log = await installed("mc-docker");
    expect(log).toContain("step 1/4 (javadl) skipped: its condition javaversion != '' && env == 'host' does not hold");
    expect(log).toContain("install: step 2/4: mojangdl");
    await node.json("POST", "/daemon/server/mc-docker/start?wait=true");
    await eventually(async () => (await consoleText("mc-docker")).includes("Minecraft 1.20.1 server (Kiln test fixture) starting"), 20_000, "the container");
    expect(await consoleText("mc-docker")).toContain("docker entry chosen");
    await node.json("POST", "/daemon/server/mc-docker/stop?wait=true");
    expect(await consoleText("mc-docker")).toContain("exited with code 0");
  }, 60_000);
});

describe("Terraria (download, extract)", () => {
  for (const env of ["host", "docker"] as const) {
    test(`${env}: the zip is downloaded and extracted, laid out by commands, configured before each start`, async () => {
      if (env === "docker") {
        if (!hasDocker()) return;
        await ensureTestImage();
      }
      const id = `terraria-${env}`;
      await create(id, definition("terraria.json", env, { downloadBase: site.terraria, port: env === "host" ? "7781" : "7782", motd: "hi there" }));
      await installed(id);
      expect(existsSync(join(folder(id), "server", "TerrariaServer"))).toBe(true);
      expect(existsSync(join(folder(id), "worlds"))).toBe(true);
      expect(existsSync(join(folder(id), "terraria-server-1449.zip"))).toBe(false);
      expect(existsSync(join(folder(id), "1449"))).toBe(false);
      await node.json("POST", `/daemon/server/${id}/start?wait=true`);
      await eventually(async () => (await consoleText(id)).includes("motd=hi there"), 20_000, "terraria and its config");
      expect(await consoleText(id)).toContain("Terraria Server (Kiln fixture) starting with: -port");
      await node.json("POST", `/daemon/server/${id}/stop?wait=true`);
      expect(await consoleText(id)).toContain("Terraria: saving world, exiting");
    }, 60_000);
  }
});

describe("7 Days to Die (telnet console)", () => {
  for (const env of ["host", "docker"] as const) {
    test(`${env}: installed, its console commands and the stop go through telnet, replies shown`, async () => {
      if (env === "docker") {
        if (!hasDocker()) return;
        await ensureTestImage();
      }
      const id = `sdtd-${env}`;
      const port = env === "host" ? 28081 : 28082;
      await create(id, definition("7days2die.json", env, { telnetport: port, telnetpassword: "sesame" }));
      if (env === "docker") {
        // What SteamCMD would leave in the container's folder (the image has no SteamCMD).
        mkdirSync(join(folder(id), ".kiln-fixture-game"), { recursive: true });
        Bun.write(join(folder(id), ".kiln-fixture-game", "7DaysToDieServer.x86_64"), FAKE_7DTD);
        await Bun.sleep(50);
      }
      const log = await installed(id);
      if (env === "host") {
        expect(log).toContain("install: step 1/3: steamgamedl");
        expect(log).toContain("step 2/3 (command) skipped");
      } else {
        expect(log).toContain("step 1/3 (steamgamedl) skipped");
        expect(log).toContain("install: step 2/3: command");
      }
      expect(log).toContain("install: step 3/3: command");
      await node.json("POST", `/daemon/server/${id}/start?wait=true`);
      await eventually(async () => (await consoleText(id)).includes(`connected to the telnet console at 127.0.0.1:${port}`), 20_000, "the telnet console");
      await node.call("POST", `/daemon/server/${id}/console`, "say hello");
      await eventually(async () => (await consoleText(id)).includes("Executing command 'say hello' by Telnet"), 10_000, "the reply");
      expect(await consoleText(id)).toContain("Logon successful.");
      await node.json("POST", `/daemon/server/${id}/stop?wait=true`);
      const after = await consoleText(id);
      expect(after).toContain("Shutting server down...");
      expect(after).toContain("7 Days to Die: world saved, shutting down");
      expect(after).toContain("exited with code 0");
    }, 60_000);
  }
});
