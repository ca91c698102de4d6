// A server's port variable set to a port its node's own machine uses: the node's SFTP port, its API
// port, a port another program of the machine listens on (TCP, or UDP bound). Published, it would
// take every connection to that port, from outside and from the node itself: SFTP logins with their
// passwords, the panel's calls to its node. The attacker holds what a server's user holds:
// editServerData (the port is userEdit, as in every template of the library), startServer, and its
// files (its run command stands for its own code). Each start is refused with the catalogue error
// naming the port, nothing is published (the node's nftables map), and the real listener still
// answers its clients. Also: a variable whose name only ends like "port" (UPLOAD_CRASH_REPORT)
// publishes nothing, and on a node with a pool a port variable the panel did not bind before
// (Bedrock's portv6) cannot leave the server's allocations.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import type { Subprocess } from "bun";
import { panelWithNode, jsonInit, userWithFlags, type PanelWithNode } from "../helpers/panel-node";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { freePort } from "../helpers/process";
import { partAvailable } from "../helpers/require-part";
import { loginAs } from "../helpers/app";
import { putTemplate } from "../../server/services/templates";
import { addToPool } from "../../server/services/allocations/pool";
import { fetchDefinition } from "../../server/services/servers";
import { decodeDaemonLine } from "../../core/live/daemon-message";
import { SCOPES } from "../../core/scopes";

const enabled = partAvailable("a network namespace per server (root, ip, nft)", () => process.getuid?.() === 0 && Bun.which("ip") !== null && Bun.which("nft") !== null);

/** The attacker's server: listens on its port and greets whoever connects as the harvester would. */
const HARVEST = String.raw`use IO::Socket::INET; $| = 1; my $l = IO::Socket::INET->new(LocalAddr => "0.0.0.0", LocalPort => $ARGV[0], Listen => 5, ReuseAddr => 1) or die "listen: $!"; print "listening $ARGV[0]\n"; while (my $c = $l->accept) { print $c "SSH-2.0-attacker-harvester\n"; close $c; }`;

/** The first line 127.0.0.1:port answers (to `send`, if given), asked from the node's machine ("" when nothing answers). */
async function firstLine(port: number, send = ""): Promise<string> {
  const proc = Bun.spawn(["perl", "-MIO::Socket::INET", "-e", `my $s = IO::Socket::INET->new(PeerAddr => "127.0.0.1", PeerPort => ${port}, Timeout => 3) or exit 1; print $s $ARGV[0]; print scalar <$s>;`, send], { stdout: "pipe" });
  return (await new Response(proc.stdout).text()).trim();
}

type Refusal = { status: number; error: { code: string; msg: string; metadata: Record<string, unknown> } };

describe.if(enabled)("a server's port on its node's own ports", () => {
  let node: TestNode;
  let ctx: PanelWithNode;
  const made: string[] = [];
  const holders: Subprocess[] = [];

  beforeAll(async () => {
    node = await startTestNode({ stopTimeoutMs: 2000 });
    ctx = await panelWithNode(node);
    expect(node.node.network.support.available).toBe(true);
    const port = { display: "Port", desc: "", type: "integer", value: 25565, required: true, userEdit: true };
    await putTemplate(ctx.panel.db, "game", { ...echoTemplate({ command: "perl harvest.pl ${port}", stop: "" }), name: "game", install: [], data: { port } });
  }, 30_000);
  afterAll(async () => {
    // Through the node's own objects: a hijacked API port would not answer a call.
    for (const id of made) await node.node.manager.find(id)?.kill().catch(() => undefined);
    for (const holder of holders) holder.kill();
    await node.stop();
  });

  /** A new server of the game template and a user holding editServerData and startServer on it. */
  async function victimServer(name: string) {
    const response = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name, node: ctx.nodeId, template: "game", environment: { type: "standard" } }) });
    expect(response.status).toBe(201);
    const id = (await response.json()).id as string;
    made.push(id);
    writeFileSync(node.folder(id, "harvest.pl"), HARVEST);
    const user = await userWithFlags(ctx, id, ["editServerData", "startServer", "stopServer", "viewServerConsole"]);
    return { id, user };
  }

  /** The user sets the port and starts the server through the panel, as a browser's script does; the start's answer. */
  async function setAndStart(id: string, token: string, port: number): Promise<Refusal> {
    const set = await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token, ...jsonInit("POST", { data: { port } }) });
    expect(set.status).toBe(204);
    const start = await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { token, ...jsonInit("POST") });
    const text = await start.text();
    return { status: start.status, ...(text ? JSON.parse(text) : { error: { code: "", msg: "", metadata: {} } }) };
  }

  /** The ports the node's nftables map sends to its servers, as "tcp/25565". */
  async function published(): Promise<string[]> {
    const proc = Bun.spawn(["nft", "-j", "list", "map", "inet", node.node.network.name, "ports"], { stdout: "pipe" });
    const listing = JSON.parse(await new Response(proc.stdout).text()) as { nftables: Array<{ map?: { elem?: Array<[{ concat: [string, number] }, string]> } }> };
    return listing.nftables.flatMap((entry) => entry.map?.elem ?? []).map(([key]) => `${key.concat[0]}/${key.concat[1]}`);
  }

  /** What the node's console said of the refused start. */
  async function startFailure(id: string) {
    const lines = ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("").split("\n");
    return lines.map((line) => decodeDaemonLine(line).message).find((m) => m?.key === "daemon.startFailed")?.values?.reason;
  }

  async function expectRefused(id: string, refusal: Refusal, port: number, protocol: "tcp" | "udp", holder: string) {
    expect(refusal.status).toBe(409);
    expect(refusal.error.code).toBe("ErrPortInUse");
    expect(refusal.error.metadata).toEqual({ port, protocol, process: holder });
    expect(refusal.error.msg).toContain(`Port ${port}/${protocol} is already in use on this node by ${holder}`);
    expect(await startFailure(id)).toEqual({ key: "errors.ErrPortInUse", values: { port, protocol, process: holder } });
    expect((await node.json("GET", `/daemon/server/${id}/status`)).running).toBe(false);
    expect((await published()).filter((entry) => entry.endsWith(`/${port}`))).toEqual([]);
  }

  const nodeProcess = () => `${readFileSync("/proc/self/comm", "utf8").trim()} (pid ${process.pid})`;

  test("the node's SFTP port: refused, and SFTP logins still reach the node", async () => {
    const sftp = node.node.sftpPort;
    expect(await firstLine(sftp)).toStartWith("SSH-2.0-Kiln");
    const { id, user } = await victimServer("on-sftp");
    await expectRefused(id, await setAndStart(id, user.token, sftp), sftp, "tcp", nodeProcess());
    await Bun.sleep(500);
    expect(await firstLine(sftp)).toStartWith("SSH-2.0-Kiln");
  }, 30_000);

  test("the node's API port: refused, and the panel still reaches its node", async () => {
    const api = node.node.port;
    expect(await firstLine(api, "GET / HTTP/1.0\r\n\r\n")).toStartWith("HTTP/1.1 ");
    const { id, user } = await victimServer("on-api");
    await expectRefused(id, await setAndStart(id, user.token, api), api, "tcp", nodeProcess());
    await Bun.sleep(500);
    expect(await firstLine(api, "GET / HTTP/1.0\r\n\r\n")).toStartWith("HTTP/1.1 ");
    expect((await node.call("GET", "/daemon")).status).toBe(200);
  }, 30_000);

  test("a port a plain listener of the machine holds (sshd's, the panel's): refused, and the listener still answers", async () => {
    const port = await freePort();
    const listener = Bun.listen({ hostname: "0.0.0.0", port, socket: { open: (socket) => void socket.end("the machine's own service\n"), data() {} } });
    try {
      expect(await firstLine(port)).toBe("the machine's own service");
      const { id, user } = await victimServer("on-listener");
      // The listener is this test's (the node runs in it too): found through /proc all the same, as it is not one of the node's own ports.
      await expectRefused(id, await setAndStart(id, user.token, port), port, "tcp", nodeProcess());
      await Bun.sleep(500);
      expect(await firstLine(port)).toBe("the machine's own service");
    } finally {
      listener.stop(true);
    }
  }, 30_000);

  test("a UDP port another program of the machine has bound: refused, naming that program", async () => {
    const script = "const s = require('node:dgram').createSocket('udp4'); s.bind(0, '0.0.0.0', () => console.log(s.address().port)); setTimeout(() => {}, 60000);";
    const holder = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe" });
    holders.push(holder);
    const reader = holder.stdout.getReader();
    let text = "";
    while (!text.includes("\n")) text += new TextDecoder().decode((await reader.read()).value);
    const port = Number(text.trim());
    const name = readFileSync(`/proc/${holder.pid}/comm`, "utf8").trim();
    const { id, user } = await victimServer("on-udp");
    // Nothing listens on TCP there: the UDP socket alone refuses the port.
    await expectRefused(id, await setAndStart(id, user.token, port), port, "udp", `${name} (pid ${holder.pid})`);
  }, 30_000);

  test("a free port is still published, and the server is reached there", async () => {
    const port = await freePort();
    const { id, user } = await victimServer("on-free");
    const answer = await setAndStart(id, user.token, port);
    expect(answer.status).toBe(204);
    expect(await published()).toEqual(expect.arrayContaining([`tcp/${port}`, `udp/${port}`]));
    await eventually(async () => (await firstLine(port)).includes("attacker-harvester"), 10_000, "the server to answer on its own port");
    await node.node.manager.find(id)?.kill();
  }, 30_000);

  test("a variable whose name only ends like a port's (UPLOAD_CRASH_REPORT=1, crashReport=2) publishes nothing", async () => {
    const port = await freePort();
    const data = {
      port: { display: "Port", desc: "", type: "integer", value: port, required: true, userEdit: true },
      UPLOAD_CRASH_REPORT: { display: "Upload crash reports", desc: "", type: "string", value: "1", required: true, userEdit: true },
      crashReport: { display: "Crash report", desc: "", type: "integer", value: 2, required: true, userEdit: true },
      reportInterval: { display: "Report interval", desc: "", type: "integer", value: 60, required: true, userEdit: true },
    };
    await putTemplate(ctx.panel.db, "reporting", { ...echoTemplate({ command: "sleep 30", stop: "" }), name: "reporting", install: [], data });
    const response = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "reporting", node: ctx.nodeId, template: "reporting", environment: { type: "standard" } }) });
    expect(response.status).toBe(201);
    const id = (await response.json()).id as string;
    made.push(id);
    const user = await userWithFlags(ctx, id, ["editServerData", "startServer"]);
    const start = await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { token: user.token, ...jsonInit("POST") });
    expect(start.status).toBe(204);
    const ports = await published();
    expect(ports).toEqual(expect.arrayContaining([`tcp/${port}`, `udp/${port}`]));
    for (const number of [1, 2, 60]) expect(ports.filter((entry) => entry.endsWith(`/${number}`))).toEqual([]);
    await node.node.manager.find(id)?.kill();
  }, 30_000);
});

describe("a port variable on a node with a pool", () => {
  let node: TestNode;
  let ctx: PanelWithNode;
  let pool: number[];

  beforeAll(async () => {
    node = await startTestNode();
    ctx = await panelWithNode(node);
    const first = await freePort();
    pool = Array.from({ length: 8 }, (_, i) => first + i);
    await addToPool(ctx.panel.db, ctx.nodeId, { ports: `${pool[0]}-${pool.at(-1)}` });
    // Bedrock's shape (templates/minecraft-bedrock.json, PufferPanel's server-portv6): both ports the user's to edit.
    await putTemplate(ctx.panel.db, "bedrockish", { ...echoTemplate({ command: "sleep 30", stop: "" }), name: "bedrockish", install: [], data: {
      port: { display: "Port", desc: "", type: "integer", value: 19132, required: true, userEdit: true },
      portv6: { display: "Port (IPv6)", desc: "", type: "integer", value: 19133, required: true, userEdit: true },
    } });
  }, 30_000);
  afterAll(() => node.stop());

  const settingsForm = (id: string, token: string, fields: Record<string, string>) =>
    ctx.panel.request(`/server/${id}/settings`, { token, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" }, body: new URLSearchParams(fields).toString() });

  test("portv6 is filled from the server's allocations, and its user cannot move it off them", async () => {
    const response = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "bedrock", node: ctx.nodeId, template: "bedrockish", environment: { type: "standard" } }) });
    expect(response.status).toBe(201);
    const id = (await response.json()).id as string;
    const given = (await fetchDefinition(ctx.panel.db, id)).data;
    expect(pool).toContain(Number(given.port!.value));
    expect(pool).toContain(Number(given.portv6!.value));
    const user = await userWithFlags(ctx, id, ["editServerData", "startServer"]);
    const sftp = node.node.sftpPort;
    const free = pool.find((p) => p !== Number(given.port!.value) && p !== Number(given.portv6!.value))!;
    for (const value of [sftp, free, 19133]) {
      const data = await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { portv6: value } }) });
      expect(data.status).toBe(409);
      expect((await data.json()).error.code).toBe("ErrPortFromAllocation");
      expect((await settingsForm(id, user.token, { "var.portv6": String(value) })).status).toBe(409);
    }
    expect((await fetchDefinition(ctx.panel.db, id)).data.portv6!.value).toBe(given.portv6!.value);
  }, 30_000);

  test("a portv6 no allocation fills (a server made before it counted) takes only a port of the server's allocations", async () => {
    const response = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "older-bedrock", node: ctx.nodeId, template: "bedrockish", environment: { type: "standard" } }) });
    const id = (await response.json()).id as string;
    const before = (await fetchDefinition(ctx.panel.db, id)).data;
    // As a server made when only `port` was bound: one allocation held, portv6 outside it.
    const { schema } = await import("../../db");
    const { eq, and } = await import("drizzle-orm");
    await ctx.panel.db.update(schema.allocations).set({ serverId: null, isPrimary: false }).where(and(eq(schema.allocations.serverId, id), eq(schema.allocations.port, Number(before.portv6!.value)))).run();
    const user = await userWithFlags(ctx, id, ["editServerData"]);
    const free = pool.find((p) => p !== Number(before.port!.value))!;
    for (const value of [node.node.sftpPort, node.node.port, 22, free]) {
      const data = await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { portv6: value } }) });
      expect(data.status).toBe(409);
      expect((await settingsForm(id, user.token, { "var.portv6": String(value) })).status).toBe(409);
    }
    // Its value as it is stays (the settings form sends it back with every change), and its own allocation's port may be taken.
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { portv6: before.portv6!.value } }) })).status).toBe(204);
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { portv6: before.port!.value } }) })).status).toBe(204);
  }, 30_000);

  test("a server made before portv6 counted, holding an extra allocation: its settings still save, and portv6 still cannot leave its allocations", async () => {
    const response = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "legacy-bedrock", node: ctx.nodeId, template: "bedrockish", environment: { type: "standard" } }) });
    const id = (await response.json()).id as string;
    // As the panel left it then: portv6 at the template's 19133, the second allocation an extra port.
    const definition = await fetchDefinition(ctx.panel.db, id);
    const extra = Number(definition.data.portv6!.value);
    await node.json("POST", `/daemon/server/${id}`, { ...definition, data: { ...definition.data, portv6: { ...definition.data.portv6!, value: 19133 } }, extraPorts: [extra] });
    // The administrator's run flags and limits (the whole definition saved again) still save.
    const flags = await ctx.panel.request(`/server/${id}/flags`, { token: ctx.admin.token, method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" }, body: "flag=autostart" });
    expect(flags.status).toBeLessThan(400);
    expect((await fetchDefinition(ctx.panel.db, id)).run.autostart).toBe(true);
    const user = await userWithFlags(ctx, id, ["editServerData"]);
    expect((await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { portv6: 19133 } }) })).status).toBe(204);
    for (const value of [node.node.sftpPort, 19134]) {
      expect((await ctx.panel.request(`/proxy/daemon/server/${id}/data`, { token: user.token, ...jsonInit("POST", { data: { portv6: value } }) })).status).toBe(409);
    }
    expect((await fetchDefinition(ctx.panel.db, id)).data.portv6!.value).toBe(19133);
  }, 30_000);

  test("a creator who is no administrator cannot put portv6 outside the pool", async () => {
    const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
    for (const portv6 of [node.node.sftpPort, node.node.port]) {
      const response = await ctx.panel.request("/api/servers", { token: creator.token, ...jsonInit("POST", { name: `made-${portv6}`, node: ctx.nodeId, template: "bedrockish", environment: { type: "standard" }, variables: { portv6 } }) });
      expect(response.status).toBe(409);
      expect((await response.json()).error.code).toBe("ErrPortFromAllocation");
    }
  }, 30_000);
});

// A server sharing the machine's network (a Docker server in network mode host) can bind the
// node's port while the node is down (a restart), then answer the panel as the node. At start the
// node takes its ports back from a server's user; anyone else's holder is left to fail the start.
describe.if(process.getuid?.() === 0 && Bun.which("setpriv") !== null && Bun.which("perl") !== null)("the node's ports taken while it was down", () => {
  const SERVER_UID = 2_000_000_042;
  const listenAs = async (port: number, uid: number | null) => {
    const command = ["perl", "-e", HARVEST, String(port)];
    const proc = Bun.spawn(uid === null ? command : ["setpriv", `--reuid=${uid}`, `--regid=${uid}`, "--clear-groups", ...command], { stdout: "pipe", stderr: "ignore" });
    const reader = proc.stdout.getReader();
    const first = new TextDecoder().decode((await reader.read()).value ?? new Uint8Array());
    expect(first).toContain("listening");
    return proc;
  };

  test("a server's process holding the node's API port is ended and the node listens there", async () => {
    const port = await freePort();
    const squatter = await listenAs(port, SERVER_UID);
    const node = await startTestNode({ port });
    try {
      expect(await Promise.race([squatter.exited, Bun.sleep(2000).then(() => "still running")])).not.toBe("still running");
      expect(await firstLine(port, "GET /kiln-node/proof HTTP/1.0\r\n\r\n")).not.toContain("harvester");
      expect((await node.call("GET", "/daemon")).status).toBe(200);
    } finally {
      squatter.kill();
      await node.stop();
    }
  }, 30_000);

  test("control: a holder that is no server's is left alone, and the node's start fails", async () => {
    const port = await freePort();
    const other = await listenAs(port, null);
    try {
      await expect(startTestNode({ port })).rejects.toThrow();
      expect(await firstLine(port)).toContain("harvester");
    } finally {
      other.kill();
    }
  }, 30_000);
});
