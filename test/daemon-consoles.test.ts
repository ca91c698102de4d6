// Network consoles (PufferPanel v3's run.stdin): a server's console input goes to a Source RCON
// server (written here, speaking Valve's protocol over TCP) or a WebSocket RCON server (Rust's
// WebRCON), and the replies show on the server's console. The node reconnects when the console
// opens late, and says so when a password is refused or nothing listens. The console servers
// here stand in for a game's and run in the test's own process, on the node's loopback, so this
// node shares its network with its servers (it is given no nft, as a node without nftables);
// test/daemon-teeworlds.test.ts reaches a real game's console inside its server's own network.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { templateSchema, type ServerDefinition } from "../core/definition";
import { encodeRcon, RconReader, RCON } from "../daemon/environment/consoles/rcon";
import { stripTelnetCommands } from "../daemon/environment/consoles/telnet";
import { startTestNode, eventually, type TestNode } from "./helpers/node";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000, isolation: { nftPath: "/nonexistent/nft" } });
});
afterAll(() => node.stop());

const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

function server(stdin: Record<string, unknown>): ServerDefinition {
  return templateSchema.parse({ display: "console test", run: { command: "sleep 60", stdin }, environment: { type: "standard" } });
}

/** A Source RCON server: password "sesame"; answers each command with "ran: <command>". */
function startRconServer(password = "sesame") {
  const received: string[] = [];
  const listener = Bun.listen<{ reader: RconReader }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (socket) => void (socket.data = { reader: new RconReader() }),
      data(socket, chunk) {
        for (const packet of socket.data.reader.push(chunk)) {
          if (packet.type === RCON.AUTH) {
            socket.write(encodeRcon({ id: packet.id, type: RCON.RESPONSE, body: "" }));
            socket.write(encodeRcon({ id: packet.body === password ? packet.id : -1, type: RCON.AUTH_RESPONSE, body: "" }));
          } else if (packet.type === RCON.EXEC) {
            received.push(packet.body);
            socket.write(encodeRcon({ id: packet.id, type: RCON.RESPONSE, body: `ran: ${packet.body}` }));
          }
        }
      },
    },
  });
  return { port: listener.port, received, stop: () => listener.stop(true) };
}

describe("rcon", () => {
  test("commands go over Source RCON, replies show on the console", async () => {
    const rcon = startRconServer();
    await node.json("PUT", "/daemon/server/rcon1", server({ type: "rcon", port: String(rcon.port), password: "sesame" }));
    await node.json("POST", "/daemon/server/rcon1/start?wait=true");
    await eventually(async () => (await consoleText("rcon1")).includes("connected to the RCON console"), 5000, "the connection");
    await node.call("POST", "/daemon/server/rcon1/console", "status");
    await eventually(async () => (await consoleText("rcon1")).includes("ran: status"), 5000, "the reply");
    expect(rcon.received).toEqual(["status"]);
    await node.json("POST", "/daemon/server/rcon1/kill");
    rcon.stop();
  });

  test("a refused password is said on the console; nothing is executed", async () => {
    const rcon = startRconServer("other");
    await node.json("PUT", "/daemon/server/rcon2", server({ type: "rcon", port: String(rcon.port), password: "sesame" }));
    await node.json("POST", "/daemon/server/rcon2/start?wait=true");
    await eventually(async () => (await consoleText("rcon2")).includes("refused the password"), 8000, "the refusal");
    expect(rcon.received).toEqual([]);
    await node.json("POST", "/daemon/server/rcon2/kill");
    rcon.stop();
  });

  test("a console that opens late is reached once it listens; a command before that says it was not sent", async () => {
    const probe = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
    const port = probe.port;
    probe.stop(true);
    await node.json("PUT", "/daemon/server/rcon3", server({ type: "rcon", port: String(port), password: "sesame" }));
    await node.json("POST", "/daemon/server/rcon3/start?wait=true");
    await node.call("POST", "/daemon/server/rcon3/console", "early");
    await eventually(async () => (await consoleText("rcon3")).includes("the command was not sent"), 10_000, "the notice");
    const rcon = (() => {
      const received: string[] = [];
      const reader = new RconReader();
      const listener = Bun.listen({
        hostname: "127.0.0.1",
        port,
        socket: {
          data(socket, chunk) {
            for (const p of reader.push(chunk)) {
              if (p.type === RCON.AUTH) socket.write(encodeRcon({ id: p.id, type: RCON.AUTH_RESPONSE, body: "" }));
              else received.push(p.body);
            }
          },
        },
      });
      return { received, stop: () => listener.stop(true) };
    })();
    await eventually(async () => (await consoleText("rcon3")).includes("connected to the RCON console"), 5000, "the late connection");
    await node.call("POST", "/daemon/server/rcon3/console", "late");
    await eventually(() => rcon.received.includes("late"), 5000, "the late command");
    await node.json("POST", "/daemon/server/rcon3/kill");
    rcon.stop();
  }, 20_000);
});

describe("rconws", () => {
  test("commands go as WebRCON JSON to ws://host:port/<password>; each reply's Message is shown", async () => {
    const paths: string[] = [];
    const messages: unknown[] = [];
    const ws = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch(req, srv) {
        paths.push(new URL(req.url).pathname);
        return srv.upgrade(req) ? undefined : new Response("no", { status: 400 });
      },
      websocket: {
        message(socket, data) {
          const message = JSON.parse(String(data));
          messages.push(message);
          socket.send(JSON.stringify({ Message: `[Rust] ran ${message.Message}`, Identifier: message.Identifier, Type: "Generic", Stacktrace: "" }));
        },
      },
    });
    await node.json("PUT", "/daemon/server/ws1", server({ type: "rconws", port: String(ws.port), password: "p w/d" }));
    await node.json("POST", "/daemon/server/ws1/start?wait=true");
    await eventually(async () => (await consoleText("ws1")).includes("connected to the WebSocket RCON console"), 5000, "the connection");
    await node.call("POST", "/daemon/server/ws1/console", "players");
    await eventually(async () => (await consoleText("ws1")).includes("[Rust] ran players"), 5000, "the reply");
    expect(paths[0]).toBe("/p%20w%2Fd");
    expect(messages[0]).toMatchObject({ Message: "players", Name: "WebRcon" });
    await node.json("POST", "/daemon/server/ws1/kill");
    void ws.stop(true);
  });
});

describe("telnet", () => {
  test("option negotiation is dropped from what is shown; an escaped 255 is data", () => {
    expect(stripTelnetCommands(new Uint8Array([255, 251, 1, 104, 105, 255, 254, 3, 10]))).toBe("hi\n");
    expect(stripTelnetCommands(new Uint8Array([97, 255, 255, 98])).length).toBe(3);
  });
});
