// A docker server whose template asks for the node's own network (network mode host, as
// PufferPanel's Docker templates do) gets a network of its own where the node makes networks, as
// a server on the node itself does: the attacker holds a server's files and its start, and its
// container (busybox, as the server's user) tries the node's API and SFTP and a service of the
// node's on every address (through its gateway and the node's address), and another server's
// address on a port that server did not publish, and a cloud's metadata service (a link-local
// address beyond the node). Each attempt prints "ATTACK-WORKED <what>" or
// "blocked <what>". The container still downloads from the internet (test/helpers/wan.ts) and is
// reached on its published port from the internet and from the node, after the node restarts too
// (the container outlives it) and after its network was removed behind the node's back; deleting
// the server takes its network away.
//
// A template editor cannot name the node's network, another container's or one of Kiln's as a
// docker network (networkName "host", "container:…", "kiln-install"): the template is refused
// with the catalogue's error, and so is such a definition sent to the node; nor spell one by its
// Engine id (or a prefix of it, which the Engine also takes): the start is refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eventually, echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { freePort } from "../helpers/process";
import { canMakeWan, startWan, type Wan } from "../helpers/wan";
import { ensureTestImage, hasDocker } from "../helpers/docker";
import { loginAs, testPanel } from "../helpers/app";
import { SCOPES } from "../../core/scopes";

const enabled = canMakeWan() && hasDocker();
let t: TestNode;
let wan: Wan;
let url = "";
let metadata = "";
let image = "";

beforeAll(async () => {
  if (!enabled) return;
  image = await ensureTestImage();
  t = await startTestNode({ stopTimeoutMs: 3000 });
  wan = await startWan();
  url = await wan.serve({ "game.txt": "game data" });
  metadata = await wan.serveLinkLocal({ "latest/meta-data/iam": "the machine's credentials" });
}, 60_000);
afterAll(async () => {
  if (!enabled) return;
  for (const id of ["victim", "attacker"]) await t.call("DELETE", `/daemon/server/${id}`).catch(() => undefined);
  await t.stop();
  await wan.stop();
});

const consoleText = async (node: TestNode, id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

/** A docker server in network mode host running `script` in busybox's sh. */
function dockerServer(script: string, data: Record<string, number | string>) {
  return {
    ...echoTemplate({ command: `sh -c '${script}'` }, { type: "docker", image, networkMode: "host" }),
    install: [],
    data: Object.fromEntries(Object.entries(data).map(([name, value]) => [name, { type: typeof value === "number" ? "integer" : "string", value }])),
  };
}

/** What a TCP connection to `host:port` from the node (or the internet) reads before it closes. */
async function read(where: "node" | "wan", host: string, port: number): Promise<string> {
  const argv = ["busybox", "nc", "-w", "3", host, String(port)];
  const proc = where === "wan" ? wan.spawn(argv) : Bun.spawn(argv, { stdout: "pipe", stdin: "ignore" });
  return (await new Response(proc.stdout as ReadableStream).text()).trim();
}

/** The Engine's networks and the node's bridges that name a server. */
function leftFor(id: string): string[] {
  const networks = Bun.spawnSync(["docker", "network", "ls", "--format", "{{.Name}}"]).stdout.toString().split("\n");
  return networks.filter((name) => name.startsWith("kiln-srv-") && name.endsWith(`-${id}`));
}

describe.if(enabled)("a docker server that asks for the node's network", () => {
  test("gets one of its own: neither the node's services nor another server, yet the internet and its published port, after a node restart too", async () => {
    const [published, hidden, everywhere, own] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    // A service of the node's on every address, as a panel or a remote node's API listens.
    const listener = Bun.listen({ hostname: "0.0.0.0", port: everywhere, socket: { open: (s) => void s.end("the node's service\n"), data() {} } });
    let again: TestNode | null = null;
    try {
      await t.json("PUT", "/daemon/server/victim", dockerServer(`nc -ll -p ${published} -e echo I am victim & nc -ll -p ${hidden} -e echo hidden & echo serving; wait`, { port: published, hiddenSlot: String(hidden) }));
      await t.json("POST", "/daemon/server/victim/start?wait=true");
      await eventually(async () => (await consoleText(t, "victim")).includes("serving"), 20_000, "the victim to listen");
      const victimAddress = (t.node as { network?: { server(id: string): { address: string | null } } }).network?.server("victim").address;
      expect(victimAddress).toMatch(/^\d+\.\d+\.\d+\.\d+$/);

      const reach = (what: string, host: string, port: number) => `if nc -w 3 ${host} ${port} </dev/null >/dev/null 2>&1; then echo ATTACK-WORKED ${what}; else echo blocked ${what}; fi`;
      const attack = [
        "gateway=$(ip route | awk \"/default/ {print \\$3}\")",
        "echo gateway $gateway",
        reach("node-api-gateway", "$gateway", t.node.port),
        reach("node-sftp-gateway", "$gateway", t.node.sftpPort),
        reach("all-addresses-service-gateway", "$gateway", everywhere),
        reach("all-addresses-service-node-address", wan.node, everywhere),
        reach("node-api-node-address", wan.node, t.node.port),
        reach("other-server-hidden-port", victimAddress!, hidden),
        reach("link-local-metadata", new URL(metadata).hostname, 80),
        `echo "public port of the other: $(nc -w 3 ${wan.node} ${published} </dev/null)"`,
        `wget -q -O - ${url}/game.txt | grep -q "game data" && echo downloaded || echo download broken`,
        "echo attack-done",
        "sleep 600",
      ].join("; ");
      await t.json("PUT", "/daemon/server/attacker", dockerServer(attack.replaceAll("'", "'\\''"), { port: own }));
      await t.json("POST", "/daemon/server/attacker/start?wait=true");
      await eventually(async () => (await consoleText(t, "attacker")).includes("attack-done"), 60_000, "the attack to finish");
      const out = await consoleText(t, "attacker");
      expect(out).toMatch(/gateway \d+\.\d+\.\d+\.\d+/);
      expect(out).not.toContain("ATTACK-WORKED");
      for (const what of ["node-api-gateway", "node-sftp-gateway", "all-addresses-service-gateway", "all-addresses-service-node-address", "node-api-node-address", "other-server-hidden-port", "link-local-metadata"]) {
        expect(out).toContain(`blocked ${what}`);
      }
      // Published ports are the servers' way in, for another server (a proxy's backends) as for anyone.
      expect(out).toContain("public port of the other: I am victim");
      expect(out).toContain("downloaded");
      expect(await read("node", "127.0.0.1", published)).toBe("I am victim");
      expect(await read("wan", wan.node, published)).toBe("I am victim");
      // Not published, not reachable.
      expect(await read("wan", wan.node, hidden)).toBe("");

      // The Engine takes a network's id, or a prefix of it, for its name: a definition naming the
      // victim's network so does not join it.
      const id = Bun.spawnSync(["docker", "network", "inspect", "-f", "{{.Id}}", leftFor("victim")[0]!]).stdout.toString().trim();
      for (const [i, networkName] of [id.slice(0, 12), id, id.slice(0, 1)].entries()) {
        await t.json("PUT", `/daemon/server/joiner${i}`, { ...dockerServer("sleep 60", {}), environment: { type: "docker", image, networkMode: "bridge", networkName } });
        const joined = await t.call("POST", `/daemon/server/joiner${i}/start?wait=true`);
        expect((await joined.json()).error).toMatchObject({ code: "ErrNotFound", metadata: { field: "environment.networkName" } });
        await t.call("DELETE", `/daemon/server/joiner${i}`);
      }
      expect(await read("node", "127.0.0.1", published)).toBe("I am victim");

      // A step that runs on the node itself (SteamCMD) while the container runs waits for it to
      // stop rather than take the container's network away (its clients would be cut off).
      const steamcmd = join(t.config.dataDir, "binaries", "steamcmd");
      mkdirSync(steamcmd, { recursive: true });
      writeFileSync(join(steamcmd, "steamcmd.sh"), "#!/bin/sh\necho steamcmd ran\n", { mode: 0o755 });
      const task = await t.json("POST", "/daemon/server/victim/tasks", { name: "update", cronSchedule: null, operations: [{ type: "steamgamedl", appId: "1" }] });
      expect((await t.call("POST", `/daemon/server/victim/tasks/${task.id}/run`)).status).toBe(202);
      await eventually(async () => (await consoleText(t, "victim")).includes("ErrServerBusy") || (await consoleText(t, "victim")).includes("waits until it stops"), 10_000, "the task to be refused");
      expect(await read("node", "127.0.0.1", published)).toBe("I am victim");

      // A network console on the container's own loopback (RCON, telnet bound to 127.0.0.1) is
      // reached by the node through the container's address, and by nothing else.
      const consolePort = await freePort();
      const withConsole = dockerServer(`echo console-ready > ready.txt; httpd -f -p 127.0.0.1:${consolePort} -h . & echo serving; wait`, {});
      await t.json("PUT", "/daemon/server/consoled", { ...withConsole, run: { ...withConsole.run, stdin: { type: "telnet", ip: "127.0.0.1", port: String(consolePort) } } });
      await t.json("POST", "/daemon/server/consoled/start?wait=true");
      const consoled = (t.node as { network?: { server(id: string): { address: string | null } } }).network?.server("consoled").address;
      await eventually(async () => (await fetch(`http://${consoled}:${consolePort}/ready.txt`).then((r) => r.text(), () => "")).trim() === "console-ready", 20_000, "the console port through the container's address");
      await t.call("DELETE", "/daemon/server/consoled");

      // The container outlives the node; the next run takes its network up and publishes its port again.
      again = await t.restart();
      t = again;
      expect((await again.json("GET", "/daemon/server/victim/status")).running).toBe(true);
      await eventually(async () => (await read("node", "127.0.0.1", published)) === "I am victim", 10_000, "the port published again");
      expect(await read("wan", wan.node, published)).toBe("I am victim");
      expect(leftFor("victim")).toHaveLength(1);

      // Its network removed behind the node's back while it is stopped (`docker network prune`): the next start makes it anew.
      await again.json("POST", "/daemon/server/victim/kill?wait=true");
      expect(Bun.spawnSync(["docker", "network", "rm", ...leftFor("victim")]).exitCode).toBe(0);
      await again.json("POST", "/daemon/server/victim/start?wait=true");
      await eventually(async () => (await read("node", "127.0.0.1", published)) === "I am victim", 20_000, "the port published on the new network");
      expect(leftFor("victim")).toHaveLength(1);

      // Deleted, the server's network goes with it.
      expect((await again.call("DELETE", "/daemon/server/victim")).status).toBeLessThan(300);
      expect(leftFor("victim")).toEqual([]);
    } finally {
      listener.stop(true);
    }
  }, 150_000);
});

describe("a docker network a definition may name", () => {
  const refusedNames = ["host", "none", "container:kiln-victim", "kiln-install", "kiln-step-0123456789-7", "kiln-srv-0123456789-victim"];

  test("a template editor cannot name the node's network, another container's or one of Kiln's", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit, SCOPES.serversCreate]);
    for (const networkName of refusedNames) {
      const body = { ...echoTemplate({}, { type: "docker", image: "kiln-test/busybox", networkMode: "bridge", networkName }), name: "joined" };
      const res = await panel.request("/api/templates/joined", { token, method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
      expect(res.status).toBe(400);
      const { error } = await res.json();
      expect(error.code).toMatch(/^Err/);
      expect(JSON.stringify(error)).toContain("networkName");
      expect((await panel.request("/api/templates/joined", { token })).status).toBe(404);
    }
    const fine = { ...echoTemplate({}, { type: "docker", image: "kiln-test/busybox", networkMode: "bridge", networkName: "game_net" }), name: "joined" };
    expect((await panel.request("/api/templates/joined", { token, method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(fine) })).status).toBe(200);
  });

  test("the node refuses such a definition too", async () => {
    const node = await startTestNode();
    try {
      for (const networkName of refusedNames) {
        const res = await node.call("PUT", "/daemon/server/joined", echoTemplate({}, { type: "docker", image: "kiln-test/busybox", networkMode: "bridge", networkName }));
        expect(res.status).toBe(400);
        expect(JSON.stringify(await res.json())).toContain("networkName");
        expect((await node.call("GET", "/daemon/server/joined")).status).toBe(404);
      }
    } finally {
      await node.stop();
    }
  });
});
