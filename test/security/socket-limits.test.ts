// The panel's live-socket proxy
// keeps the node's rules. Sockets that stop reading while a server floods its console cost the
// panel a bounded amount of memory, and the reader that resumes is told what it missed; a socket
// refused MAX_REFUSALS times in a row is disconnected; rates are limited; only the panel's own
// origin may open a socket. Real panel process, real node, real sockets.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { KILN, freePort, startKiln, tempDir } from "../helpers/process";
import { echoTemplate, eventually, type SocketMessage, type TestNode } from "../helpers/node";
import { panelWithNode, servedPanelForAll, type PanelWithNode, type ServedPanel } from "../helpers/panel-node";
import { servePanel } from "../../server/serve";
import { DAEMON_MARKER } from "../../core/live";
import { ACTION_RATE, MAX_MESSAGE_BYTES, MAX_REFUSALS, MESSAGE_RATE, skippedNotice } from "../../core/live/limits";
import { decodeDaemonLine } from "../../core/live/daemon-message";
import { english } from "../../locales/english";

/** The most the panel may grow under twenty stalled sockets and a flooding server. */
const MAX_GROWTH_BYTES = 50 * 1024 * 1024;
const STALLED_SOCKETS = 20;
/** How long each measurement lasts; RSS is sampled four times a second. */
const WINDOW_SECONDS = 15;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

describe("twenty sockets that stop reading while a server floods its console", () => {
  const ADMIN = { email: "admin@example.com", password: "a-long-password" };
  let panel: Awaited<ReturnType<typeof startKiln>>;
  let base = "";
  let token = "";
  let id = "";
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
  const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${panel.proc.pid}/status`, "utf8"))![1]) * 1024;
  /**
   * The level the process's memory holds over the window: the median of its samples. A peak is one
   * moment before a collection (runs of the same code measured +22 to +53 MB by peaks); memory that
   * keeps growing, as an unbounded buffer's would, raises the median as surely.
   */
  async function rssLevel(seconds: number): Promise<number> {
    const samples = [rss()];
    for (let i = 0; i < seconds * 4; i++) {
      await Bun.sleep(250);
      samples.push(rss());
    }
    return samples.sort((a, b) => a - b)[Math.floor(samples.length / 2)]!;
  }

  beforeAll(async () => {
    const port = await freePort();
    panel = await startKiln([...KILN, "panel"], { KILN_DATA: tempDir("kiln-limits-"), KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: ADMIN.email, KILN_ADMIN_PASSWORD: ADMIN.password }, /local node listening on/);
    base = `http://127.0.0.1:${port}`;
    token = (await (await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(ADMIN) })).json()).session;
    expect((await call("PUT", "/api/templates/flood", { ...echoTemplate({ command: "yes kiln-flood-line-0123456789abcdefghijklmnopqrstuvwxyz" }), name: "flood" })).status).toBe(200);
    const nodes = (await (await call("GET", "/api/nodes")).json()) as Array<{ id: number }>;
    const created = await call("POST", "/api/servers", { name: "flood", node: nodes[0]!.id, template: "flood", environment: { type: "standard" } });
    expect(created.status).toBe(201);
    id = (await created.json()).id;
  }, 30_000);
  afterAll(async () => {
    if (id) await call("POST", `/proxy/daemon/server/${id}/kill`).catch(() => undefined);
    panel?.proc.kill("SIGTERM");
    await panel?.proc.exited;
  });

  test(`panel growth stays under ${MAX_GROWTH_BYTES / 1024 / 1024} MB; a reader that resumes is told what it skipped`, async () => {
    expect((await call("POST", `/proxy/daemon/server/${id}/start?wait=true`)).status).toBeLessThan(300);
    // The flood alone makes the process's memory rise and fall as its garbage is collected: the
    // baseline is the level it holds without sockets, so what is measured is the sockets' cost.
    // One socket opened and closed first, so what the proxy loads for its first socket is in the
    // baseline rather than counted as the stalled sockets' cost.
    await new Promise<void>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace("http", "ws")}/proxy/daemon/socket/${id}`, { headers: { cookie: `kiln=${token}`, origin: base } } as unknown as string[]);
      ws.onmessage = () => (ws.close(), resolve());
      ws.onerror = () => reject(new Error("the warm-up socket did not open"));
    });
    await Bun.sleep(2000);
    const baseline = await rssLevel(WINDOW_SECONDS);

    // The sockets live in a child process that is then stopped (SIGSTOP): the kernel's buffers
    // fill and every further byte waits in the panel, as with a browser tab that stopped reading.
    // The line's English text (its message sequence carries the count, which differs).
    const notice = decodeDaemonLine(skippedNotice(0, english).trimEnd()).text.slice(`${DAEMON_MARKER}0`.length);
    const child = Bun.spawn([process.execPath, "-e", STALLED_CLIENT], {
      env: { URL: `${base.replace("http", "ws")}/proxy/daemon/socket/${id}`, ORIGIN: base, TOKEN: token, COUNT: String(STALLED_SOCKETS), NOTICE: notice },
      stdout: "pipe",
      stderr: "inherit",
    });
    let output = "";
    void (async () => {
      for await (const chunk of child.stdout) output += new TextDecoder().decode(chunk);
    })();
    try {
      await eventually(() => output.includes("open"), 10_000, "the sockets to open");
      process.kill(child.pid, "SIGSTOP");
      const level = await rssLevel(WINDOW_SECONDS);
      const growth = level - baseline;
      console.log(`panel RSS ${mb(baseline)} with the flood alone, ${mb(level)} with ${STALLED_SOCKETS} stalled sockets too (+${mb(growth)}; medians over ${WINDOW_SECONDS} s)`);
      expect(growth).toBeLessThan(MAX_GROWTH_BYTES);

      process.kill(child.pid, "SIGCONT");
      await eventually(() => output.includes("notice"), 15_000, "the skip-ahead console line");
    } finally {
      child.kill();
    }
  }, 120_000);
});

/** The child: opens COUNT sockets, says "open", then "notice" once any console message says output was skipped. */
const STALLED_CLIENT = `
const { URL: url, ORIGIN: origin, TOKEN: token, COUNT: count, NOTICE: notice } = process.env;
let opened = 0;
let told = false;
for (let i = 0; i < Number(count); i++) {
  const ws = new WebSocket(url, { headers: { cookie: "kiln=" + token, origin } });
  ws.onopen = () => { if (++opened === Number(count)) console.log("open"); };
  ws.onmessage = (e) => {
    if (!told && String(e.data).includes(JSON.stringify(notice).slice(1, -1))) { told = true; console.log("notice"); }
  };
}
setInterval(() => {}, 1000);
`;

describe("the proxy keeps the node's rules for what a socket sends", () => {
  let node: TestNode;
  let ctx: PanelWithNode;
  let server: ServedPanel["server"];
  let id = "";
  servedPanelForAll("rules", (rig) => ({ node, ctx, server, id } = rig));

  function connect(token: string): Promise<{ ws: WebSocket; messages: SocketMessage[]; closed: Promise<number> }> {
    const ws = new WebSocket(`ws://127.0.0.1:${server.port}/proxy/daemon/socket/${id}`, { headers: { cookie: `kiln=${token}`, origin: `http://127.0.0.1:${server.port}` } } as any);
    const messages: SocketMessage[] = [];
    ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
    const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code)));
    return new Promise((resolve, reject) => {
      ws.onopen = () => resolve({ ws, messages, closed });
      ws.onerror = () => reject(new Error("socket refused"));
    });
  }
  const errors = (messages: SocketMessage[], code: string) => messages.filter((m) => m.error && m.error.code === code).length;

  test(`${MAX_REFUSALS} forbidden messages in a row disconnect (1008); none reaches the node`, async () => {
    const viewer = await ctx.userWith(id, {});
    const s = await connect(viewer.token);
    for (let i = 0; i < MAX_REFUSALS * 3; i++) s.ws.send(JSON.stringify({ type: "console", data: { command: `forbidden-${i}` } }));
    expect(await Promise.race([s.closed, Bun.sleep(5000).then(() => null)])).toBe(1008);
    // Each got its answer (ErrNoPermission, or ErrTooManyRequests once the rate was spent) until the socket was closed.
    expect(s.messages.filter((m) => m.error).length).toBe(MAX_REFUSALS);
    expect(errors(s.messages, "ErrNoPermission")).toBeGreaterThan(0);
    const log = await (await node.call("GET", `/daemon/server/${id}/console`)).text();
    expect(log).not.toContain("forbidden-");
  });

  test("refusals in a row start again after an accepted message", async () => {
    const viewer = await ctx.userWith(id, {});
    const s = await connect(viewer.token);
    // Two rounds of forbidden messages, more than MAX_REFUSALS in all but never in a row, and
    // only the permission refuses them: the first ones from the burst the message rate allows, with
    // `spare` left, the rest at the rate (a send is only ever later than planned, so the bucket
    // never holds fewer than `spare`).
    const perRound = (MAX_REFUSALS * 3) / 5;
    const spare = 10;
    let sent = 0;
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i <= perRound; i++) {
        s.ws.send(JSON.stringify({ type: i < perRound ? "stat" : "status" }));
        if (++sent > MESSAGE_RATE.burst - spare) await Bun.sleep(1000 / MESSAGE_RATE.rate);
      }
    }
    await eventually(() => errors(s.messages, "ErrNoPermission") === perRound * 2, 5000, "every forbidden message answered");
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.ws.close();
  }, 30_000);

  test("messages and actions are rate limited (ErrTooManyRequests) and the socket stays usable", async () => {
    const s = await connect(ctx.admin.token);
    await eventually(() => s.messages.some((m) => m.type === "status"), 5000, "status on open");
    const opening = s.messages.length;
    for (let i = 0; i < MESSAGE_RATE.burst + 20; i++) s.ws.send(JSON.stringify({ type: "status" }));
    await eventually(() => s.messages.length - opening >= MESSAGE_RATE.burst + 20, 5000, "an answer to each");
    const burst = s.messages.slice(opening);
    expect(errors(burst, "ErrTooManyRequests")).toBeGreaterThanOrEqual(15);
    expect(burst.filter((m) => m.type === "status").length).toBeLessThanOrEqual(MESSAGE_RATE.burst + 5);

    await Bun.sleep((MESSAGE_RATE.burst / MESSAGE_RATE.rate) * 1000 + 200);
    const before = s.messages.length;
    for (let i = 0; i < ACTION_RATE.burst + 10; i++) s.ws.send(JSON.stringify({ type: "console", data: { command: `rate-${i}` } }));
    await eventually(() => errors(s.messages.slice(before), "ErrTooManyRequests") >= 8, 5000, "actions beyond the burst refused");
    expect(errors(s.messages.slice(before), "ErrTooManyRequests")).toBeLessThanOrEqual(10);

    s.ws.send(JSON.stringify({ type: "console", data: { command: "x".repeat(MAX_MESSAGE_BYTES) } }));
    await eventually(() => errors(s.messages, "ErrMessageTooLarge") === 1, 5000, "a message too large refused");
    expect(s.ws.readyState).toBe(WebSocket.OPEN);
    s.ws.close();
  }, 20_000);

  test("only the panel's own origin may open a socket: null, malformed or foreign is 403 ErrNoPermission", async () => {
    const upgrade = (headers: Record<string, string>) =>
      fetch(`http://127.0.0.1:${server.port}/proxy/daemon/socket/${id}`, {
        headers: { cookie: `kiln=${ctx.admin.token}`, host: `127.0.0.1:${server.port}`, upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13", ...headers },
      });
    for (const origin of ["null", "http://[::1", "not a url", "https://evil.example", `ftp://127.0.0.1:${server.port}`, `http://127.0.0.1:${server.port}.evil.example`]) {
      const res = await upgrade({ origin });
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("ErrNoPermission");
    }
    // X-Forwarded-Host is the caller's word: it counts only when the config trusts a proxy.
    const spoofed = await upgrade({ origin: "https://evil.example", "x-forwarded-host": "evil.example" });
    expect(spoofed.status).toBe(403);
    expect((await spoofed.json()).error.code).toBe("ErrNoPermission");
  });

  test("behind a trusted proxy the forwarded host is the panel's origin", async () => {
    const proxied = await panelWithNode(node);
    proxied.panel.deps.config.trustProxy = true;
    const behind = servePanel(proxied.panel.app, { port: 0, hostname: "127.0.0.1" });
    try {
      const serverId = await proxied.createServer("behind");
      const open = (origin: string) =>
        new Promise<boolean>((resolve) => {
          const ws = new WebSocket(`ws://127.0.0.1:${behind.port}/proxy/daemon/socket/${serverId}`, { headers: { cookie: `kiln=${proxied.admin.token}`, origin, "x-forwarded-host": "panel.example" } } as any);
          ws.onopen = () => {
            ws.close();
            resolve(true);
          };
          ws.onerror = () => resolve(false);
        });
      expect(await open("https://panel.example")).toBe(true);
      expect(await open("https://evil.example")).toBe(false);
    } finally {
      behind.stop(true);
    }
  });
});
