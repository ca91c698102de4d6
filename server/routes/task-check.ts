// POST /api/nodes/tasks/check: a node asks, before a scheduled or triggered run of a task (by id), whether
// the user the panel saw save it may still do all of it (`steps`: its operations whole, so the variables they name are
// checked too). Not for browsers or API clients: the caller proves it is the node holding the
// server with a node token (Bearer). Answers 204, or the reason as an error.
import { PANEL_CALLS } from "../../core/contract";
import { Hono } from "hono";
import { z } from "../../core/zod";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { nodeCallOf, readBody } from "../request";
import { parseWith } from "../validate";
import { checkScheduledRun } from "../services/tasks";
import { MAX_CLIENT_ID } from "../../core/tasks";


const checkSchema = z.object({
  serverId: z.string().check(z.minLength(1), z.maxLength(64)),
  task: z.optional(z.string().check(z.maxLength(64))),
  // The node's word on who saved the task, still sent and accepted; never believed (services/tasks/savers).
  owner: z.optional(z.number().check(z.int())),
  client: z.optional(z.string().check(z.maxLength(MAX_CLIENT_ID))),
  operations: z.array(z.string().check(z.maxLength(32))).check(z.maxLength(1000)),
  triggers: z.optional(z.array(z.string().check(z.maxLength(32))).check(z.maxLength(100))),
  steps: z.optional(z.array(z.unknown()).check(z.maxLength(1000))),
  variable: z.optional(z.string().check(z.maxLength(100))),
});

export function taskCheckRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.post(PANEL_CALLS.taskCheck, async (c) => {
    const { owner: _owner, client: _client, ...body } = parseWith(checkSchema, await readBody(c));
    await checkScheduledRun(deps.db, { ...body, nodeCall: nodeCallOf(c) });
    return c.body(null, 204);
  });
  return app;
}
