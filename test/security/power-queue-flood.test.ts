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
