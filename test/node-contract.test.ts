// The panel–node contract is one table (core/contract): the node serves exactly its operations,
// and what the panel derives from it (the proxy's rules, the socket's rules, the page forms' power
// checks, the API documentation) says what the table says.
import { describe, expect, test } from "bun:test";
import { createDaemonApp, type DaemonAppDeps } from "../daemon/app";
import { NODE_OPERATIONS, POWER_ACTION_RULES, POWER_ACTIONS, PROXIED_OPERATIONS, proxiedOperation, socketRequirement } from "../core/contract";
import { NODE_PROOF_PATH } from "../core/node-token";
import { TRANSFER_SOURCE_PATHS } from "../core/transfer/wire";
import { OPERATIONS } from "../server/api-docs/operations";
import { proxyChangesState } from "../server/routes/proxy-rules";

/**
 * Routes the node serves that are not the panel's calls, so not in the table: the proof asks for no
 * token (it is the node's answer to a challenge), and a move's source routes are asked by the
 * target node with the source's ticket (daemon/transfer/source-routes), never with a node token.
 */
const NOT_PANEL_CALLS = new Set([`GET ${NODE_PROOF_PATH}`, `GET ${TRANSFER_SOURCE_PATHS.manifest}`, `GET ${TRANSFER_SOURCE_PATHS.file}`]);

/** The node's routes as its app declares them: building the app only registers them. */
function nodeRoutes(): Set<string> {
  const app = createDaemonApp({ credentials: { secret: "x".repeat(16) }, backups: {}, mods: {} } as unknown as DaemonAppDeps);
  return new Set(app.routes.filter((r) => r.method !== "ALL").map((r) => `${r.method} ${r.path}`));
}

describe("the node contract", () => {
  test("the node serves every operation of the table, and nothing the table does not name", () => {
    const served = nodeRoutes();
    const table = new Set(Object.values(NODE_OPERATIONS).map((op) => `${op.method} ${op.path}`));
    for (const route of NOT_PANEL_CALLS) expect(served.delete(route)).toBe(true);
    expect([...served].filter((route) => !table.has(route)).sort()).toEqual([]);
    expect([...table].filter((route) => !served.has(route)).sort()).toEqual([]);
  });

  test("a route added to the node and not to the table is found (the check above can fail)", () => {
    const app = createDaemonApp({ credentials: { secret: "x".repeat(16) }, backups: {}, mods: {} } as unknown as DaemonAppDeps);
    app.get("/daemon/server/:id/not-in-the-table", (c) => c.json({}));
    const table = new Set(Object.values(NODE_OPERATIONS).map((op) => `${op.method} ${op.path}`));
    const extra = app.routes.filter((r) => r.method !== "ALL" && !table.has(`${r.method} ${r.path}`) && !NOT_PANEL_CALLS.has(`${r.method} ${r.path}`));
    expect(extra.map((r) => `${r.method} ${r.path}`)).toEqual(["GET /daemon/server/:id/not-in-the-table"]);
  });

  test("the proxy offers exactly the table's proxied operations, under the server's id", () => {
    for (const op of PROXIED_OPERATIONS) {
      expect(op.path.startsWith("/daemon/server/:id")).toBe(true);
      const rest = op.path.slice("/daemon/server/:id".length).replace(/:[A-Za-z]+/g, "x").replace("*", "a/b.txt");
      expect([op.method, rest, proxiedOperation(op.method, rest)?.proxy.needs]).toEqual([op.method, rest, op.proxy.needs]);
    }
    // Operations the table keeps to the panel are not offered, whatever the path says.
    for (const [method, rest] of [["PUT", ""], ["DELETE", ""], ["GET", "/../../backup-targets"], ["GET", "/nonsense"]]) expect(proxiedOperation(method!, rest!)).toBeUndefined();
    expect(proxyChangesState("GET", "/extract/a.zip")).toBe(true);
    expect(proxyChangesState("GET", "/file/a.zip")).toBe(false);
    expect(proxyChangesState("POST", "/console")).toBe(true);
  });

  test("power actions: one right each, the same over HTTP, the socket and the page forms", () => {
    for (const action of POWER_ACTIONS) {
      const needs = POWER_ACTION_RULES[action].needs;
      expect(proxiedOperation("POST", `/${action}`)?.proxy.needs).toBe(needs);
      expect(socketRequirement({ type: action })).toBe(needs);
    }
  });

  test("the API documentation lists every proxied operation with what it needs", () => {
    for (const op of PROXIED_OPERATIONS) {
      const path = `/proxy${op.path.replace(/:([A-Za-z]+)/g, "{$1}").replace("*", "{path}")}`;
      const documented = OPERATIONS.find((o) => o.method === op.method.toLowerCase() && o.path === path);
      expect([path, documented?.summary]).toEqual([path, op.proxy.summary]);
    }
  });
});
