// Two real `kiln panel --no-local-node` processes on one PostgreSQL database, behind a small
// round-robin balancer this test runs, serve one installation: a session made through one works
// through the other and through the balancer; a setting changed through one shows on the other at
// once; a socket held by one closes when the login ends through the other; failed logins are
// counted together; a job that must run once (webhook deliveries) runs once, and moves to the
// other panel within 30 s when its holder is killed with kill -9; a third panel that would run its
// local node beside them stops with one line naming --no-local-node. A real node serves both.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase, schema, type Db } from "../../db";
import { CLOSE_SESSION_ENDED } from "../../core/live";
import { KILN, freePort, tempDir } from "../helpers/process";
import { fileNode, jsonCall, killPanels, PANEL_ADMIN, sessionAt, startPanelProcess, type PanelProcess } from "../helpers/panel-process";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { version as VERSION } from "../../package.json";

const enabled = hasPostgres();
const ADMIN = PANEL_ADMIN;
type Panel = PanelProcess;

let url: string;
let db: Db;
let node: TestNode;
let a: Panel;
let b: Panel;
let balancer: ReturnType<typeof Bun.serve>;
let receiver: Receiver;
let token: string;
let serverId: string;
const panels: Panel[] = [];

async function startPanel(env: Record<string, string> = {}, args = ["--no-local-node"]): Promise<Panel> {
  const panel = await startPanelProcess(url, env, args);
  panels.push(panel);
  return panel;
}

const json = (method: string, body?: unknown, session = token) => jsonCall(method, body, session);
const login = (base: string) => sessionAt(base);
const holderOf = async (lease: string) => (await db.select().from(schema.leases).where(eq(schema.leases.name, lease)).get())?.holder;

describe.if(enabled)("two panels on one PostgreSQL database", () => {
  beforeAll(async () => {
    url = await freshPostgresDatabase();
    db = await openDatabase(url);
    // Round robin over the panels, no stickiness: each request goes to the next one.
    let next = 0;
    balancer = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      async fetch(request) {
        const live = [a, b].filter((p) => p && !("dead" in p));
        const target = live[next++ % live.length]!;
        const path = new URL(request.url);
        return fetch(`${target.base}${path.pathname}${path.search}`, { method: request.method, headers: request.headers, body: request.body, redirect: "manual" });
      },
    });
    node = await startTestNode({ panelUrl: `http://127.0.0.1:${balancer.port}`, reportToPanel: true });
    await fileNode(db, node);
    a = await startPanel();
    b = await startPanel();
    token = await login(a.base);
    expect((await fetch(`${b.base}/api/templates/echo`, json("PUT", echoTemplate()))).ok).toBe(true);
    const nodeId = ((await (await fetch(`${a.base}/api/nodes`, json("GET"))).json()) as Array<{ id: number }>)[0]!.id;
    const made = await fetch(`${b.base}/api/servers`, json("POST", { name: "shared", node: nodeId, template: "echo", environment: { type: "standard" } }));
    expect(made.status).toBe(201);
    serverId = ((await made.json()) as { id: string }).id;
    receiver = startReceiver();
  }, 60_000);

  afterAll(async () => {
    await killPanels(panels);
    balancer?.stop(true);
    receiver?.stop();
    await node?.stop();
    await db?.$kiln.close();
  });

  test("each answers /healthz and /readyz under its own name; a session made through one works through the other and the balancer", async () => {
    for (const panel of [a, b]) {
      expect((await fetch(`${panel.base}/healthz`)).status).toBe(200);
      const ready = await fetch(`${panel.base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ ready: true, database: "postgres", panel: panel.id });
    }
    expect(a.id).not.toBe(b.id);
    const session = await login(a.base);
    const self = await fetch(`${b.base}/api/self`, json("GET", undefined, session));
    expect(self.status).toBe(200);
    expect(((await self.json()) as { email: string }).email).toBe(ADMIN.email);
    for (let i = 0; i < 6; i++) expect((await fetch(`http://127.0.0.1:${balancer.port}/api/servers`, json("GET", undefined, session))).status).toBe(200);
    const answered = new Set<string>();
    for (let i = 0; i < 4; i++) answered.add(((await (await fetch(`http://127.0.0.1:${balancer.port}/readyz`)).json()) as { panel: string }).panel);
    expect([...answered].sort()).toEqual([a.id, b.id].sort());
  });

  test("a setting changed through one panel shows on the other at once", async () => {
    expect((await fetch(`${a.base}/api/settings`, json("POST", { "panel.settings.companyName": "Two Panels Ltd" }))).status).toBe(204);
    expect(((await (await fetch(`${b.base}/api/config`)).json()) as { branding: { name: string } }).branding.name).toBe("Two Panels Ltd");
    expect((await fetch(`${b.base}/api/settings`, json("POST", { "panel.settings.companyName": "Back Again" }))).status).toBe(204);
    expect(((await (await fetch(`${a.base}/api/config`)).json()) as { branding: { name: string } }).branding.name).toBe("Back Again");
  });

  test("an SSO provider added through one panel is on the other's login page at once, and gone at once when disabled", async () => {
    const provider = { id: "community", name: "Community Login", type: "discord", clientId: "client", clientSecret: "secret" };
    expect((await fetch(`${a.base}/api/auth/providers`, json("POST", provider))).status).toBe(201);
    expect(await (await fetch(`${b.base}/auth/login`)).text()).toContain("Community Login");
    expect((await fetch(`${b.base}/api/auth/providers/community`, json("PUT", { enabled: false }))).status).toBe(200);
    expect(await (await fetch(`${a.base}/auth/login`)).text()).not.toContain("Community Login");
    expect((await fetch(`${a.base}/api/auth/providers/community`, json("DELETE"))).status).toBe(204);
  });

  test("one panel asks the nodes; every panel's node pages show what it heard and which panel that was", async () => {
    const holder = await holderOf("nodes");
    expect([a.id, b.id]).toContain(holder!);
    await eventually(async () => ((await (await fetch(`${b.base}/api/nodes`, json("GET"))).json()) as Array<{ lastPanel: string | null }>)[0]?.lastPanel === holder, 10_000, "the heartbeat to reach the node");
    for (const panel of [a, b]) {
      const page = await (await fetch(`${panel.base}/node/1`, { headers: { cookie: `kiln=${token}`, accept: "text/html" } })).text();
      expect(page).toContain(holder!);
      // The node's version, from its status answer as the holder stored it.
      const list = await (await fetch(`${panel.base}/node`, { headers: { cookie: `kiln=${token}`, accept: "text/html" } })).text();
      expect(list).toContain(`<code>${VERSION}</code>`);
    }
  });

  test("a socket opened through one panel closes within 400 ms of a logout through the other", async () => {
    const session = await login(b.base);
    const ws = new WebSocket(`ws://127.0.0.1:${new URL(a.base).port}/proxy/daemon/socket/${serverId}`, { headers: { cookie: `kiln=${session}`, origin: a.base } } as never);
    await new Promise<void>((resolve, reject) => {
      ws.onopen = () => resolve();
      ws.onerror = () => reject(new Error("socket refused"));
    });
    const closed = new Promise<{ code: number; at: number }>((resolve) => ws.addEventListener("close", (e) => resolve({ code: e.code, at: performance.now() })));
    const asked = performance.now();
    expect((await fetch(`${b.base}/auth/logout`, json("POST", undefined, session))).ok).toBe(true);
    const { code, at } = await closed;
    expect(code).toBe(CLOSE_SESSION_ENDED);
    expect(at - asked).toBeLessThan(400);
  });

  test("failed logins are counted together: 20 wrong passwords at once through both panels, at most 10 are checked", async () => {
    const tries = await Promise.all(
      Array.from({ length: 20 }, (_, i) => fetch(`${(i % 2 ? a : b).base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "second-victim@example.com", password: `guess-${i}` }) })),
    );
    // A wrong password is 400 ErrInvalidCredentials (PufferPanel's answer); a locked one 429.
    const statuses = tries.map((r) => r.status);
    expect(statuses.filter((s) => s === 400).length).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(10);
    expect(statuses.every((s) => s === 400 || s === 429)).toBe(true);
  });

  test("webhook deliveries are sent once; kill -9 of the panel sending them moves the job to the other within 30 s", async () => {
    expect((await fetch(`${a.base}/api/webhooks`, json("POST", { url: receiver.url, events: ["settings.changed"], secret: "a-secret-of-some-length", allowInternal: true }))).status).toBe(201);
    for (const [i, panel] of [a, b, a].entries()) expect((await fetch(`${panel.base}/api/settings`, json("POST", { "panel.settings.companyName": `Round ${i}` }))).status).toBe(204);
    await eventually(() => receiver.received.length >= 3, 15_000, "three deliveries");
    await Bun.sleep(1500);
    const ids = receiver.received.map((r) => r.headers["kiln-delivery"]);
    expect(receiver.received.length).toBe(3);
    expect(new Set(ids).size).toBe(3);

    const holder = await holderOf("webhooks");
    const [dying, survivor] = holder === a.id ? [a, b] : [b, a];
    expect(holder).toBe(dying.id);
    dying.proc.kill("SIGKILL");
    await dying.proc.exited;
    Object.assign(dying, { dead: true });
    const killedAt = Date.now();
    expect((await fetch(`${survivor.base}/api/settings`, json("POST", { "panel.settings.companyName": "After the kill" }))).status).toBe(204);
    await eventually(async () => receiver.received.length === 4 && (await holderOf("webhooks")) === survivor.id, 30_000, "the survivor to take the job and deliver");
    // The survivor takes over the other jobs too, each at its own next try (each lease ran out at
    // its own moment): all within the 30 s.
    const jobs = ["nodes", "activity-pruning", "expiry-purge"];
    await eventually(async () => (await Promise.all(jobs.map(holderOf))).every((holder) => holder === survivor.id), Math.max(0, 30_000 - (Date.now() - killedAt)), "the survivor to take every job");
    expect(Date.now() - killedAt).toBeLessThan(30_000);
  }, 60_000);

  test("a panel that would run its local node beside them stops, with one line naming --no-local-node", async () => {
    const port = await freePort();
    const proc = Bun.spawn([...KILN, "panel"], { env: { PATH: process.env.PATH ?? "", HOME: "/tmp", KILN_DATA: tempDir("kiln-third-"), KILN_DATABASE_URL: url, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0" }, stdout: "pipe", stderr: "pipe" });
    expect(await proc.exited).toBe(2);
    const said = (await new Response(proc.stderr).text()).trim().split("\n");
    expect(said).toHaveLength(1);
    expect(said[0]).toContain("--no-local-node");
  });
});
