// /api/nodes/{id}/allocations (a node's pool), /api/servers/{id}/allocations (a server's own) and
// /api/nodes/{id}/power (bulk power actions): thin doors onto the services, where who may do what
// is decided.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin, requireScope } from "../middleware/require";
import { readBody } from "../request";
import { addToPool, listPool, removeFromPool } from "../services/allocations/pool";
import { nodePower } from "../services/nodes/bulk-power";
import { addServerAllocation, removeServerAllocation, serverAllocations, setAllocationLimit, setPrimaryAllocation } from "../services/allocations/server-allocations";

const number = (c: Context, name: string): number => {
  const raw = c.req.param(name) ?? "";
  if (!/^\d{1,12}$/.test(raw)) throw new KilnError("ErrNotFound", { id: raw });
  return Number(raw);
};

export function allocationRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/api/nodes/:id/allocations", requireScope(SCOPES.nodesView), async (c) => c.json(await listPool(deps.db, number(c, "id"))));
  app.post("/api/nodes/:id/allocations", requireScope(SCOPES.nodesEdit), async (c) => c.json(await addToPool(deps.db, number(c, "id"), await readBody(c)), 201));
  app.delete("/api/nodes/:id/allocations/:allocationId", requireScope(SCOPES.nodesEdit), async (c) => {
    await removeFromPool(deps.db, number(c, "id"), number(c, "allocationId"));
    return c.body(null, 204);
  });

  app.post("/api/nodes/:id/power", requireScope(SCOPES.nodesView), async (c) => c.json({ servers: await nodePower(deps.db, c.get("user")!, number(c, "id"), await readBody(c)) }));

  app.use("/api/servers/:id/allocations/*", requireLogin());
  const user = (c: Context<KilnEnv>) => c.get("user")!;
  app.get("/api/servers/:id/allocations", async (c) => c.json(await serverAllocations(deps.db, user(c), c.req.param("id")!)));
  app.post("/api/servers/:id/allocations", async (c) => c.json(await addServerAllocation(deps.db, user(c), c.req.param("id")!, await readBody(c)), 201));
  app.put("/api/servers/:id/allocations/limit", async (c) => c.json({ limit: await setAllocationLimit(deps.db, user(c), c.req.param("id")!, (await readBody(c)).limit) }));
  app.put("/api/servers/:id/allocations/:allocationId/primary", async (c) => {
    await setPrimaryAllocation(deps.db, user(c), c.req.param("id")!, number(c, "allocationId"));
    return c.body(null, 204);
  });
  app.delete("/api/servers/:id/allocations/:allocationId", async (c) => {
    await removeServerAllocation(deps.db, user(c), c.req.param("id")!, number(c, "allocationId"));
    return c.body(null, 204);
  });
  return app;
}
