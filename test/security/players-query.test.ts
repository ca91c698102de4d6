// Attacks on the player query: the node asks a game server that the server's owner controls.
// - A server answering its query with 10 MB: the node reads at most QUERY_ANSWER_CAP of it and
//   says tooLarge; the API answers ErrQueryUnavailable at once.
// - A server that accepts and never answers: the query ends after its 2 s timeout (noAnswer), and
//   the next query waits for the one in flight rather than piling up sockets.
// - A user without viewServerConsole or viewServerStats gets ErrNoPermission for the players, no
//   `players` figures in the list's live values and no `players` socket message; either flag
//   alone is enough; the list API (GET /api/servers) carries the figure only to them.
// - The node's several-servers answers (GET /daemon/player-counts, GET /daemon/list-statuses) take
//   at most a page of ids, leave out ids they do not hold (an object's own names too), and want a
//   node token.
// - A Source (A2S) answer in bzip2-compressed parts, which GameDig would inflate whole in one
//   synchronous call on the node's only thread: 177 bytes here become 200 MB, and one datagram of
//   such a stream tens of GB (every server on the node stalls, then the node runs out of memory).
//   The node reads no compressed answer: it says badAnswer at once, its event loop never held up.
// - A Source server flooding split parts that never complete, each under a new id (GameDig kept
//   them all for the 2 s of the query: hundreds of MB): the node stops at 256 KiB, tooLarge.
// - A game claiming a count no game has (negative, past a million, fractional, infinite), in any
//   protocol: no figures (badAnswer), so no negative or absurd count reaches a page, a trigger, or
//   the node's metrics answer, whose bounds would otherwise drop the server's every figure from
//   /metrics (a running server's owner hiding its CPU and memory from the administrator).
// - A game's HTTP API (TShock's, FiveM's…) answering without end, or with a gzip bomb: GameDig's
//   reader kept the whole answer, inflated; the node reads to the cap (tooLarge) and inflates nothing.
import { longestStall } from "../helpers/thread-stall";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createServer, type Socket } from "node:net";
import { createSocket } from "node:dgram";
import { jsonInit, panelForAll, servedPanelWithServer, type PanelWithNode, type ServedPanel } from "../helpers/panel-node";
import { loginAs } from "../helpers/app";
import type { SocketMessage } from "../helpers/node";
import { eventually } from "../helpers/node";
import { errorOf } from "../helpers/refusal";
import { queryServer as makeQueryServer } from "../helpers/query-server";
import { queryServer } from "../../daemon/query/query-server";
import { QUERY_ANSWER_CAP, QUERY_TIMEOUT_MS } from "../../daemon/query/limits";
import { PlayersWatch } from "../../daemon/query/players-watch";

let ctx: PanelWithNode;
panelForAll((made) => (ctx = made), { queryIntervalMs: 500 });

const responder = (mode: string) => `node responder.mjs ${mode} \${port}`;

async function startedServer(name: string, mode: string): Promise<string> {
  const { id } = await makeQueryServer(ctx, name, { command: responder(mode), query: { type: "minecraft" }, ready: "listening", fixtures: ["responder.mjs"] });
  const res = await ctx.panel.request(`/proxy/daemon/server/${id}/start?wait=true`, { token: ctx.admin.token, method: "POST" });
  expect(res.status).toBeLessThan(300);
  return id;
}

async function playersError(id: string, token = ctx.admin.token) {
  const res = await ctx.panel.request(`/api/servers/${id}/players`, { token });
  const body = await res.json();
  return { status: res.status, code: body.error?.code, reason: body.error?.metadata?.reason };
}

describe("a game server's answer cannot cost the node more than the cap and the timeout", () => {
  test("10 MB answered to the query: dropped at the cap, tooLarge", async () => {
    const id = await startedServer("flood", "flood");
    await eventually(async () => (await playersError(id)).reason === "tooLarge", 10_000, "the query to give up on the flood");
    expect(await playersError(id)).toEqual({ status: 503, code: "ErrQueryUnavailable", reason: "tooLarge" });
    await ctx.panel.request(`/proxy/daemon/server/${id}/kill?wait=true`, { token: ctx.admin.token, method: "POST" });
  }, 60_000);

  test("the bytes read are bounded: a local 10 MB responder is cut off at the cap", async () => {
    let received = 0;
    let written = 0;
    const sockets: Socket[] = [];
    const server = createServer((socket) => {
      sockets.push(socket);
      socket.on("data", (d) => (received += d.length));
      socket.on("error", () => undefined);
      const chunk = Buffer.alloc(64 * 1024, 0x7b);
      // A status packet whose declared length is within the cap, then far more bytes than it says.
      socket.write(Buffer.from([0xff, 0xff, 0x0f, 0x00, 0xfa, 0xff, 0x0f]));
      const pump = () => {
        while (written < 10 * 1024 * 1024 && !socket.destroyed) {
          written += chunk.length;
          if (!socket.write(chunk)) return socket.once("drain", pump);
        }
      };
      pump();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    const started = performance.now();
    const state = await queryServer({ type: "minecraft", host: "127.0.0.1", port });
    expect(state).toMatchObject({ error: "ErrQueryUnavailable", reason: "tooLarge" });
    expect(performance.now() - started).toBeLessThan(2500);
    await Bun.sleep(200);
    // The node closed the socket: the responder could not hand over its 10 MB.
    expect(written).toBeLessThan(10 * 1024 * 1024);
    expect(received).toBeGreaterThan(0);
    expect(QUERY_ANSWER_CAP).toBeLessThan(1024 * 1024);
    for (const s of sockets) s.destroy();
    server.close();
  });

  test("a query nobody answers ends after the 2 s timeout as noAnswer", async () => {
    const id = await startedServer("silent", "silent");
    await eventually(async () => (await playersError(id)).reason === "noAnswer", 10_000, "the query to time out");
    const started = performance.now();
    expect(await playersError(id)).toEqual({ status: 503, code: "ErrQueryUnavailable", reason: "noAnswer" });
    // The API answers from the node's last result: it never waits for the game.
    expect(performance.now() - started).toBeLessThan(1000);
    await ctx.panel.request(`/proxy/daemon/server/${id}/kill?wait=true`, { token: ctx.admin.token, method: "POST" });
  }, 60_000);

  test("at most one query in flight per server, however slow the game", async () => {
    let calls = 0;
    let inFlight = 0;
    let most = 0;
    const watch = new PlayersWatch({
      intervalMs: 20,
      plan: () => ({ type: "minecraft", port: 1 }),
      host: () => "127.0.0.1",
      query: async () => {
        calls++;
        most = Math.max(most, ++inFlight);
        await Bun.sleep(300);
        inFlight--;
        return { error: "ErrQueryUnavailable", reason: "noAnswer", queriedAt: Date.now() };
      },
    });
    watch.follow(true);
    await Bun.sleep(1000);
    watch.stop();
    expect(most).toBe(1);
    expect(calls).toBeLessThanOrEqual(4);
  });
});

/** A local TCP game server answering every connection with `answer`, then closing; its port. */
async function tcpAnswering(answer: Buffer): Promise<{ port: number; close: () => void }> {
  const server = createServer((socket) => {
    socket.on("error", () => undefined);
    socket.once("data", () => socket.end(answer));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, close: () => server.close() };
}

/** A Minecraft status packet carrying `json`. */
function statusPacket(json: unknown): Buffer {
  const varint = (v: number) => { const out: number[] = []; do { let b = v & 0x7f; v >>>= 7; if (v) b |= 0x80; out.push(b); } while (v); return out; };
  const text = Buffer.from(JSON.stringify(json), "utf8");
  const body = Buffer.from([0, ...varint(text.length), ...text]);
  return Buffer.concat([Buffer.from(varint(body.length)), body]);
}

/** Beta 1.8–1.6's ping answer: 0xFF, a UTF-16BE length and text "§1\0protocol\0version\0motd\0online\0max". */
function legacyAnswer(online: string, max: string): Buffer {
  const text = Buffer.from(`\u00a71\u0000127\u00001.6.4\u0000motd\u0000${online}\u0000${max}`, "utf16le").swap16();
  const head = Buffer.alloc(3);
  head[0] = 0xff;
  head.writeUInt16BE(text.length / 2, 1);
  return Buffer.concat([head, text]);
}

/** A Quake 3 server (UDP, through GameDig) answering getstatus with `info`; its port. */
async function quake3Answering(info: string): Promise<{ port: number; close: () => void }> {
  const socket = createSocket("udp4");
  socket.on("message", (message, from) => {
    if (message.toString("latin1").includes("getstatus")) socket.send(Buffer.from(`\xff\xff\xff\xffstatusResponse\n${info}\n0 20 "Steve"\n`, "latin1"), from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return { port: socket.address().port, close: () => socket.close() };
}

/** 200 MiB of zeros, bzip2 -9 (Python's bz2.compress(bytes(200 * 2**20), 9)): 177 bytes. */
const BZIP2_BOMB = Buffer.from(
  "QlpoOTFBWSZTWQ4J4t8BX45AAMAAAAggADCATUZCoCWpCoCXMUFZJlNZDgni3wFfjkAAwAAACCAAMIBNRkKgJakKgJcxQVkmU1kOCeLfAV+OQADAAAAIIAAwgE1GQqAlqQqAlzFBWSZTWQ4J4t8BX45AAMAAAAggADCATUZCoCWpCoCXMUFZJlNZ8TGEcADIDEBAwAAAQAAIIAAwzAUpphQCLYigEXi7kinChIIup43Q",
  "base64",
);

/**
 * A Source server (A2S over UDP): honest, it answers the info and the players (Steve) in single
 * packets; `bomb`, it answers everything with one split part holding BZIP2_BOMB.
 */
async function sourceAnswering(mode: "honest" | "bomb" | "flood"): Promise<{ port: number; asked: () => number; close: () => void }> {
  const socket = createSocket("udp4");
  let asked = 0;
  let closed = false;
  const single = (body: Buffer) => Buffer.concat([Buffer.from([0xff, 0xff, 0xff, 0xff]), body]);
  socket.on("message", (message, from) => {
    asked++;
    const type = message[4];
    let answer: Buffer | null = null;
    if (mode === "flood") {
      // 64 MB of split parts, each the first of two under an id of its own: none ever completes.
      const part = Buffer.alloc(32 * 1024);
      part.writeInt32LE(-2, 0);
      part[8] = 2;
      let id = 0;
      const pump = () => {
        for (let i = 0; i < 64 && id < 2048 && !closed; i++) {
          part.writeUInt32LE(++id, 4);
          socket.send(part, from.port, from.address);
        }
        if (id < 2048 && !closed) setTimeout(pump, 1);
      };
      return pump();
    }
    if (mode === "bomb") {
      // A split part (-2), its id's top bit saying bzip2, part 0 of 1, its size, then the whole
      // answer's size and CRC (8 bytes), then the stream.
      const head = Buffer.alloc(20);
      head.writeInt32LE(-2, 0);
      head.writeUInt32LE(0x80000001, 4);
      head[8] = 1;
      head[9] = 0;
      head.writeUInt16LE(1248, 10);
      head.writeUInt32LE(200 * 2 ** 20, 12);
      answer = Buffer.concat([head, BZIP2_BOMB]);
    } else if (type === 0x54) {
      const text = (t: string) => Buffer.from(`${t}\0`, "latin1");
      const appId = Buffer.alloc(2);
      appId.writeUInt16LE(440);
      // 'I', protocol 17, name, map, folder, game, app id, 1 player of 24, no bots, dedicated, linux, open, not secure, version, no extra data.
      answer = single(Buffer.concat([Buffer.from([0x49, 17]), text("arena"), text("ctf_2fort"), text("tf"), text("Team Fortress"), appId, Buffer.from([1, 24, 0, 0x64, 0x6c, 0, 0]), text("1.0"), Buffer.from([0])]));
    } else if (type === 0x55) {
      const score = Buffer.alloc(8);
      answer = single(Buffer.concat([Buffer.from([0x44, 1, 0]), Buffer.from("Steve\0", "latin1"), score]));
    }
    if (answer) socket.send(answer, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return { port: socket.address().port, asked: () => asked, close: () => ((closed = true), socket.close()) };
}

describe("a Source server's answer is bounded: nothing compressed is inflated, nothing past the cap kept", () => {
  test("an honest answer in single packets is read (the check below can pass)", async () => {
    const server = await sourceAnswering("honest");
    try {
      expect(await queryServer({ type: "valve", host: "127.0.0.1", port: server.port })).toMatchObject({ online: 1, max: 24, players: [{ name: "Steve" }], motd: "arena" });
    } finally {
      server.close();
    }
  });

  test("a bzip2 bomb in a split A2S answer: no figures, and the node's thread is never held up", async () => {
    const server = await sourceAnswering("bomb");
    try {
      const stalled = await longestStall(async () => {
        const state = await queryServer({ type: "valve", host: "127.0.0.1", port: server.port });
        expect(server.asked()).toBeGreaterThan(0);
        expect(state).toMatchObject({ error: "ErrQueryUnavailable", reason: "badAnswer" });
      });
      expect(stalled).toBeLessThan(250);
    } finally {
      server.close();
    }
  }, 30_000);

  test("a flood of split parts that never complete: read up to the cap, then tooLarge, well before the timeout", async () => {
    const server = await sourceAnswering("flood");
    try {
      const started = performance.now();
      const state = await queryServer({ type: "valve", host: "127.0.0.1", port: server.port });
      expect(state).toMatchObject({ error: "ErrQueryUnavailable", reason: "tooLarge" });
      expect(performance.now() - started).toBeLessThan(QUERY_TIMEOUT_MS / 2);
    } finally {
      server.close();
    }
  }, 30_000);
});

/** A game's HTTP API as TShock serves it (GET /v2/server/status?players=true): honest, endless, or a gzip bomb. */
function tshockAnswering(mode: "honest" | "endless" | "gzip") {
  let sent = 0;
  // Made before the server answers: 100 MB of spaces, 100 KB compressed.
  const bomb = mode === "gzip" ? Bun.gzipSync(Buffer.alloc(100 * 2 ** 20, " ")) : null;
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req) {
      if (new URL(req.url).pathname !== "/v2/server/status") return new Response("", { status: 404 });
      if (mode === "honest") return Response.json({ status: "200", name: "tshock", port: 7777, playercount: 1, maxplayers: 8, players: [{ nickname: "Steve", team: 0 }] });
      if (bomb) return new Response(bomb, { headers: { "content-type": "application/json", "content-encoding": "gzip" } });
      // A JSON array that never ends, as fast as the node reads.
      const chunk = Buffer.from(`${"1,".repeat(32 * 1024)}`);
      return new Response(new ReadableStream<Uint8Array>({ pull: (controller) => void ((sent += chunk.length), controller.enqueue(chunk)) }), { headers: { "content-type": "application/json" } });
    },
  });
  return { port: server.port!, sent: () => sent, close: () => server.stop(true) };
}

describe("a game's HTTP answer (TShock's API, through GameDig) is bounded: read to the cap, never inflated", () => {
  test("an honest answer is read (the checks below can pass)", async () => {
    const game = tshockAnswering("honest");
    try {
      expect(await queryServer({ type: "terrariatshock", host: "127.0.0.1", port: game.port })).toMatchObject({ online: 1, max: 8, players: [{ name: "Steve" }] });
    } finally {
      game.close();
    }
  });

  test("an answer that never ends: read up to the cap, then tooLarge, well before the timeout", async () => {
    const game = tshockAnswering("endless");
    try {
      const started = performance.now();
      expect(await queryServer({ type: "terrariatshock", host: "127.0.0.1", port: game.port })).toMatchObject({ error: "ErrQueryUnavailable", reason: "tooLarge" });
      expect(performance.now() - started).toBeLessThan(QUERY_TIMEOUT_MS / 2);
      // What the game managed to send before the node stopped reading: the cap and what was in flight.
      expect(game.sent()).toBeLessThan(QUERY_ANSWER_CAP + 16 * 2 ** 20);
    } finally {
      game.close();
    }
  });

  test("a gzip bomb (100 MB in 100 KB) is not inflated: no figures, and the node's memory does not grow by it", async () => {
    const game = tshockAnswering("gzip");
    try {
      Bun.gc(true);
      const before = process.memoryUsage().rss;
      const state = await queryServer({ type: "terrariatshock", host: "127.0.0.1", port: game.port });
      expect(state).toMatchObject({ error: "ErrQueryUnavailable" });
      expect(process.memoryUsage().rss - before).toBeLessThan(50 * 2 ** 20);
    } finally {
      game.close();
    }
  });
});

describe("a game server's counts must be counts", () => {
  const badAnswer = { error: "ErrQueryUnavailable", reason: "badAnswer" };

  test("Minecraft's status: a count past a million or fractional is no answer", async () => {
    for (const players of [{ online: 1e18, max: 20 }, { online: 1, max: 2 ** 60 }, { online: 1.5, max: 20 }]) {
      const server = await tcpAnswering(statusPacket({ version: { name: "1.20" }, players, description: "x" }));
      try {
        expect(await queryServer({ type: "minecraft", host: "127.0.0.1", port: server.port })).toMatchObject(badAnswer);
      } finally {
        server.close();
      }
    }
  });

  test("the legacy ping: a negative or huge count is no answer (a readable one still is)", async () => {
    const honest = await tcpAnswering(legacyAnswer("3", "20"));
    try {
      expect(await queryServer({ type: "minecraft", host: "127.0.0.1", port: honest.port })).toMatchObject({ online: 3, max: 20 });
    } finally {
      honest.close();
    }
    for (const [online, max] of [["-5", "20"], ["3", "-1"], ["99999999999999999999", "20"]] as const) {
      const server = await tcpAnswering(legacyAnswer(online, max));
      try {
        expect(await queryServer({ type: "minecraft", host: "127.0.0.1", port: server.port })).toMatchObject(badAnswer);
      } finally {
        server.close();
      }
    }
  });

  test("GameDig (Quake 3): a negative, fractional or infinite maximum is no answer (a readable one still is)", async () => {
    const honest = await quake3Answering("\\sv_maxclients\\16\\sv_hostname\\arena");
    try {
      expect(await queryServer({ type: "quake3", host: "127.0.0.1", port: honest.port })).toMatchObject({ online: 1, max: 16, players: [{ name: "Steve" }] });
    } finally {
      honest.close();
    }
    for (const max of ["-5", "2.5", "1e999"]) {
      const server = await quake3Answering(`\\sv_maxclients\\${max}\\sv_hostname\\arena`);
      try {
        expect(await queryServer({ type: "quake3", host: "127.0.0.1", port: server.port })).toMatchObject(badAnswer);
      } finally {
        server.close();
      }
    }
  }, 30_000);
});

describe("reading players needs viewServerConsole or viewServerStats", () => {
  let id: string;
  beforeAll(async () => {
    id = await startedServer("flagged", "silent");
  }, 60_000);

  test("a user with neither flag is refused and changes nothing", async () => {
    const user = await ctx.userWith(id, { viewServerFiles: true, sendServerConsole: true });
    expect(await errorOf(await ctx.panel.request(`/api/servers/${id}/players`, { token: user.token }))).toEqual({ status: 403, code: "ErrNoPermission" });
    const live = await (await ctx.panel.request(`/api/servers/live?ids=${id}`, { token: user.token })).json();
    expect(live.servers[id].status).toBe("online");
    expect(live.servers[id]).not.toHaveProperty("players");
    const [entry] = (await (await ctx.panel.request("/api/servers", { token: user.token })).json()).servers;
    expect(entry.id).toBe(id);
    expect(entry).not.toHaveProperty("players");
  });

  test("either flag alone reads them", async () => {
    for (const flag of ["viewServerConsole", "viewServerStats"]) {
      const user = await ctx.userWith(id, { [flag]: true });
      const res = await ctx.panel.request(`/api/servers/${id}/players`, { token: user.token });
      // The silent server has no figures: the refusal is the query's, not the permission's.
      expect((await res.json()).error.code).toBe("ErrQueryUnavailable");
      const live = await (await ctx.panel.request(`/api/servers/live?ids=${id}`, { token: user.token })).json();
      expect(live.servers[id]).toHaveProperty("players", null);
      const [entry] = (await (await ctx.panel.request("/api/servers", { token: user.token })).json()).servers;
      expect(entry).toHaveProperty("players", null);
    }
  });

  test("a stopped server is ErrServerOffline", async () => {
    await ctx.panel.request(`/proxy/daemon/server/${id}/kill?wait=true`, { token: ctx.admin.token, method: "POST" });
    expect(await playersError(id)).toMatchObject({ status: 409, code: "ErrServerOffline" });
  }, 30_000);
});

describe("the socket's players message reaches only readers of players", () => {
  let rig: ServedPanel;
  beforeAll(async () => {
    rig = await servedPanelWithServer("players-socket");
  });
  afterAll(() => rig.stop());

  async function connectWith(flags: Record<string, boolean>): Promise<{ ws: WebSocket; messages: SocketMessage[] }> {
    const user = await loginAs(rig.ctx.panel.db, []);
    await rig.ctx.panel.request(`/api/servers/${rig.id}/user/${encodeURIComponent(user.email)}`, { token: rig.ctx.admin.token, ...jsonInit("PUT", flags) });
    const ws = new WebSocket(`ws://127.0.0.1:${rig.server.port}/proxy/daemon/socket/${rig.id}`, { headers: { cookie: `kiln=${user.token}`, host: `127.0.0.1:${rig.server.port}` } } as never);
    const messages: SocketMessage[] = [];
    ws.onmessage = (e) => messages.push(JSON.parse(String(e.data)));
    await new Promise((resolve, reject) => ((ws.onopen = resolve), (ws.onerror = () => reject(new Error("socket refused")))));
    return { ws, messages };
  }

  test("console or stats viewers get it; a user with other flags does not", async () => {
    const consoleViewer = await connectWith({ viewServerConsole: true });
    const statsViewer = await connectWith({ viewServerStats: true });
    const other = await connectWith({ sendServerConsole: true, startServer: true, viewServerFiles: true });
    try {
      other.ws.send(JSON.stringify({ type: "start" }));
      const got = (x: { messages: SocketMessage[] }) => x.messages.some((m) => m.type === "players");
      await eventually(() => got(consoleViewer) && got(statsViewer), 10_000, "the players message to both viewers");
      await eventually(() => other.messages.some((m) => m.type === "status" && m.data?.running === true), 5000, "the other user to see it run");
      await Bun.sleep(300);
      expect(got(other)).toBe(false);
    } finally {
      for (const x of [consoleViewer, statsViewer, other]) x.ws.close();
      await rig.node.call("POST", `/daemon/server/${rig.id}/kill`).catch(() => undefined);
    }
  }, 30_000);
});

describe("the node's player counts of several servers", () => {
  test("counts only, null for a server without figures; ids it does not hold are left out", async () => {
    const id = await startedServer("counted", "silent");
    const answer = await ctx.node.json("GET", `/daemon/player-counts?ids=${id},ffffffff,__proto__,constructor,,${id}`);
    expect(answer).toEqual({ counts: { [id]: null } });
    await ctx.panel.request(`/proxy/daemon/server/${id}/kill?wait=true`, { token: ctx.admin.token, method: "POST" });
  }, 30_000);

});

describe("the node's statuses of several servers (the list's one call per node)", () => {
  test("status and players as their own routes answer them; ids it does not hold are left out", async () => {
    const id = await startedServer("listed", "silent");
    const answer = (await ctx.node.json("GET", `/daemon/list-statuses?ids=${id},ffffffff,__proto__,constructor,hasOwnProperty,,${id}`)) as { servers: Record<string, unknown> };
    expect(Object.keys(answer.servers)).toEqual([id]);
    expect(answer.servers[id]).toEqual({ status: await ctx.node.json("GET", `/daemon/server/${id}/status`), players: ((await ctx.node.json("GET", `/daemon/server/${id}/players`)) as { players: unknown }).players });
    await ctx.panel.request(`/proxy/daemon/server/${id}/kill?wait=true`, { token: ctx.admin.token, method: "POST" });
  }, 30_000);

});

describe("the node's answers for several servers", () => {
  for (const path of ["/daemon/player-counts", "/daemon/list-statuses"]) {
    test(`${path}: more than a page of ids is refused; without a node token nothing is answered`, async () => {
      const ids = Array.from({ length: 101 }, (_, i) => i.toString(16).padStart(8, "0")).join(",");
      expect(await errorOf(await ctx.node.call("GET", `${path}?ids=${ids}`))).toMatchObject({ code: "ErrFieldTooLarge" });
      expect((await fetch(`${ctx.node.node.url}${path}?ids=ffffffff`)).status).toBe(401);
    });
  }
});
