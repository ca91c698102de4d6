// A node on "another machine": the panel and a separate `kiln daemon` process, each with its own
// data folder and port. The node is added through the API, configured from its deployment
// answer, and a server on it is created, started, talked to (HTTP and socket) and deleted.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KILN, freePort, startKiln, tempDir } from "./helpers/process";
import { echoTemplate, eventually } from "./helpers/node";

const ADMIN = { email: "admin@example.com", password: "a-long-password" };
let panel: Awaited<ReturnType<typeof startKiln>>;
let daemon: Awaited<ReturnType<typeof startKiln>> | undefined;
let base = "";
let token = "";
const daemonData = tempDir("kiln-remote-");

const call = (method: string, path: string, body?: unknown) =>
  fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": typeof body === "string" ? "text/plain" : "application/json" }) },
    body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
  });

beforeAll(async () => {
  const port = await freePort();
  panel = await startKiln([...KILN, "panel"], { KILN_DATA: tempDir(), KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_LOCAL_NODE: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password }, /panel listening on/);
  base = `http://127.0.0.1:${port}`;
  const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) });
  token = (await login.json()).session;
});
afterAll(() => {
  daemon?.proc.kill("SIGTERM");
  panel.proc.kill("SIGTERM");
});

describe("a remote node", () => {
  test("added by API, started from its deployment config, runs servers through the panel", async () => {
    const nodePort = await freePort();
    const created = await call("POST", "/api/nodes", { name: "far-away", publicHost: "127.0.0.1", publicPort: nodePort, privateHost: "127.0.0.1", privatePort: nodePort, sftpPort: await freePort() });
    expect(created.status).toBe(201);
    const nodeId = (await created.json()).id;
    const deployment = await (await call("GET", `/api/nodes/${nodeId}/deployment`)).json();
    expect(deployment.command).toBe("kiln daemon");
    // The config as the page shows it, with the data folder of this "machine".
    const configFile = join(daemonData, "daemon.json");
    writeFileSync(configFile, JSON.stringify({ ...deployment.config, host: "127.0.0.1", data: join(daemonData, "data"), panelUrl: base }));
    daemon = await startKiln([...KILN, "daemon"], { KILN_DAEMON_CONFIG: configFile }, /node listening on/);

    expect((await call("PUT", "/api/templates/echo", echoTemplate())).status).toBe(200);
    const res = await call("POST", "/api/servers", { name: "remote echo", node: nodeId, template: "echo", environment: { type: "standard" }, variables: { greeting: "from afar" } });
    expect(res.status).toBe(201);
    const { id } = await res.json();
    expect(existsSync(join(daemonData, "data", "servers", `${id}.json`))).toBe(true);

    expect((await call("POST", `/proxy/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    await eventually(async () => (await (await call("GET", `/proxy/daemon/server/${id}/status`)).json()).running, 10_000, "running");
    const consoleText = async () => ((await (await call("GET", `/proxy/daemon/server/${id}/console?time=0`)).json()).logs as string[]).join("");
    await eventually(async () => (await consoleText()).includes("hello from afar"), 10_000, "output of the installed server");

    // The socket through the panel reaches the remote node too.
    const ws = new WebSocket(`${base.replace("http", "ws")}/proxy/daemon/socket/${id}`, { headers: { authorization: `Bearer ${token}` } } as any);
    const received: string[] = [];
    ws.onmessage = (e) => received.push(String(e.data));
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = reject)));
    ws.send(JSON.stringify({ type: "console", data: { command: "over the socket" } }));
    await eventually(() => received.some((m) => m.includes("got over the socket")), 5000, "socket round trip");
    ws.close();
    expect((await call("POST", `/proxy/daemon/server/${id}/console`, "over http")).status).toBe(204);
    await eventually(async () => (await consoleText()).includes("got over http"), 5000, "HTTP round trip");
    const stats = await (await call("GET", `/proxy/daemon/server/${id}/stats`)).json();
    expect(stats.memory).toBeGreaterThan(0);

    expect((await call("DELETE", `/api/servers/${id}`)).status).toBe(204);
    expect(existsSync(join(daemonData, "data", "servers", `${id}.json`))).toBe(false);
    expect((await (await call("GET", "/api/servers")).json()).paging.total).toBe(0);
  }, 60_000);
});
