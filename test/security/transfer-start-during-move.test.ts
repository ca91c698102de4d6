// Attack: a server user with the start right (or a scheduled task, or the socket) starts the
// server on its source node while an administrator moves it. The move had stopped the server so
// its folder would hold still; started again, the server wrote to files the target had already
// copied, the switch went on with the copies, and the source's folder (the newer writes, the
// running server) was removed: what players did meanwhile was lost, and the server came up on the
// target stopped. Now a server whose folder is offered for a move (from the offer to its revoke or
// expiry) does not start, restart or install on its node, whoever asks: ErrTransferInProgress.
// Stopping stays possible; a move that fails revokes the offer before it starts the server again.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
const ID = "being-moved";

beforeAll(async () => {
  node = await startTestNode();
  await node.json("PUT", `/daemon/server/${ID}`, echoTemplate());
});
afterAll(() => node?.stop());

const running = async () => (await node.json("GET", `/daemon/server/${ID}/status`)).running === true;

test("an offered server does not start, restart or install, whoever asks; it stops, and starts once the offer is revoked", async () => {
  expect((await node.call("POST", `/daemon/server/${ID}/transfer/offer`)).status).toBe(200);
  for (const action of ["start", "restart", "install"]) {
    const answer = await node.call("POST", `/daemon/server/${ID}/${action}?wait=true`);
    const text = await answer.text();
    expect([action, answer.status, text ? JSON.parse(text).error?.code : null]).toEqual([action, 409, "ErrTransferInProgress"]);
    expect(await running()).toBe(false);
  }
  expect((await node.call("POST", `/daemon/server/${ID}/stop?wait=true`)).status).toBeLessThan(300);
  expect((await node.call("DELETE", `/daemon/server/${ID}/transfer/offer`)).status).toBe(204);
  expect((await node.call("POST", `/daemon/server/${ID}/start?wait=true`)).status).toBeLessThan(300);
  await eventually(running, 5000, "the server to run");
  // Offered while it runs (a move that keeps it running): it is not restarted, it may be stopped.
  expect((await node.call("POST", `/daemon/server/${ID}/transfer/offer`)).status).toBe(200);
  expect((await node.call("POST", `/daemon/server/${ID}/restart?wait=true`)).status).toBe(409);
  expect((await node.call("POST", `/daemon/server/${ID}/stop?wait=true`)).status).toBeLessThan(300);
  expect(await running()).toBe(false);
}, 60_000);
