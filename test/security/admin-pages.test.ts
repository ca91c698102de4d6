// The panel's administration pages and forms (users and roles, nodes, templates, settings, adding a
// server), read from the app's own route list, attacked by a user holding every scope but the
// area's own (and never admin), and by an administrator's OAuth2 client bound to a server (which
// carries no panel-wide scope): every page and form of the area is refused, no row of any table
// changes and no node is asked. A page added to an area is attacked here without a line written
// for it. Which scopes open which area is docs/security.md's "Who holds what".
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { boundClient, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { recordNodeCalls, type NodeRecorder } from "../helpers/node-recorder";
import { attackRoute } from "../helpers/route-attack";
import { loginAs } from "../helpers/app";
import { ALL_SCOPES, SCOPES, type Scope } from "../../core/scopes";

const AREAS: { name: string; paths: RegExp; scopes: Scope[] }[] = [
  { name: "users and roles", paths: /^\/(?:user|adduser|roles)(?:\/|$)/, scopes: [SCOPES.usersView, SCOPES.usersEdit] },
  { name: "nodes", paths: /^\/(?:node|addnode)(?:\/|$)/, scopes: [SCOPES.nodesView, SCOPES.nodesEdit, SCOPES.nodesDeploy] },
  { name: "templates", paths: /^\/(?:template|addtemplate)(?:\/|$)/, scopes: [SCOPES.templatesView, SCOPES.templatesEdit] },
  { name: "settings", paths: /^\/settings(?:\/|$)/, scopes: [SCOPES.settingsEdit] },
  { name: "adding a server", paths: /^\/addserver$/, scopes: [SCOPES.serversCreate] },
];

let ctx: PanelWithNode;
let recorder: NodeRecorder;
let victimId: number;
let bound: Record<string, string>;

beforeAll(async () => {
  ctx = await panelWithNode();
  bound = await boundClient(ctx, await ctx.createServer("on-the-node"));
  victimId = (await loginAs(ctx.panel.db, [])).userId;
  recorder = await recordNodeCalls(ctx);
});
afterAll(async () => {
  recorder?.stop();
  await ctx.node.stop();
});

function filled(path: string): string {
  const values: Record<string, string> = { id: path.startsWith("/user/") ? String(victimId) : path.startsWith("/node/") ? String(ctx.nodeId) : path.startsWith("/template/") ? "echo" : "1", kind: "sftp", name: "pufferpanel" };
  return path.replace(/:([A-Za-z]+)(\{[^}]*\})?/g, (_, name: string) => values[name] ?? "1");
}

describe("administration pages", () => {
  for (const area of AREAS) {
    test(`${area.name}: every page and form refused to a user holding every scope but ${area.scopes.join(", ")}, and to a client bound to a server`, async () => {
      const routes = new Map<string, { method: string; path: string }>();
      for (const route of ctx.panel.app.routes) if (area.paths.test(route.path) && route.method !== "HEAD" && route.method !== "ALL") routes.set(`${route.method} ${route.path}`, route);
      expect(routes.size).toBeGreaterThan(0);
      const user = await loginAs(ctx.panel.db, ALL_SCOPES.filter((scope) => scope !== SCOPES.admin && !area.scopes.includes(scope)));
      const answered: string[] = [];
      for (const attacker of [{ who: "user", token: user.token }, { who: "bound client", headers: bound }])
        for (const { method, path } of routes.values()) answered.push(...(await attackRoute(ctx, recorder, attacker, { method, url: filled(path), fields: { name: "attacked", email: "mallory@example.com", password: "password123", confirm: "attacked" }, refused: [403] })));
      expect(answered).toEqual([]);
    }, 60_000);
  }
});
