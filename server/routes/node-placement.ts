// /api/nodes/{id}/evacuate (move every server off a draining node; its progress) and
// /api/nodes/{id}/rebalance (moves Kiln proposes for a node that stayed loaded): thin doors onto
// services/placement.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireScope } from "../middleware/require";
import { evacuateNode, evacuation } from "../services/placement/evacuate";
import { rebalanceProposals } from "../services/placement/rebalance";

const nodeId = (c: Context): number => {
  const raw = c.req.param("id") ?? "";
  if (!/^\d{1,12}$/.test(raw)) throw new KilnError("ErrNotFound", { id: raw });
  return Number(raw);
};

export function nodePlacementRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.post("/api/nodes/:id/evacuate", requireScope(SCOPES.admin), async (c) => c.json(await evacuateNode(deps.db, c.get("user")!, nodeId(c)), 202));
  // Both name every server of the node, which a holder of nodes.view alone may not see: administrators' (as on the node page).
  app.get("/api/nodes/:id/evacuate", requireScope(SCOPES.admin), async (c) => c.json(await evacuation(deps.db, nodeId(c))));
  app.get("/api/nodes/:id/rebalance", requireScope(SCOPES.admin), async (c) => c.json(await rebalanceProposals(deps.db, nodeId(c), deps.config.rebalance)));
  return app;
}
