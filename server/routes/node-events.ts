// POST /api/nodes/events: a node reports what happened on its servers (services/activity/
// node-events). Not for browsers or API clients: the caller proves it is a node with a node token.
import { Hono } from "hono";
import { PANEL_CALLS } from "../../core/contract";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { nodeCallOf, readBody } from "../request";
import { recordNodeEvents } from "../services/activity/node-events";

export function nodeEventRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.post(PANEL_CALLS.events, async (c) => c.json(await recordNodeEvents(deps.db, nodeCallOf(c), await readBody(c))));
  return app;
}
