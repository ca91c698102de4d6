// Every route of the panel that names a server, read from the app's own route list (pages, forms,
// the JSON API, the proxy, the socket door), attacked by a user holding every right on a server of
// their own and no row on this one, and by an administrator's OAuth2 client bound to another
// server: each is refused, no row of any table changes and the node is never asked. A route added
// under a server's id is attacked here without a line written for it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { boundClient, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { recordNodeCalls, type NodeRecorder } from "../helpers/node-recorder";
import { attackRoute, type RouteAttacker } from "../helpers/route-attack";
import { SERVER_FLAGS } from "../../core/scopes";

/** A route whose first parameter is a server's id. */
const SERVER_ROUTE = /^\/(?:server|api\/servers|proxy\/daemon\/server|proxy\/daemon\/socket)\/:id(?:\{[^}]*\})?(?:\/|$)/;

let ctx: PanelWithNode;
let recorder: NodeRecorder;
let serverId: string;
let own: string;
/** How each attacker authenticates: a session cookie or a bearer token. */
let attackers: RouteAttacker[];

beforeAll(async () => {
  ctx = await panelWithNode();
  serverId = await ctx.createServer("attacked");
  own = await ctx.createServer("the-attackers-own");
  const stranger = await ctx.userWith(own, Object.fromEntries(SERVER_FLAGS.map((flag) => [flag, true])));
  attackers = [{ who: "a user with every right on another server", token: stranger.token }, { who: "an administrator's client bound to another server", headers: await boundClient(ctx, own) }];
  recorder = await recordNodeCalls(ctx);
});
afterAll(async () => {
  recorder?.stop();
  await ctx.node.stop();
});

function serverRoutes(): { method: string; path: string }[] {
  const seen = new Map<string, { method: string; path: string }>();
  for (const route of ctx.panel.app.routes) {
    if (!SERVER_ROUTE.test(route.path) || route.method === "HEAD") continue;
    for (const method of route.method === "ALL" ? ["GET", "POST", "PUT", "DELETE"] : [route.method]) seen.set(`${method} ${route.path}`, { method, path: route.path });
  }
  return [...seen.values()];
}

function filled(path: string): string {
  return path
    .replace(/:id(\{[^}]*\})?/, serverId)
    .replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_, name: string) => (name === "list" ? "whitelist" : `some-${name}`))
    .replace(/\*$/, "nothing-here");
}

describe("a stranger to the server, or a client bound to another", () => {
  test("the app's routes under a server's id are found (more than a hundred)", () => {
    expect(serverRoutes().length).toBeGreaterThan(100);
  });

  test("is refused on every route that names it; nothing changes and the node is never asked", async () => {
    // The attackers can be answered: each reaches its own server.
    for (const attacker of attackers) expect((await ctx.panel.request(`/api/servers/${own}`, { token: attacker.token, headers: attacker.headers })).status).toBe(200);
    const answered: string[] = [];
    const fields = { name: "x", command: "say hi", path: "a.txt", confirm: "attacked" };
    for (const attacker of attackers)
      for (const { method, path } of serverRoutes()) answered.push(...(await attackRoute(ctx, recorder, attacker, { method, url: filled(path), fields, refused: [403, 404], getHeaders: { upgrade: "websocket", origin: "http://localhost" } })));
    expect(answered).toEqual([]);
  }, 120_000);
});
