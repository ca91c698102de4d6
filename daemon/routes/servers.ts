// The daemon's server API (under /daemon/server/{id}, which the panel proxies): the
// definition, its variables, reload, status, stats, console and power actions.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { assertNoReservedKeys, checkDefinitionValues, variableValues, withVariableValues } from "../../core/definition";
import { valuesFromDataBody } from "../../core/definition/data-body";
import type { ServerManager } from "../servers/manager";
import { POWER_ACTIONS } from "../../core/contract/power-actions";
import { parseDefinition } from "../servers/store";
import { readJson } from "../http/body";
import { consoleAnswer } from "../servers/console-answer";
import type { ConsoleReplays } from "../channel/replay";
import { KEEP_CHANGED, keepsChanged } from "../../core/install";


/** The JSON as sent, once no key in it is `__proto__`, `constructor` or the like (zod would drop some unseen). */
function withoutReservedKeys(json: unknown): unknown {
  assertNoReservedKeys(json);
  return json;
}

export function serverRoutes(manager: ServerManager, channel: { readonly replays: ConsoleReplays }) {
  const app = new Hono();

  // Every definition on disk, loaded or not: what the panel reconciles its rows against. Not
  // proxied (the proxy only reaches paths under one server's id).
  app.get("/", (c) => c.json({ servers: manager.store.ids() }));

  app.put("/:id", async (c) => {
    const definition = parseDefinition(withoutReservedKeys(await readJson(c)));
    checkDefinitionValues(definition);
    manager.create(c.req.param("id"), definition);
    return c.json({ id: c.req.param("id") }, 201);
  });

  app.get("/:id", (c) => c.json(manager.get(c.req.param("id")).definition));

  app.post("/:id", async (c) => {
    const definition = parseDefinition(withoutReservedKeys(await readJson(c)));
    checkDefinitionValues(definition);
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
    // Read by hand rather than through a zod record, which would drop a "__proto__" key unseen:
    // every name sent must be one of the server's variables, every value its variable's type.
    // A variable may also come whole (PufferPanel 2, puffMob): core/definition/data-body.
    const body = (await readJson(c)) as { data?: unknown } | null;
    const data = body && typeof body === "object" ? body.data : undefined;
    if (!data || typeof data !== "object" || Array.isArray(data)) throw new KilnError("ErrFieldRequired", { field: "data" });
    const definition = manager.get(id).definition;
    manager.update(id, withVariableValues(definition, valuesFromDataBody(data as Record<string, unknown>, definition.data)));
    return c.body(null, 204);
  });

  app.get("/:id/status", (c) => c.json(manager.get(c.req.param("id")).status()));

  app.get("/:id/stats", async (c) => c.json(await manager.get(c.req.param("id")).stats()));

  // The last query's result; null while the server is not running (the panel answers ErrServerOffline then).
  app.get("/:id/players", (c) => c.json({ players: manager.get(c.req.param("id")).players.current() }));

  app.get("/:id/console", (c) => {
    const buffer = manager.get(c.req.param("id")).console;
    const answer = consoleAnswer(buffer, c.req.query("time"), Date.now(), c.req.query("tail"));
    // The same budget as a socket's replay: reading the whole buffer over and over is the same work.
    channel.replays.charge(buffer, answer.logs);
    return c.json(answer);
  });

  app.post("/:id/console", async (c) => {
    const server = manager.get(c.req.param("id"));
    const command = await c.req.text();
    if (!command.trim()) throw new KilnError("ErrFieldRequired", { field: "command" });
    await server.sendCommand(command);
    return c.body(null, 204);
  });

  app.get("/:id/install/changes", async (c) => c.json(await manager.get(c.req.param("id")).installChanges()));

  // One route per power action (core/contract/power-actions), so the node's routes are the contract's.
  for (const action of POWER_ACTIONS) {
    app.post(`/:id/${action}`, async (c) => {
      const { finished } = await manager.get(c.req.param("id")).begin(action, { keepChanged: keepsChanged(c.req.query(KEEP_CHANGED)) });
      if (c.req.query("wait") === "true") {
        await finished;
        return c.body(null, 204);
      }
      // Without wait the outcome shows on the console and in status messages. Stop and kill answer
      // 204 as PufferPanel's daemon does (puffMob reads any 2xx but 204 as JSON, and an empty 202
      // fails it); start, install and restart answer 202 "queued", as PufferPanel's start does.
      finished.catch(() => undefined);
      return c.body(null, action === "stop" || action === "kill" ? 204 : 202);
    });
  }

  return app;
}
