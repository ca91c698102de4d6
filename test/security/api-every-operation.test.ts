// Every operation of the panel's own JSON API, read from the API documentation's table
// (server/api-docs/operations, what each needs), attacked by whoever holds the most that still
// falls short: no login for a logged-in operation; every scope but the one it needs (and never
// admin), or an administrator's client bound to a server; every server right but the one it needs
// on the server, or every right on a server of one's own. Each attempt is refused (401 or 403, the
// catalogue's code) and no row of the panel's database changes. An operation added to the table is
// attacked here without a line written for it, and a route that checks less than its
// documentation says is found.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { OPERATIONS, type Operation } from "../../server/api-docs/operations";
import { boundClient, panelWithNode, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { loginAs } from "../helpers/app";
import { ALL_SCOPES, SCOPES, SERVER_FLAGS, isScope, type ServerFlag } from "../../core/scopes";
import { everyRow } from "../helpers/every-row";
import { METRICS_TOKEN } from "../../server/api-docs/operations";
import { ERROR_STATUS } from "../../core/errors";

let ctx: PanelWithNode;
let serverId: string;
let otherServer: string;
let victim: { userId: number; email: string };
let roleId: number;
let webhookId: number;
/** An administrator's OAuth2 client bound to another server: it carries no panel-wide scope. */
let bound: Record<string, string>;

beforeAll(async () => {
  ctx = await panelWithNode();
  serverId = await ctx.createServer("attacked");
  otherServer = await ctx.createServer("the-attackers-own");
  bound = await boundClient(ctx, otherServer);
  victim = await loginAs(ctx.panel.db, []);
  const role = await ctx.panel.request("/api/roles", { token: ctx.admin.token, ...jsonInit("POST", { name: "helpers", scopes: [SCOPES.serversView] }) });
  roleId = (await role.json()).id;
  const hook = await ctx.panel.request("/api/webhooks", { token: ctx.admin.token, ...jsonInit("POST", { url: "https://example.com/hook", events: ["server.power.start"], serverId }) });
  webhookId = (await hook.json()).id;
  const provider = await ctx.panel.request("/api/auth/providers", { token: ctx.admin.token, ...jsonInit("POST", { id: "community", name: "Community", type: "oidc", issuer: "https://id.example", clientId: "a", clientSecret: "b" }) });
  expect(provider.status).toBe(201);
  expect([roleId, webhookId].every(Number.isInteger)).toBe(true);
});
afterAll(async () => {
  await ctx.node.call("POST", `/daemon/server/${serverId}/kill`);
  await ctx.node.stop();
});

/** The operation's path with each parameter naming something that exists where it can. */
function filled(op: Operation): string {
  const values: Record<string, string> = {
    id: op.path.startsWith("/api/servers/") ? serverId : op.path.startsWith("/api/users/") ? String(victim.userId) : op.path.startsWith("/api/roles/") ? String(roleId) : op.path.startsWith("/api/nodes/") ? String(ctx.nodeId) : op.path.startsWith("/api/webhooks/") ? String(webhookId) : op.path.startsWith("/api/templates/") ? "echo" : op.path.startsWith("/api/auth/providers/") ? "community" : "any",
    email: victim.email,
    key: "panel.settings.companyName",
    list: "whitelist",
    name: "Steve",
  };
  return op.path.replace(/\{([A-Za-z]+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? "1"));
}

interface Attacker {
  who: string;
  token?: string;
  headers?: Record<string, string>;
}

const scopesBut = (needed: string) => ALL_SCOPES.filter((s) => s !== needed && s !== SCOPES.admin);
const flagsBut = (needed: string | null) => Object.fromEntries(SERVER_FLAGS.filter((f) => f !== needed).map((f) => [f, true]));

/** Who attacks an operation: those holding the most that still falls short of what it needs. */
async function attackers(needs: string): Promise<Attacker[]> {
  if (needs === "login") return [{ who: "nobody logged in" }];
  if (needs === METRICS_TOKEN) return [{ who: "an administrator's session", token: ctx.admin.token }];
  if (needs === "admin" || isScope(needs)) {
    const scope = needs === "admin" ? SCOPES.admin : needs;
    return [{ who: `every scope but ${scope}`, token: (await loginAs(ctx.panel.db, scopesBut(scope))).token }, { who: "an administrator's client bound to a server", headers: bound }];
  }
  const stranger: Attacker = { who: "every right on another server", token: (await ctx.userWith(otherServer, flagsBut(null))).token };
  if (needs === "server: any access") return [stranger];
  const flag = /^(?:login; )?server: (\w+)/.exec(needs)?.[1] as ServerFlag | undefined;
  if (!flag || !SERVER_FLAGS.includes(flag)) throw new Error(`the test does not read the need "${needs}"`);
  return [{ who: `every right but ${flag}`, token: (await ctx.userWith(serverId, flagsBut(flag))).token }, stranger];
}

const ATTACKED = OPERATIONS.filter((op) => op.needs !== "public" && !op.path.startsWith("/proxy/") && op.path.startsWith("/"));
const REFUSALS = new Set(["ErrSessionTimedOut", "ErrMissingScope", "ErrNoPermission", "ErrInvalidCredentials"]);
/**
 * Something the caller may not see is not found to them (a webhook of a server they do not
 * manage): a refusal only where the thing exists, that is where an administrator's GET of it
 * (the documented GET whose path is the longest start of the attacked one) is not answered with
 * a catalogue "not found" (another refusal, such as no executable built, still names a thing).
 */
const HIDDEN = "ErrNotFound";
const found = new Map<string, Promise<boolean>>();
function adminFinds(path: string): Promise<boolean> {
  if (!found.has(path)) found.set(path, ctx.panel.request(path, { token: ctx.admin.token, headers: { accept: "application/json" } }).then(async (res) => !(res.status === 404 && /"code":"Err\w*NotFound"/.test(await res.text()))));
  return found.get(path)!;
}
function thingOf(path: string): string | undefined {
  const gets = ATTACKED.filter((op) => op.method === "get").map(filled);
  return gets.filter((get) => path === get || path.startsWith(`${get}/`)).sort((a, b) => b.length - a.length)[0];
}

/** A body the operation accepts from one who may call it, where `{}` would be refused for its shape before its rights are asked. */
const BODIES: Record<string, () => object> = {
  "post /api/webhooks": () => ({ url: "https://example.com/other", events: ["server.power.start"], serverId }),
};

describe("every operation of the panel's API", () => {
  test("the table's operations are attacked", () => {
    expect(ATTACKED.length).toBeGreaterThan(100);
  });

  // An attack on a thing that does not exist proves little: the paths name real ones.
  test("each operation's path names something that exists (a mod change needs a mod applied: not made here)", async () => {
    const missing: string[] = [];
    for (const op of ATTACKED.filter((o) => o.method === "get" && o.path.includes("{"))) if (!(await adminFinds(filled(op)))) missing.push(op.path);
    expect(missing).toEqual(["/api/servers/{id}/mods/changes/{changeId}"]);
  });

  for (const op of ATTACKED) {
    test(`${op.method.toUpperCase()} ${op.path} needs ${op.needs}: one step short is refused and nothing changes`, async () => {
      const path = filled(op);
      for (const attacker of await attackers(op.needs)) {
        const before = await everyRow(ctx.panel.db);
        const init = op.method === "get" ? { method: "GET" } : jsonInit(op.method.toUpperCase(), BODIES[`${op.method} ${op.path}`]?.() ?? {});
        const res = await ctx.panel.request(path, { ...init, token: attacker.token, headers: { ...(init as { headers?: Record<string, string> }).headers, ...attacker.headers, accept: "application/json" } });
        const text = await res.text();
        const code = text.startsWith("{") ? (JSON.parse(text) as { error?: { code?: string } }).error?.code : undefined;
        const refused = REFUSALS.has(code ?? "") || (code === HIDDEN && thingOf(path) !== undefined && (await adminFinds(thingOf(path)!)));
        expect({ who: attacker.who, path, status: res.status, code }).toEqual({ who: attacker.who, path, status: refused ? ERROR_STATUS[code as keyof typeof ERROR_STATUS] : 403, code: refused ? code : "a refusal" });
        expect(await everyRow(ctx.panel.db)).toEqual(before);
      }
    });
  }
});
