// The daemon's server API (spec section 7 "Daemon proxy", under /daemon/server/{id}): the
// definition, its variables, reload, status, stats, console and power actions.
import { Hono } from "hono";
import { z } from "zod";
import { KilnError } from "../../core/errors";
import { variableValues } from "../../core/definition";
import type { ServerManager } from "../servers/manager";
import { POWER_ACTIONS, type PowerAction } from "../servers/server";
import { parseDefinition } from "../servers/store";
import { readJson } from "../http/body";

const dataBody = z.object({ data: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])) });

export function serverRoutes(manager: ServerManager) {
  const app = new Hono();

  app.put("/:id", async (c) => {
    const definition = parseDefinition(await readJson(c));
    manager.create(c.req.param("id"), definition);
    return c.json({ id: c.req.param("id") }, 201);
  });

  app.get("/:id", (c) => c.json(manager.get(c.req.param("id")).definition));

  app.post("/:id", async (c) => {
    const definition = parseDefinition(await readJson(c));
    manager.update(c.req.param("id"), definition);
    return c.body(null, 204);
  });

  app.delete("/:id", async (c) => {
    await manager.remove(c.req.param("id"));
    return c.body(null, 204);
  });

  app.post("/:id/reload", (c) => {
    manager.reload(c.req.param("id"));
    return c.body(null, 204);
  });

  app.get("/:id/data", (c) => c.json({ data: variableValues(manager.get(c.req.param("id")).definition) }));

  app.post("/:id/data", async (c) => {
    const id = c.req.param("id");
    const parsed = dataBody.safeParse(await readJson(c));
    if (!parsed.success) throw new KilnError("ErrFieldRequired", { field: "data" });
    const definition = structuredClone(manager.get(id).definition);
    for (const [name, value] of Object.entries(parsed.data.data)) {
      const variable = definition.data[name];
      if (!variable) throw new KilnError("ErrNotFound", { field: name }, `no variable ${name}`);
      variable.value = value;
    }
    manager.update(id, definition);
    return c.body(null, 204);
  });

  app.get("/:id/status", (c) => c.json(manager.get(c.req.param("id")).status()));

  app.get("/:id/stats", async (c) => c.json(await manager.get(c.req.param("id")).stats()));

  app.get("/:id/console", (c) => {
    const since = Number(c.req.query("time") ?? 0);
    return c.json(manager.get(c.req.param("id")).console.since(Number.isFinite(since) ? since : 0));
  });

  app.post("/:id/console", async (c) => {
    const server = manager.get(c.req.param("id"));
    const command = await c.req.text();
    if (!command.trim()) throw new KilnError("ErrFieldRequired", { field: "command" });
    await server.sendCommand(command);
    return c.body(null, 204);
  });

  app.post(`/:id/:action{${POWER_ACTIONS.join("|")}}`, async (c) => {
    const server = manager.get(c.req.param("id"));
    const action = c.req.param("action") as PowerAction;
    if (action === "start" || action === "restart" || action === "install") server.checkRequirements();
    const running = server.power(action);
    if (c.req.query("wait") === "true") {
      await running;
      return c.body(null, 204);
    }
    // Without wait the outcome shows on the console and in status messages.
    running.catch(() => undefined);
    return c.body(null, 202);
  });

  return app;
}
