// /api/nodes: list, create, read, update, delete, and the deployment
// instructions (config file and command) for a new machine.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import { API_SCHEMAS } from "../../core/api/schemas";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { readBody } from "../request";
import { requireScope } from "../middleware/require";
import { parseWith } from "../validate";
import { publicOrigin } from "../relying-party";
import { createNode, deleteNode, getNodeRow, listNodes, nodeDeployment, nodeView, updateNode } from "../services/nodes";
import { checkNode } from "../node-heartbeat";
import { executableState } from "../services/nodes/executable";

function nodeId(raw: string): number {
  const id = Number(raw);
  if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrNotFound", { id: raw });
  return id;
}

export function nodeRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/api/nodes", requireScope(SCOPES.nodesView), async (c) => c.json(await listNodes(deps.db)));

  app.post("/api/nodes", requireScope(SCOPES.nodesEdit), async (c) => {
    const node = await createNode(deps.db, parseWith(API_SCHEMAS.node, await readBody(c)));
    void checkNode(deps.db, node.id);
    return c.json(node, 201);
  });

  app.get("/api/nodes/:id", requireScope(SCOPES.nodesView), async (c) => c.json(nodeView(await getNodeRow(deps.db, nodeId(c.req.param("id"))))));

  app.put("/api/nodes/:id", requireScope(SCOPES.nodesEdit), async (c) => {
    const node = await updateNode(deps.db, nodeId(c.req.param("id")), parseWith(API_SCHEMAS.node, await readBody(c)), c.get("user")!);
    return c.json(node);
  });

  app.delete("/api/nodes/:id", requireScope(SCOPES.nodesEdit), async (c) => {
    await deleteNode(deps.db, nodeId(c.req.param("id")));
    return c.body(null, 204);
  });

  /** What an operator puts on the new machine: one config file, one command. Holds the secret. */
  app.get("/api/nodes/:id/deployment", requireScope(SCOPES.nodesDeploy), async (c) => {
    // The executable's size beside it (null while a checkout builds it, or when there is none).
    const executable = executableState(deps.config);
    return c.json({ ...nodeDeployment(await getNodeRow(deps.db, nodeId(c.req.param("id"))), await publicOrigin(c, deps)), executableSize: executable.kind === "ready" ? executable.size : null });
  });

  return app;
}
