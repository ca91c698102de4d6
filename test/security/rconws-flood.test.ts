// ATTACK: a game's WebSocket RCON console (Rust's WebRCON: run.stdin rconws) sends what it likes.
// Bun's WebSocket client takes messages of up to 128 MB, and the node parsed each as JSON before
// anything looked at its size, on its only thread; a game sending 100 MB messages without pause
// held that thread for most of every second and the node's memory by hundreds of MB. The node now
// drops a message past MAX_RCONWS_MESSAGE unparsed (and says so) and reads nothing more for as
// long as its size takes at the output's rate (receiving one still costs Bun's client its time, so
// such a message comes now and then, not as a stream); what it keeps is charged to the console's
// budget, and the socket is not read while that is spent. The game is a real process of its own
// (a Bun WebSocket server), which says each message the node's client has taken.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { templateSchema } from "../../core/definition";
import { startTestNode, eventually, type TestNode } from "../helpers/node";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000, isolation: { nftPath: "/nonexistent/nft" } });
});
afterAll(() => node.stop());

/** A WebRCON server that answers each connection with `count` messages of `bytes` each, padded outside Message. */
const GAME = (count: number, bytes: number) => `
const pad = "x".repeat(${bytes});
const server = Bun.serve({
  port: 0,
  fetch(req, srv) { return srv.upgrade(req) ? undefined : new Response("no", { status: 400 }); },
  websocket: {
    maxPayloadLength: 256 * 1024 * 1024,
    message() {},
    async open(ws) {
      // Each sent whole before the next (past its backpressure limit Bun's server drops a message).
      const drained = async () => { while (ws.getBufferedAmount() > 0) await Bun.sleep(10); };
      for (let i = 0; i < ${count}; i++) { ws.send(JSON.stringify({ Identifier: -1, Message: "flood " + i, Name: "WebRcon", Stack: pad })); await drained(); console.log("taken " + i); }
      ws.send(JSON.stringify({ Identifier: -1, Message: "the game's last words", Name: "WebRcon" }));
    },
  },
});
console.log(server.port);
`;

describe("a WebRCON game sending 100 MB messages", () => {
  test("has at most one read now and then, not a stream", async () => {
    const script = join(mkdtempSync(join(tmpdir(), "kiln-rconws-")), "game.ts");
    await Bun.write(script, GAME(6, 100_000_000));
    const game = Bun.spawn([process.execPath, script], { stdout: "pipe" });
    let said = "";
    const reader = game.stdout.getReader();
    const port = Number(new TextDecoder().decode((await reader.read()).value).trim());
    void (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) said += new TextDecoder().decode(chunk.value);
    })();
    try {
      const definition = templateSchema.parse({ display: "rconws flood", run: { command: "sleep 60", stdin: { type: "rconws", port: String(port), password: "x" } }, environment: { type: "standard" } });
      await node.json("PUT", "/daemon/server/webrcon", definition);
      const socket = await node.socket("webrcon");
      await node.json("POST", "/daemon/server/webrcon/start?wait=true");
      await eventually(() => said.includes("taken 0"), 30_000, "the first message to be taken");
      // Each message takes the client about a second here; unbounded, all six were taken by now.
      await Bun.sleep(8000);
      const taken = said.split("\n").filter((line) => line.startsWith("taken")).length;
      const shown = socket.consoleText();
      socket.close();
      await node.json("POST", "/daemon/server/webrcon/kill");
      expect(taken).toBeLessThanOrEqual(2);
      expect(shown).toMatch(/bytes of output were dropped/);
    } finally {
      game.kill();
    }
  }, 90_000);
});
