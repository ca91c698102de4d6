// Eggs' features end to end on the real Docker Engine, with Kiln's own template (no egg file): the
// template uses the egg run-time fields (containerscript, configfile with each parser, ready
// markers, stop by signal, the docker "egg" conventions); a server is created from it through
// the panel, its install script runs in the installer container and writes into the server's
// folder, the config files are rewritten before the start, the ready marker turns "starting"
// into running, a console command reaches the process and ^C (SIGINT) stops it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { hasDocker } from "./helpers/docker";
import { ensureEggImages, EGG_INSTALLER_IMAGE, EGG_RUNTIME_IMAGE } from "./helpers/egg-images";
import { eventually, startTestNode } from "./helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "./helpers/panel-node";
import { putTemplate } from "../server/services/templates";

const docker = hasDocker();

/** What the install script leaves: a game that prints its config, says Done, echoes commands and ends on ^C. */
const INSTALL_SCRIPT = String.raw`#!/bin/ash
cd /mnt/server
cat > start.sh <<'GAME'
#!/bin/sh
echo "booting $1 on port $SERVER_PORT as $P_SERVER_UUID"
cat server.properties
sleep 2
echo "[00:00:01 INFO]: Done (2.0s)! For help, type \"help\""
trap 'echo "stopped by ^C"; exit 0' INT
while read line; do echo "got: $line"; done
GAME
printf 'server-port=1\nmotd=old\n# a comment the game wrote\n' > server.properties
printf 'listeners:\n  - host: 0.0.0.0:1\nservers:\n  lobby:\n    address: localhost:25565\n' > config.yml
printf '[Server]\nPort = 1\n' > settings.ini
printf '<Settings>\n  <Port>1</Port>\n</Settings>\n' > Settings.xml
printf 'sv_port 1\nsv_name old\n' > server.cfg
echo "installed for $GREETING (uid $(id -u)) in $(pwd)"
`;

const EGG_RUN_TEMPLATE = {
  display: "Egg run-time fields (Kiln's own test template)",
  type: "other",
  install: [{ type: "containerscript", image: EGG_INSTALLER_IMAGE, entrypoint: "ash", script: INSTALL_SCRIPT }],
  run: {
    command: "sh ./start.sh {{GREETING}}",
    stopCode: 2,
    readyMarkers: ['regex:^\\[\\d+:\\d+:\\d+ INFO\\]: Done \\(\\d+\\.\\d+s\\)!'],
    pre: [
      { type: "configfile", file: "server.properties", parser: "properties", replace: [{ match: "server-port", value: "{{server.build.default.port}}" }, { match: "motd", value: "{{env.MOTD}}" }] },
      { type: "configfile", file: "config.yml", parser: "yaml", replace: [{ match: "listeners[0].host", value: "0.0.0.0:{{server.build.default.port}}" }, { match: "servers.*.address", ifValue: "regex:^(127\\.0\\.0\\.1|localhost)(:\\d{1,5})?$", value: "{{config.docker.interface}}$2" }] },
      { type: "configfile", file: "config/game.json", parser: "json", replace: [{ match: "network.port", value: "{{server.allocations.default.port}}" }, { match: "name", value: "{{env.MOTD}}" }] },
      { type: "configfile", file: "settings.ini", parser: "ini", replace: [{ match: "Server.Port", value: "{{server.build.default.port}}" }, { match: "Server.Memory", value: "{{server.build.memory}}" }] },
      { type: "configfile", file: "Settings.xml", parser: "xml", replace: [{ match: "Settings.Port", value: "{{server.build.default.port}}" }, { match: "Settings.Name", value: "[value='{{env.MOTD}}']" }] },
      { type: "configfile", file: "/server.cfg", parser: "file", replace: [{ match: "sv_port", value: "sv_port {{server.build.default.port}}" }, { match: "sv_name", value: 'sv_name "{{env.MOTD}}"' }] },
    ],
  },
  data: {
    GREETING: { display: "Greeting", type: "string", value: "hello", userEdit: true },
    MOTD: { display: "Message of the day", type: "string", value: "A <Kiln> \"server\": yes", userEdit: true },
    port: { display: "Port", type: "integer", value: 27015, userEdit: false },
  },
  environment: { type: "docker", image: EGG_RUNTIME_IMAGE, conventions: "egg", networkMode: "bridge" },
};

let t: PanelWithNode;
let id: string;
beforeAll(async () => {
  if (!docker) return;
  await ensureEggImages();
  t = await panelWithNode();
  await putTemplate(t.panel.db, "egg-run", EGG_RUN_TEMPLATE);
  const res = await t.panel.request("/api/servers", { token: t.admin.token, ...jsonInit("POST", { name: "egg run", node: t.nodeId, template: "egg-run", environment: { type: "docker" } }) });
  expect(res.status).toBe(201);
  id = (await res.json()).id;
}, 120_000);
afterAll(async () => {
  if (!docker) return;
  await t.panel.request(`/proxy/daemon/server/${id}/kill`, { token: t.admin.token, method: "POST" }).catch(() => undefined);
  await t.node.stop();
});

const proxy = (path: string, init: RequestInit = {}) => t.panel.request(`/proxy/daemon/server/${id}${path}`, { token: t.admin.token, ...init });
const status = async () => (await (await proxy("/status")).json()) as { running: boolean; installing: boolean; starting?: boolean };
const consoleText = async () => ((await (await proxy("/console?time=0")).json()).logs as string[]).join("");
const file = (name: string) => readFileSync(t.node.folder(id, name), "utf8");

describe.if(docker)("a template with the egg run-time fields, on the Docker Engine", () => {
  test("install: the script runs in the installer container as root, with the variables in its environment, and writes the server's folder", async () => {
    expect((await proxy("/install?wait=true", { method: "POST" })).status).toBe(204);
    const text = await consoleText();
    expect(text).toContain("installed for hello (uid 0) in /mnt/server");
    expect(file("start.sh")).toContain("Done (2.0s)!");
    // The installer's container is gone.
    const left = Bun.spawnSync(["docker", "ps", "-a", "--filter", `label=kiln.server=${id}`, "-q"]).stdout.toString().trim();
    expect(left).toBe("");
  }, 120_000);

  test("start: config files rewritten by each parser, 'starting' until the marker, then running", async () => {
    expect((await proxy("/start", { method: "POST" })).status).toBe(202);
    await eventually(async () => (await status()).starting === true && (await status()).running, 20_000, "the booting state");
    await eventually(async () => {
      const now = await status();
      return now.running && now.starting === undefined;
    }, 20_000, "the ready marker");
    const text = await consoleText();
    expect(text).toContain("container~ sh ./start.sh hello");
    expect(text).toContain(`booting hello on port 27015 as ${id}`);
    expect(text).toContain("its ready marker appeared");

    expect(file("server.properties")).toBe('server-port=27015\nmotd=A <Kiln> "server": yes\n# a comment the game wrote\n');
    const yaml = Bun.YAML.parse(file("config.yml")) as { listeners: Array<{ host: string }>; servers: { lobby: { address: string } } };
    expect(yaml.listeners[0]!.host).toBe("0.0.0.0:27015");
    expect(yaml.servers.lobby.address).toMatch(/^\d+\.\d+\.\d+\.\d+:25565$/);
    expect(yaml.servers.lobby.address).not.toStartWith("localhost");
    expect(JSON.parse(file("config/game.json"))).toEqual({ network: { port: 27015 }, name: 'A <Kiln> "server": yes' });
    expect(file("settings.ini")).toBe("[Server]\nPort = 27015\nMemory = 0\n");
    expect(file("Settings.xml")).toBe('<Settings>\n  <Port>27015</Port>\n<Name value="A &lt;Kiln&gt; &quot;server&quot;: yes"/></Settings>\n');
    expect(file("server.cfg")).toBe('sv_port 27015\nsv_name "A <Kiln> "server": yes"\n');
  }, 60_000);

  test("a console command reaches the process; ^C (stopCode 2) stops it cleanly", async () => {
    expect((await proxy("/console", { method: "POST", body: "say hi" })).status).toBe(204);
    await eventually(async () => (await consoleText()).includes("got: say hi"), 10_000, "the command's echo");
    expect((await proxy("/stop?wait=true", { method: "POST" })).status).toBe(204);
    const text = await consoleText();
    expect(text).toContain("stopped by ^C");
    expect(text).toContain("the server exited with code 0");
    expect(await status()).toEqual({ running: false, installing: false });
  }, 60_000);
});

// The same, from an egg file of Kiln's own (test/fixtures/egg-run/busybox-game.json, PTDL_v2):
// the panel converts it on PUT /api/templates/{id} (egg-convert's converter), and the result runs.
describe.if(docker)("an egg, converted on import, on the Docker Engine", () => {
  let eggServer: string;
  const eggProxy = (path: string, init: RequestInit = {}) => t.panel.request(`/proxy/daemon/server/${eggServer}${path}`, { token: t.admin.token, ...init });
  const eggConsole = async () => ((await (await eggProxy("/console?time=0")).json()).logs as string[]).join("");
  const eggFile = (name: string) => readFileSync(t.node.folder(eggServer, name), "utf8");

  test("import converts it to a template with the run-time fields", async () => {
    const egg = await Bun.file(join(import.meta.dir, "fixtures", "egg-run", "busybox-game.json")).json();
    const put = await t.panel.request("/api/templates/busybox-game", { token: t.admin.token, ...jsonInit("PUT", egg) });
    expect(put.status).toBeLessThan(300);
    const template = await (await t.panel.request("/api/templates/busybox-game", { token: t.admin.token })).json();
    expect(template.environment).toMatchObject({ type: "docker", image: EGG_RUNTIME_IMAGE, conventions: "egg" });
    expect(template.run).toMatchObject({ command: "sh ./start.sh ${GREETING}", stopCode: 2, readyMarkers: [")! For help, type "] });
    expect(template.install).toEqual([expect.objectContaining({ type: "containerscript", image: EGG_INSTALLER_IMAGE, entrypoint: "ash" })]);
    expect(template.run.pre.map((step: { parser: string }) => step.parser).sort()).toEqual(["file", "ini", "json", "properties", "xml", "yaml"]);
    expect(template.fileDenylist).toEqual(["*.secret"]);
    // Eggs take the port from the panel's allocation; the converter makes Kiln's "port" variable,
    // with no default, so creation must give one.
    expect(template.data.port).toMatchObject({ type: "integer", required: true, userEdit: true });
    const body = { name: "egg file", node: t.nodeId, template: "busybox-game", environment: { type: "docker" }, limits: { memoryMiB: 256 } };
    const withoutPort = await t.panel.request("/api/servers", { token: t.admin.token, ...jsonInit("POST", body) });
    expect(withoutPort.status).toBe(400);
    expect((await withoutPort.json()).error.code).toBe("ErrFieldRequired");
    const res = await t.panel.request("/api/servers", { token: t.admin.token, ...jsonInit("POST", { ...body, variables: { port: 27016 } }) });
    expect(res.status).toBe(201);
    eggServer = (await res.json()).id;
  }, 60_000);

  test("install, start (config files, Starting until the done line), a command, the denylist, ^C", async () => {
    expect((await eggProxy("/install?wait=true", { method: "POST" })).status).toBe(204);
    expect(await eggConsole()).toContain("installed for hello");
    expect((await eggProxy("/start", { method: "POST" })).status).toBe(202);
    await eventually(async () => (await (await eggProxy("/status")).json()).starting === true, 20_000, "the booting state");
    await eventually(async () => {
      const now = await (await eggProxy("/status")).json();
      return now.running && now.starting === undefined;
    }, 20_000, "the done line");
    expect(await eggConsole()).toContain("booting hello on port 27016 with 256 MiB");
    expect(eggFile("server.properties")).toBe("server-port=27016\nmotd=An egg, hatched by Kiln\n");
    expect((Bun.YAML.parse(eggFile("config.yml")) as { servers: { lobby: { address: string } } }).servers.lobby.address).toMatch(/^\d+\.\d+\.\d+\.\d+:25565$/);
    expect(JSON.parse(eggFile("game.json"))).toEqual({ network: { port: 27016 }, name: "An egg, hatched by Kiln" });
    expect(eggFile("settings.ini")).toBe("[Server]\nPort = 27016\n");
    expect(eggFile("Settings.xml")).toContain("<Port>27016</Port>");
    expect(eggFile("server.cfg")).toBe("sv_port 27016\n");

    const denied = await eggProxy("/file/admin.secret");
    expect(denied.status).toBe(403);
    expect((await denied.json()).error.code).toBe("ErrFileDenied");

    expect((await eggProxy("/console", { method: "POST", body: "list" })).status).toBe(204);
    await eventually(async () => (await eggConsole()).includes("got: list"), 10_000, "the command's echo");
    expect((await eggProxy("/stop?wait=true", { method: "POST" })).status).toBe(204);
    expect(await eggConsole()).toContain("stopped by ^C");
  }, 90_000);
});

// A containerscript is an install step any template may use: a server that runs on the node
// itself gets its install script run in a container too, on the node's engine; a node without
// an engine refuses the step and says why.
describe("containerscript for a server outside docker", () => {
  const template = (id: string) => ({
    display: "host server with an install container",
    install: [{ type: "containerscript", image: EGG_INSTALLER_IMAGE, entrypoint: "ash", script: 'echo "made by $GREETING" > /mnt/server/made.txt\nexit 0\n' }],
    run: { command: "true" },
    data: { GREETING: { type: "string", value: `installer ${id}` } },
    environment: { type: "standard" },
  });

  test.if(docker)("runs on the node's engine and writes the server's folder, owned by the server's user afterwards", async () => {
    const node = t.node;
    await node.json("PUT", "/daemon/server/hostscript", template("one"));
    expect((await node.call("POST", "/daemon/server/hostscript/install?wait=true")).status).toBe(204);
    const made = node.folder("hostscript", "made.txt");
    expect(readFileSync(made, "utf8")).toBe("made by installer one\n");
    expect(statSync(made).uid).toBe(statSync(node.folder("hostscript")).uid);
  }, 60_000);

  test("a node without a Docker Engine refuses it, saying so", async () => {
    const node = await startTestNode({ dockerSocket: "/nonexistent/docker.sock" });
    try {
      await node.json("PUT", "/daemon/server/noengine", template("two"));
      const res = await node.call("POST", "/daemon/server/noengine/install?wait=true");
      const { error } = await res.json();
      expect(error).toMatchObject({ code: "ErrStepFailed", metadata: { step: "containerscript" } });
      expect(error.metadata.reason).toContain("no Docker Engine answers on this node");
    } finally {
      await node.stop();
    }
  });
});
