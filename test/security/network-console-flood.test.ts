// What a server's network console (telnet, RCON: run.stdin) costs the node. The game behind it is
// the server's own process, so what it sends is as hostile as its output. The process's output is
// read at most at the output throttle's rate (2 MB/s, the pipe made to wait: daemon/servers/
// output-throttle); the console's text was read as fast as the game sent it, byte by byte onto a
// list (telnet), and each line held 500 ms with a timer of its own whose end filtered the whole
// held list: 50,000 lines sent at once held the node's thread 15 s, and a game sending without
// pause held it for good. Now a console is read within a budget of its own (bytes plus a cost a
// line: about 2000 short lines a second), the rest of a read is dropped and said, and the socket is
// not read until the budget is back. The game here is a real process listening on the telnet port
// it names; the node runs in this test's process, so a held thread shows as a gap between ticks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { templateSchema } from "../../core/definition";
import { startTestNode, eventually, type TestNode } from "../helpers/node";
import { freePort } from "../helpers/process";
import { longestStall } from "../helpers/thread-stall";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000, isolation: { nftPath: "/nonexistent/nft" } });
});
afterAll(() => node.stop());

/** A game whose telnet console sends numbered lines as fast as the node takes them. */
const GAME = (port: number, lines: number) => `
const LINES = ${lines};
const net = require("net");
net.createServer((socket) => {
  socket.on("error", () => {});
  let n = 0;
  const pump = () => { while (!socket.destroyed && n < LINES) { let chunk = ""; for (let i = 0; i < 500; i++) chunk += "line " + (n++) + " of a console that never stops talking\\n"; if (!socket.write(chunk)) return socket.once("drain", pump); } };
  pump();
  setTimeout(() => socket.write("the game's last words\\n"), 3000);
}).listen(${port}, "127.0.0.1", () => console.log("listening"));
`;

describe("a game's network console sending without pause", () => {
  test("costs the node a bounded share of its thread", async () => {
    const port = await freePort();
    const definition = templateSchema.parse({
      display: "telnet flood",
      run: { command: "node game.js", stdin: { type: "telnet", port: String(port) } },
      environment: { type: "standard" },
    });
    await node.json("PUT", "/daemon/server/talker", definition);
    await Bun.write(node.folder("talker", "game.js"), GAME(port, 50_000));
    // 50,000 lines at once (2.5 MB): each was held with a timer of its own, and each timer's end
    // filtered the whole held list, so they cost the node's thread half a minute.
    const socket = await node.socket("talker");
    const stall = await longestStall(async () => {
      await node.json("POST", "/daemon/server/talker/start?wait=true");
      await eventually(() => socket.consoleText().includes("the game's last words"), 90_000, "the console's last line");
    });
    const shown = socket.consoleText();
    socket.close();
    await node.json("POST", "/daemon/server/talker/kill");
    // What came beyond the budget was dropped and said so.
    expect(shown).toContain("line 0 of a console");
    expect(shown).toMatch(/bytes of output were dropped/);
    expect(stall).toBeLessThan(500);
  }, 120_000);
});
