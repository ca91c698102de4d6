// The daemon's task API (/tasks under /daemon/server/{id}): list, create,
// change, delete and run now. The panel checks who may do what before it calls; here a task
// is checked for shape and schedule, and who saved it (`owner`) is kept for scheduled runs.
import { Hono, type Context } from "hono";
import { MAX_CLIENT_ID, parseTask, type StoredTask } from "../../core/tasks";
import type { TaskScheduler } from "../tasks/scheduler";
import { readJson } from "../http/body";

export function taskRoutes(scheduler: TaskScheduler) {
  const app = new Hono();

  // {tasks: {id: task}}, as PufferPanel's daemon answers (its clients read `.tasks`); each task
  // also says when it last ran and when it runs next.
  app.get("/:id/tasks", (c) => c.json({ tasks: scheduler.listing(c.req.param("id")) }));

  app.post("/:id/tasks", async (c) => {
    const id = scheduler.create(c.req.param("id"), await readTask(c));
    return c.json({ id }, 201);
  });

  app.put("/:id/tasks/:taskId", async (c) => {
    scheduler.update(c.req.param("id"), c.req.param("taskId"), await readTask(c));
    return c.body(null, 204);
  });

  app.delete("/:id/tasks/:taskId", (c) => {
    scheduler.remove(c.req.param("id"), c.req.param("taskId"));
    return c.body(null, 204);
  });

  app.post("/:id/tasks/:taskId/run", async (c) => {
    const run = scheduler.runNow(c.req.param("id"), c.req.param("taskId"));
    if (c.req.query("wait") === "true") return c.json({ succeeded: await run });
    // Without wait the run's progress shows on the console.
    run.catch(() => undefined);
    return c.body(null, 202);
  });

  return app;
}

async function readTask(c: Context): Promise<StoredTask> {
  const raw = await readJson(c);
  const task: StoredTask = parseTask(raw);
  const { owner, client } = raw as { owner?: unknown; client?: unknown };
  if (Number.isSafeInteger(owner)) task.owner = owner as number;
  if (typeof client === "string" && client.length > 0 && client.length <= MAX_CLIENT_ID) task.client = client;
  return task;
}
