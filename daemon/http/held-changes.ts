// The node's HTTP door to its servers' changes (servers/folder-changes): a call under
// /daemon/server/:id that changes state is counted as one change while it runs, and refused while
// the server is held for a move, unless the contract says the move itself needs it (whileMoving).
// What each call is comes from the contract's table, as the proxy reads it. A call with a body
// hands the change what ends that body (http/paced-body), for a move's offer.
import type { MiddlewareHandler } from "hono";
import { NODE_OPERATIONS, operationChangesState, operationPattern, type NodeOperation } from "../../core/contract";
import type { ServerManager } from "../servers/manager";
import { bodyEnder } from "./paced-body";

const HELD = (Object.values(NODE_OPERATIONS) as NodeOperation[])
  .filter((op) => op.path.startsWith("/daemon/server/:id") && operationChangesState(op) && !op.whileMoving)
  .map((op) => ({ method: op.method, path: operationPattern(op.path) }));

function isHeldCall(method: string, path: string): boolean {
  const verb = method === "HEAD" ? "GET" : method;
  return HELD.some((op) => op.method === verb && op.path.test(path));
}

export function countServerChanges(manager: ServerManager): MiddlewareHandler {
  return async (c, next) => {
    // A server this node does not hold has nothing to count: its route answers for itself.
    const server = isHeldCall(c.req.method, c.req.path) ? manager.find(c.req.param("id") ?? "") : undefined;
    if (!server) return next();
    const end = server.changes.begin(bodyEnder(c.req.raw));
    try {
      await next();
    } finally {
      end();
    }
  };
}
