// Connections to a node kept alive by whoever can reach its port. The node's server has no idle
// timeout (a panel's call may wait minutes without a byte), so a connection kept alive after one
// refused request stayed open for good: a few hundred thousand of them use up the node's
// descriptors and memory, with no secret needed. Now every answer to a request no node token or
// transfer ticket admitted closes its connection (daemon/http/admitted); a panel's admitted
// connections stay open for its next call.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { connect, type Socket } from "node:net";
import { NODE_PROOF_PATH, newChallenge, signNodeToken } from "../../core/node-token";
import { TRANSFER_SOURCE_PATHS } from "../../core/transfer/wire";
import { startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

interface Exchange {
  status: number;
  /** whether the node closed the connection after answering */
  closed: boolean;
  socket: Socket;
}

/** One request on a fresh connection, as raw HTTP/1.1 keep-alive; waits a moment after the answer to see whether the node hangs up. */
function exchange(path: string, headers: Record<string, string> = {}): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect(node.node.port, "127.0.0.1", () => {
      const lines = [`GET ${path} HTTP/1.1`, "Host: 127.0.0.1", "Connection: keep-alive", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
      socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    });
    let text = "";
    let closed = false;
    socket.on("data", (chunk) => {
      text += chunk.toString();
      if (/\r\n\r\n/.test(text)) setTimeout(() => resolve({ status: Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1]), closed, socket }), 300);
    });
    socket.on("close", () => (closed = true));
    socket.on("error", reject);
  });
}

const tokenFor = (path: string) => `Bearer ${signNodeToken(node.config.secret, { direction: "to-node", nodeId: 1, method: "GET", target: path })}`;

test("every answer to a caller without a token or ticket hangs up: refusals, the proof, unknown pages", async () => {
  const tries: Array<[string, Record<string, string>]> = [
    ["/daemon", {}],
    ["/daemon", { authorization: "Bearer forged.token.value" }],
    ["/daemon", { authorization: tokenFor("/daemon/server") }],
    [`${NODE_PROOF_PATH}?node=1&challenge=${newChallenge()}`, {}],
    ["/no-such-page", {}],
    [`${TRANSFER_SOURCE_PATHS.manifest}`, { authorization: "Bearer not-a-ticket" }],
  ];
  for (const [path, headers] of tries) {
    const { status, closed, socket } = await exchange(path, headers);
    socket.destroy();
    expect({ path, status: status > 0, closed }).toEqual({ path, status: true, closed: true });
  }
});

test("two hundred kept-alive connections of refused requests are all closed by the node", async () => {
  const exchanges = await Promise.all(Array.from({ length: 200 }, () => exchange("/daemon")));
  expect(exchanges.filter((e) => !e.closed).length).toBe(0);
  expect(exchanges.every((e) => e.status === 401)).toBe(true);
});

test("a panel's call with its token keeps the connection for the next one", async () => {
  const { status, closed, socket } = await exchange("/daemon", { authorization: tokenFor("/daemon") });
  socket.destroy();
  expect({ status, closed }).toEqual({ status: 200, closed: false });
});
