// Attack: the console's replay and the console buffer, by a user who may only read a server's
// console. A replay answers with up to the whole buffer (4 MiB of text), built and JSON-encoded on
// the node's only thread: twenty sockets asking twenty times a second froze the node for seconds
// and grew it by hundreds of megabytes, and one user holding all twenty of a server's sockets
// locked its administrators out. A process writing a byte at a time filled the buffer with
// millions of entries under its 4 MiB cap. Now replays have budgets of their own (per socket, per
// server, per node; none while the client has a backlog), replays of an unchanged buffer share one
// encoding, one user holds at most MAX_SOCKETS_PER_USER of a server's sockets with places kept for
// administrators (and for its owner), and every entry counts at least CONSOLE_ENTRY_MIN_BYTES. A refusal is the
// socket's catalogue error and sends nothing. Real node, real panel, real sockets.
import { afterAll, afterEach, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import { CONSOLE_BUFFER_CAP, CONSOLE_ENTRY_MIN_BYTES } from "../../core/live";
import { MAX_BUFFERED_BYTES, MAX_SOCKETS_PER_SERVER, REPLAY_RATE } from "../../core/live/limits";
import { REPLAY_NODE_BUDGET, REPLAY_SERVER_BUDGET } from "../../daemon/channel/limits";
import { ConsoleBuffer } from "../../daemon/servers/console-buffer";
import { ADMIN_SOCKETS, CO_USER_SOCKETS, MAX_SOCKETS_PER_USER, OWNER_SOCKETS, releaseSocketPlace, takeSocketPlace } from "../../server/live-proxy/socket-places";
import type { ProxySocketData } from "../../server/live-proxy/socket-data";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { servedPanelWithServer, userWithFlags, type ServedPanel } from "../helpers/panel-node";

/** What a replay answers with: a console message whose logs are a list (live output's are a string). */
const REPLAY_PREFIX = '{"type":"console","data":{"logs":[';
const REFUSAL_PREFIX = '{"error":';
const LINE = `${"x".repeat(99)}\n`;
/** Just under the buffer's cap: a whole buffer to replay. */
const LINES = Math.floor(CONSOLE_BUFFER_CAP / LINE.length) - 1000;

function fill(buffer: ConsoleBuffer): void {
  for (let i = 0; i < LINES; i++) buffer.write(LINE);
}

/** Frames are kept as text: parsing megabytes per answer would make the test the bottleneck. */
function sorted(frames: string[]) {
  const refusals = frames.filter((f) => f.startsWith(REFUSAL_PREFIX)).map((f) => JSON.parse(f));
  return { replays: frames.filter((f) => f.startsWith(REPLAY_PREFIX)), refusals };
}

/** A refusal in the socket's catalogue shape: `{error: {code, msg}}`, no type. */
function expectTooMany(refusals: any[]): void {
  for (const refusal of refusals) {
    expect(refusal.type).toBeUndefined();
    expect(refusal.error.code).toBe("ErrTooManyRequests");
    expect(typeof refusal.error.msg).toBe("string");
  }
}

describe("the node's replay", () => {
  let t: TestNode;
  const buffers = new Map<string, ConsoleBuffer>();
  beforeAll(async () => {
    t = await startTestNode();
    for (const id of ["own", "backlog", "shared", "busy", "n1", "n2", "n3", "http"]) {
      expect((await t.call("PUT", `/daemon/server/${id}`, echoTemplate())).status).toBeLessThan(300);
      const buffer = t.node.manager.get(id).console;
      fill(buffer);
      buffers.set(id, buffer);
    }
  }, 60_000);
  afterAll(() => t.stop());

  /** A socket to `id` as the panel in this process opens one (core/live/in-process), and what came over it. */
  function link(id: string, buffered = () => 0) {
    const frames: string[] = [];
    const live = t.node.connectLive(id, { deliver: (text) => frames.push(text), closed: () => undefined, buffered });
    const replay = () => live.send(JSON.stringify({ type: "replay", since: 0 }));
    return { live, frames, replay, answers: () => sorted(frames).replays.length + sorted(frames).refusals.length };
  }

  test(`one socket gets ${REPLAY_RATE.burst} replays at once, then ErrTooManyRequests`, async () => {
    const s = link("own");
    for (let i = 0; i < 10; i++) s.replay();
    await eventually(() => s.answers() === 10, 10_000, "an answer to each");
    const { replays, refusals } = sorted(s.frames);
    expect(replays.length).toBe(REPLAY_RATE.burst);
    expect(refusals.length).toBe(10 - REPLAY_RATE.burst);
    expectTooMany(refusals);
    s.live.close();
  }, 30_000);

  test(`a socket with more than ${MAX_BUFFERED_BYTES} bytes unsent gets no replay; once it reads, it does`, async () => {
    let backlog = MAX_BUFFERED_BYTES + 1;
    const s = link("backlog", () => backlog);
    s.replay();
    await eventually(() => s.answers() === 1, 10_000, "the answer");
    expect(sorted(s.frames).replays).toEqual([]);
    expectTooMany(sorted(s.frames).refusals);
    backlog = 0;
    s.replay();
    await eventually(() => sorted(s.frames).replays.length === 1, 10_000, "the replay");
    s.live.close();
  }, 30_000);

  test(`${MAX_SOCKETS_PER_SERVER} sockets replaying an unchanged buffer share one encoding`, async () => {
    const sockets = Array.from({ length: MAX_SOCKETS_PER_SERVER }, () => link("shared"));
    for (const s of sockets) {
      s.replay();
      await Bun.sleep(5);
    }
    await eventually(() => sockets.every((s) => s.answers() === 1), 20_000, "an answer to each");
    const replays = sockets.flatMap((s) => sorted(s.frames).replays);
    expect(replays.length).toBe(MAX_SOCKETS_PER_SERVER);
    // The very same frame, its epoch too: made once, over 100 ms and more of asking.
    expect(new Set(replays).size).toBe(1);
    expect(JSON.parse(replays[0]!).data.logs.join("")).toBe(LINE.repeat(LINES));
    for (const s of sockets) s.live.close();
  }, 60_000);

  test("a server whose console keeps changing: the node encodes at most its per-server budget", async () => {
    const buffer = buffers.get("busy")!;
    const sockets = Array.from({ length: MAX_SOCKETS_PER_SERVER }, () => link("busy"));
    const started = performance.now();
    for (const s of sockets) {
      buffer.write(LINE); // a new version each time: no encoding to share
      s.replay();
      await eventually(() => s.answers() === 1, 10_000, "its answer");
    }
    const seconds = (performance.now() - started) / 1000;
    const { replays, refusals } = sorted(sockets.flatMap((s) => s.frames));
    const whole = LINES * LINE.length;
    const allowed = Math.floor((REPLAY_SERVER_BUDGET.burst + REPLAY_SERVER_BUDGET.rate * seconds) / whole);
    console.log(`${replays.length} of ${MAX_SOCKETS_PER_SERVER} whole replays encoded in ${seconds.toFixed(2)} s (budget: ${allowed})`);
    expect(replays.length).toBeGreaterThan(0);
    expect(replays.length).toBeLessThanOrEqual(allowed);
    expect(replays.length + refusals.length).toBe(MAX_SOCKETS_PER_SERVER);
    expectTooMany(refusals);
    for (const s of sockets) s.live.close();
  }, 60_000);

  test("reading the whole console over HTTP again and again meets the same budget; a poll for what is new still answers", async () => {
    const buffer = buffers.get("http")!;
    const started = performance.now();
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      buffer.write(LINE);
      const res = await t.call("GET", "/daemon/server/http/console?time=0");
      statuses.push(res.status);
      if (res.status === 429) expect((await res.json()).error.code).toBe("ErrTooManyRequests");
      else await res.arrayBuffer();
    }
    const seconds = (performance.now() - started) / 1000;
    const allowed = Math.floor((REPLAY_SERVER_BUDGET.burst + REPLAY_SERVER_BUDGET.rate * seconds) / (LINES * LINE.length));
    const read = statuses.filter((s) => s === 200).length;
    expect(read).toBeGreaterThan(0);
    expect(read).toBeLessThanOrEqual(allowed);
    expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
    // PufferPanel's clients poll for the lines after the last second they saw: that costs its few lines.
    await Bun.sleep(1000);
    const poll = await t.call("GET", `/daemon/server/http/console?time=${Math.floor(Date.now() / 1000) - 2}`);
    expect(poll.status).toBe(200);
  }, 60_000);

  test("three such servers: the node encodes at most its own budget for all of them", async () => {
    // Waits out what the tests before took from the node's budget.
    await Bun.sleep(Math.ceil((REPLAY_NODE_BUDGET.burst / REPLAY_NODE_BUDGET.rate) * 1000) + 200);
    const ids = ["n1", "n2", "n3"];
    const sockets = ids.map((id) => [link(id), link(id)]);
    const started = performance.now();
    for (const [i, id] of ids.entries()) {
      for (let k = 0; k < 4; k++) {
        const s = sockets[i]![k % 2]!;
        const before = s.answers();
        buffers.get(id)!.write(LINE);
        s.replay();
        await eventually(() => s.answers() === before + 1, 10_000, "its answer");
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const { replays, refusals } = sorted(sockets.flat().flatMap((s) => s.frames));
    const whole = LINES * LINE.length;
    const allowed = Math.floor((REPLAY_NODE_BUDGET.burst + REPLAY_NODE_BUDGET.rate * seconds) / whole);
    console.log(`${replays.length} of 12 whole replays on three servers encoded in ${seconds.toFixed(2)} s (node budget: ${allowed})`);
    // The budget refills while the replays go on: on a machine slow enough to take longer than the
    // burst lasts, all twelve may fit; whatever the pace, no more than the budget is encoded.
    expect(replays.length).toBeLessThanOrEqual(allowed);
    if (allowed < 12) expect(refusals.length).toBeGreaterThan(0);
    expect(replays.length + refusals.length).toBe(12);
    expectTooMany(refusals);
    for (const s of sockets.flat()) s.live.close();
  }, 60_000);
});

describe("through the panel, as a user who may only read the console", () => {
  let rig: ServedPanel;
  beforeAll(async () => {
    rig = await servedPanelWithServer("replayed");
    fill(rig.node.node.manager.get(rig.id).console);
  }, 60_000);
  afterAll(() => rig.stop());
  /** Every socket a test opened is closed after it, whatever it asserted, so the next starts with every place free. */
  const opened: WebSocket[] = [];
  afterEach(async () => {
    const closing = opened.splice(0).filter((ws) => ws.readyState !== WebSocket.CLOSED);
    await Promise.all(closing.map((ws) => new Promise((resolve) => (ws.addEventListener("close", resolve), ws.close()))));
  });

  const url = () => `ws://127.0.0.1:${rig.server.port}/proxy/daemon/socket/${rig.id}`;
  const origin = () => `http://127.0.0.1:${rig.server.port}`;

  interface Opened {
    ws: WebSocket;
    frames: string[];
    closed: Promise<number>;
  }
  /** A socket, or null when the panel refused it (at the upgrade, or closed at once). */
  function open(token: string): Promise<Opened | null> {
    const ws = new WebSocket(url(), { headers: { cookie: `kiln=${token}`, origin: origin() } } as any);
    opened.push(ws);
    const frames: string[] = [];
    ws.onmessage = (e) => frames.push(String(e.data));
    const closed = new Promise<number>((resolve) => ws.addEventListener("close", (e) => resolve(e.code)));
    return new Promise((resolve) => {
      ws.onerror = () => resolve(null);
      // Open means open: the status the node sends first has arrived.
      ws.onopen = () => void eventually(() => frames.some((f) => f.startsWith('{"type":"status"')), 5000, "status").then(() => resolve({ ws, frames, closed }), () => resolve(null));
      void closed.then(() => resolve(null));
    });
  }
  /** An upgrade by hand, so a refusal's status and body can be read. */
  const upgrade = (token: string) =>
    fetch(`http://127.0.0.1:${rig.server.port}/proxy/daemon/socket/${rig.id}`, {
      headers: { cookie: `kiln=${token}`, origin: origin(), host: `127.0.0.1:${rig.server.port}`, upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
    });
  const closeAll = async (sockets: Array<Opened | null>) => {
    for (const s of sockets) s?.ws.close();
    await Promise.all(sockets.map((s) => s?.closed));
  };

  test("the console tab asks the node for the end it shows: loading it again and again never meets the replay budget", async () => {
    const reader = await userWithFlags(rig.ctx, rig.id, ["viewServerConsole"]);
    // Twenty loads would be twenty whole buffers (80 MiB) if the page fetched the buffer to show its end.
    expect(20 * LINES * LINE.length).toBeGreaterThan(REPLAY_SERVER_BUDGET.burst + REPLAY_SERVER_BUDGET.rate * 5);
    for (let i = 0; i < 20; i++) {
      const { status, html } = await rig.ctx.page(`/server/${rig.id}?tab=console`, reader.token);
      expect(status).toBe(200);
      const payload = JSON.parse(html.match(/<script type="application\/json" id="kiln-islands">(.*?)<\/script>/)![1]!) as { islands: Array<{ name: string; props: { initialLogs?: string } }> };
      const logs = payload.islands.find((island) => typeof island.props.initialLogs === "string")!.props.initialLogs!;
      expect(logs.length).toBeGreaterThan(60 * 1024);
      expect(logs.length).toBeLessThanOrEqual(64 * 1024);
      // It starts at a whole line.
      expect(logs.startsWith(LINE)).toBe(true);
    }
  }, 60_000);

  test(`one user holds at most ${MAX_SOCKETS_PER_USER} of a server's sockets (429 ErrTooManyRequests); an administrator still gets in`, async () => {
    const reader = await userWithFlags(rig.ctx, rig.id, ["viewServerConsole"]);
    const mine: Array<Opened | null> = [];
    for (let i = 0; i < MAX_SOCKETS_PER_SERVER; i++) mine.push(await open(reader.token));
    const held = mine.filter(Boolean).length;
    console.log(`the reader holds ${held} of ${MAX_SOCKETS_PER_SERVER} sockets`);
    expect(held).toBe(MAX_SOCKETS_PER_USER);
    const refused = await upgrade(reader.token);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error.code).toBe("ErrTooManyRequests");
    const admin = await open(rig.ctx.admin.token);
    expect(admin).not.toBeNull();
    await closeAll([...mine, admin]);
    // Closed, their places are free again.
    const again = await open(reader.token);
    expect(again).not.toBeNull();
    await closeAll([again]);
  }, 60_000);

  test(`opened all at once, still ${MAX_SOCKETS_PER_USER}: the ones past it are refused`, async () => {
    const reader = await userWithFlags(rig.ctx, rig.id, ["viewServerConsole"]);
    const attempts: Array<{ ws: WebSocket; frames: string[] }> = [];
    for (let i = 0; i < 12; i++) {
      const ws = new WebSocket(url(), { headers: { cookie: `kiln=${reader.token}`, origin: origin() } } as any);
      opened.push(ws);
      const frames: string[] = [];
      ws.onmessage = (e) => frames.push(String(e.data));
      attempts.push({ ws, frames });
    }
    await Bun.sleep(1500);
    const open = attempts.filter((a) => a.ws.readyState === WebSocket.OPEN);
    expect(open.length).toBe(MAX_SOCKETS_PER_USER);
    // Refused at the upgrade (429), or, had one been admitted before the others opened, closed
    // at its opening after being told why in the socket's refusal shape.
    const closedAfterOpening = attempts.filter((a) => a.frames.length > 0 && a.ws.readyState !== WebSocket.OPEN);
    console.log(`${open.length} open, ${closedAfterOpening.length} closed after opening, ${attempts.length - open.length - closedAfterOpening.length} refused at the upgrade`);
    for (const a of closedAfterOpening) {
      expectTooMany(sorted(a.frames).refusals);
      expect(a.frames.some((f) => f.startsWith('{"type"'))).toBe(false);
    }
  }, 60_000);

  test("a socket admitted while there was room, opening after others took it: refused then, nothing counted", async () => {
    const data = { db: rig.ctx.panel.db, serverId: "0ad0e17e", access: { admin: false }, actor: { type: "user", id: "early", name: "early" } } as unknown as ProxySocketData;
    // All admitted while none had opened (the upgrade route checked each: room for every one).
    const sockets = Array.from({ length: MAX_SOCKETS_PER_USER + 2 }, () => ({}));
    const outcomes = await Promise.all(sockets.map((socket) => takeSocketPlace(socket, data).then(() => "open", (error: { code?: string }) => error.code)));
    expect(outcomes.filter((o) => o === "open")).toHaveLength(MAX_SOCKETS_PER_USER);
    expect(outcomes.filter((o) => o === "ErrTooManyRequests")).toHaveLength(2);
    for (const socket of sockets) await releaseSocketPlace(socket, data);
    expect(await takeSocketPlace({}, data).then(() => "open")).toBe("open");
  });

  test(`a server's co-users share ${CO_USER_SOCKETS} places: the administrators keep ${ADMIN_SOCKETS} (and its owner ${OWNER_SOCKETS}: socket-owner-places)`, async () => {
    const held: Array<Opened | null> = [];
    const users = await Promise.all(Array.from({ length: Math.ceil(CO_USER_SOCKETS / MAX_SOCKETS_PER_USER) + 1 }, () => userWithFlags(rig.ctx, rig.id, ["viewServerConsole"])));
    for (const user of users) for (let i = 0; i < MAX_SOCKETS_PER_USER; i++) held.push(await open(user.token));
    expect(held.filter(Boolean).length).toBe(CO_USER_SOCKETS);
    const admins = await Promise.all(Array.from({ length: ADMIN_SOCKETS }, () => open(rig.ctx.admin.token)));
    expect(admins.every(Boolean)).toBe(true);
  }, 60_000);

  test(`replays at the message rate from every socket the user may hold: at most ${REPLAY_RATE.burst} at once per socket, then one per ${1 / REPLAY_RATE.rate} s`, async () => {
    const reader = await userWithFlags(rig.ctx, rig.id, ["viewServerConsole"]);
    const sockets = (await Promise.all(Array.from({ length: MAX_SOCKETS_PER_USER }, () => open(reader.token)))).filter((s): s is Opened => s !== null);
    expect(sockets.length).toBe(MAX_SOCKETS_PER_USER);
    const seconds = 3;
    let worst = 0;
    let last = performance.now();
    const ticker = setInterval(() => {
      const now = performance.now();
      worst = Math.max(worst, now - last);
      last = now;
    }, 20);
    // 17 a second, just under the message rate, as the attack sent them.
    const sender = setInterval(() => {
      for (const s of sockets) if (s.ws.readyState === WebSocket.OPEN) s.ws.send(JSON.stringify({ type: "replay", since: 0 }));
    }, 60);
    await Bun.sleep(seconds * 1000);
    clearInterval(sender);
    await Bun.sleep(1000);
    clearInterval(ticker);
    const { replays, refusals } = sorted(sockets.flatMap((s) => s.frames));
    const allowed = sockets.length * Math.floor(REPLAY_RATE.burst + REPLAY_RATE.rate * (seconds + 1));
    console.log(`${replays.length} whole replays and ${refusals.length} refusals over ${seconds} s from ${sockets.length} sockets; the event loop's worst wait ${worst.toFixed(0)} ms`);
    expect(replays.length).toBeLessThanOrEqual(allowed);
    expect(refusals.length).toBeGreaterThan(0);
    expectTooMany(refusals);
  }, 60_000);
});

describe("the console buffer under output written a byte at a time", () => {
  const MAX_ENTRIES = CONSOLE_BUFFER_CAP / CONSOLE_ENTRY_MIN_BYTES;

  test(`a byte per write, each in a millisecond of its own: at most ${MAX_ENTRIES} entries`, () => {
    const buffer = new ConsoleBuffer();
    let now = Date.now();
    try {
      for (let i = 0; i < 2 * MAX_ENTRIES; i++) {
        setSystemTime(new Date(++now));
        buffer.write("x");
      }
    } finally {
      setSystemTime();
    }
    const { logs } = buffer.since(0);
    expect(logs.length).toBeLessThanOrEqual(MAX_ENTRIES);
    expect(buffer.size).toBeLessThanOrEqual(CONSOLE_BUFFER_CAP);
  });

  test("a byte per write within one millisecond: joined into entries, nothing lost", () => {
    const buffer = new ConsoleBuffer();
    const written = 100_000;
    setSystemTime(new Date(Date.now()));
    try {
      for (let i = 0; i < written; i++) buffer.write(i % 80 === 79 ? "\n" : "x");
    } finally {
      setSystemTime();
    }
    const { logs } = buffer.since(0);
    expect(logs.length).toBeLessThanOrEqual(Math.ceil(written / CONSOLE_ENTRY_MIN_BYTES));
    expect(logs.join("")).toBe(Array.from({ length: written }, (_, i) => (i % 80 === 79 ? "\n" : "x")).join(""));
  });
});
