// Attack: the node's own socket (daemon/channel), as a client holding a socket or trying to get
// one: tokens that are not the node's, oversized messages and frames, refusals in a row, floods.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { signNodeToken } from "../../core/node-token";
import { MAX_FRAME_BYTES, MAX_MESSAGE_BYTES, MAX_REFUSALS, MESSAGE_RATE, ACTION_RATE } from "../../daemon/channel/limits";
import { echoTemplate, eventually, startTestNode, type TestNode, type TestSocket } from "../helpers/node";

let t: TestNode;
const ID = "caps1";

beforeAll(async () => {
  t = await startTestNode({ stopTimeoutMs: 1500 });
  await t.json("PUT", `/daemon/server/${ID}`, echoTemplate());
});
afterAll(() => t.stop());

const closeCode = (s: TestSocket) => new Promise<number>((resolve) => s.ws.addEventListener("close", (e) => resolve(e.code)));

/** An upgrade request by hand, so the refusal's status and body can be read. */
function upgrade(authorization?: string): Promise<Response> {
  return fetch(`${t.node.url}/daemon/socket/${ID}`, {
    headers: { ...(authorization ? { authorization } : {}), upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" },
  });
}

describe("who may open the node's socket", () => {
  test("no token, another node's, an expired one, a forged one, one in the query: 401 ErrInvalidCredentials", async () => {
    const socket = { direction: "to-node" as const, nodeId: 0, method: "GET", target: `/daemon/socket/${ID}` };
    const valid = signNodeToken(t.config.secret, socket);
    const forged = valid.replace(/.$/, (c) => (c === "A" ? "B" : "A"));
    const attempts: Array<[string, string | undefined]> = [
      ["no token", undefined],
      ["another secret", `Bearer ${signNodeToken("another-node-secret-0123456789", socket)}`],
      ["expired", `Bearer ${signNodeToken(t.config.secret, socket, Date.now() - 10 * 60_000)}`],
      ["forged signature", `Bearer ${forged}`],
      ["not bearer", `Basic ${btoa(`node:${t.config.secret}`)}`],
      ["the secret itself", `Bearer ${t.config.secret}`],
    ];
    for (const [what, authorization] of attempts) {
      const response = await upgrade(authorization);
      expect([what, response.status]).toEqual([what, 401]);
      expect((await response.json()).error.code).toBe("ErrInvalidCredentials");
    }
    const inQuery = await fetch(`${t.node.url}/daemon/socket/${ID}?token=${encodeURIComponent(valid)}`, { headers: { upgrade: "websocket", connection: "Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", "sec-websocket-version": "13" } });
    expect(inQuery.status).toBe(401);
    // And the real client gets no socket either.
    const ws = new WebSocket(`${t.node.url.replace("http", "ws")}/daemon/socket/${ID}`);
    expect(await new Promise<string>((resolve) => ((ws.onopen = () => resolve("open")), (ws.onerror = () => resolve("refused"))))).toBe("refused");
  });
});

describe("what one socket may send", () => {
  test("a message over 4 KiB is refused; a frame over 64 KiB closes the socket (1009)", async () => {
    const s = await t.socket(ID);
    s.ws.send(JSON.stringify({ type: "console", data: { command: "x".repeat(MAX_MESSAGE_BYTES) } }));
    expect((await s.next((m) => m.error)).error.code).toBe("ErrMessageTooLarge");
    const closed = closeCode(s);
    s.ws.send("x".repeat(MAX_FRAME_BYTES + 1));
    expect(await closed).toBe(1009);
  });

  test(`${MAX_REFUSALS} refused messages in a row disconnect (1008), whatever the refusal`, async () => {
    const s = await t.socket(ID);
    const closed = closeCode(s);
    // Oversized messages are refused before the rate limit counts them: the refusal count alone ends it.
    for (let i = 0; i < MAX_REFUSALS + 5; i++) s.ws.send("y".repeat(MAX_MESSAGE_BYTES + 1));
    expect(await closed).toBe(1008);
    expect(s.messages.filter((m) => m.error).length).toBe(MAX_REFUSALS);
  });

  test(`the rate limit: ${MESSAGE_RATE.burst} messages at once, ${ACTION_RATE.burst} actions at once, then ErrTooManyRequests`, async () => {
    const s = await t.socket(ID);
    await s.next((m) => m.type === "status");
    for (let i = 0; i < MESSAGE_RATE.burst + 10; i++) s.send("status");
    await eventually(() => s.messages.filter((m) => m.error).length >= 10, 3000, "refusals");
    expect(s.messages.filter((m) => m.type === "status").length).toBeLessThanOrEqual(MESSAGE_RATE.burst + 1 + 2);
    expect(new Set(s.messages.filter((m) => m.error).map((m) => m.error.code))).toEqual(new Set(["ErrTooManyRequests"]));
    s.close();
    // Actions have their own, smaller budget: console commands to a stopped server are refused one way or the other, never run.
    const a = await t.socket(ID);
    for (let i = 0; i < ACTION_RATE.burst + 5; i++) a.send("console", { command: "x" });
    await eventually(() => a.messages.some((m) => m.error && m.error.code === "ErrTooManyRequests"), 3000, "action refusals");
    a.close();
  });
});
