// A server's power actions (start, stop, restart) run one after another in its power queue, and a
// co-user with startServer (the Operator preset) may ask for as many as he likes: thirty restarts
// asked in a row each stopped and started the server in turn, the owner's stop waited behind all
// of them (a minute here, hours for a game that takes a while to stop and start), and the owner's
// kill, which skips the queue, was undone by the next restart waiting in it. A power action now
// replaces those still waiting (the last one asked decides how the server ends), and a kill drops
// them: what waits is at most one action, whoever asked for how many.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { eventually } from "../helpers/node";

let ctx: PanelWithNode;
let id: string;
let coUser: { token: string };

beforeAll(async () => {
  ctx = await panelWithNode();
  id = await ctx.createServer("power-flood");
  coUser = await ctx.userWith(id, { startServer: true, viewServerConsole: true });
}, 60_000);
afterAll(async () => {
  await ctx?.node.stop();
});

const power = (action: string, token: string, wait = false) => ctx.panel.request(`/proxy/daemon/server/${id}/${action}${wait ? "?wait=true" : ""}`, { token, method: "POST" });
const server = () => ctx.node.node.manager.get(id);

test("a co-user's thirty restarts keep neither the owner's stop waiting nor the server running after his kill", async () => {
  expect((await power("start", ctx.admin.token, true)).status).toBe(204);
  for (let i = 0; i < 30; i++) expect((await power("restart", coUser.token)).status).toBe(202);

  // The owner's stop waits for the restart under way at most, then holds.
  const asked = Date.now();
  expect((await power("stop", ctx.admin.token, true)).status).toBe(204);
  expect(Date.now() - asked).toBeLessThan(8_000);
  await Bun.sleep(2_500);
  expect(server().status().running).toBe(false);

  // The same with a kill: what waited in the queue does not start the server again.
  expect((await power("start", ctx.admin.token, true)).status).toBe(204);
  for (let i = 0; i < 30; i++) expect((await power("restart", coUser.token)).status).toBe(202);
  expect((await power("kill", ctx.admin.token, true)).status).toBe(204);
  await Bun.sleep(3_500);
  expect(server().status().running).toBe(false);
  // The co-user still starts it when he asks again: his right, not a slot of the owner's.
  expect((await power("start", coUser.token, true)).status).toBe(204);
  await eventually(() => server().status().running, 5_000, "the co-user's start");
  expect((await power("kill", ctx.admin.token, true)).status).toBe(204);
}, 120_000);

// A replaced action says so. Attack: a co-user with startServer (the Operator preset) makes the owner's stop report that the
// server stopped while it runs. The power queue keeps one waiting start, stop or restart, the next
// one asked replacing it; the replaced one settled as its replacement did, so the owner's stop
// asked while the co-user's restart was under way, then replaced by the co-user's start, answered
// 204 to ?wait=true (and a task's stop step went on to its next step, files changed or a backup
// made "with the server stopped") with the server running. A replaced action now settles as its
// replacement only when that one ends the server as it would have (a start by a restart, or the
// same action); otherwise it is refused, ErrPowerReplaced, and its caller knows it did not happen.
test("the owner's stop replaced by a co-user's start does not answer that the server stopped", async () => {
  expect((await power("start", ctx.admin.token, true)).status).toBe(204);
  // The co-user's restart is under way; the owner's stop waits behind it.
  expect((await power("restart", coUser.token)).status).toBe(202);
  const stopped = power("stop", ctx.admin.token, true);
  await Bun.sleep(300);
  // The co-user's start takes the waiting stop's place.
  expect((await power("start", coUser.token)).status).toBe(202);
  const answer = await stopped;
  await eventually(() => server().status().running, 10_000, "the co-user's start");
  expect(answer.status).toBe(409);
  expect(((await answer.json()) as { error: { code: string } }).error.code).toBe("ErrPowerReplaced");
  expect(server().status().running).toBe(true);

  // The same action asked again settles both alike: the owner's first stop hears the second's end.
  expect((await power("restart", coUser.token)).status).toBe(202);
  const first = power("stop", ctx.admin.token, true);
  await Bun.sleep(300);
  const second = power("stop", ctx.admin.token, true);
  expect((await first).status).toBe(204);
  expect((await second).status).toBe(204);
  expect(server().status().running).toBe(false);
}, 120_000);
