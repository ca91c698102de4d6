// What a node's new machine fetches from the panel: the kiln executable
// and the node's config file. Either caller may: a user holding nodes.deploy (session or bearer),
// or the one-line install command with that node's deployment token (services/nodes/deploy-token),
// which opens this node's two files and nothing else, the config (with the secret) once.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES, hasScope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { bearerToken } from "../middleware/authenticate";
import { publicOrigin } from "../relying-party";
import { findNodeRow, getNodeRow, nodeDeployment, type NodeRow } from "../services/nodes";
import { deployTokenNode, isDeployToken, spendDeployToken, verifyDeployToken } from "../services/nodes/deploy-token";
import { nodeConfigPath, nodeExecutablePath } from "../../core/nodes";
import { ensureExecutable } from "../services/nodes/executable";
import type { Db } from "../../db";

/**
 * The node the caller may deploy, or a refusal. Nobody learns from the answer whether a node
 * exists before proving they may deploy nodes: a bad token is refused the same for any id.
 */
async function deployableNode(c: Context<KilnEnv>, db: Db, use: "executable" | "config"): Promise<NodeRow> {
  const raw = c.req.param("id") ?? "";
  const id = Number(raw);
  const token = bearerToken(c.req.header("authorization"));
  if (isDeployToken(token)) {
    const row = Number.isSafeInteger(id) && id > 0 && deployTokenNode(token) === id ? await findNodeRow(db, id) : undefined;
    if (!row || !verifyDeployToken(row, token)) throw new KilnError("ErrInvalidCredentials", undefined, "the deployment token is not valid for this node, or has lapsed");
    if (use === "config") await spendDeployToken(db, token);
    return row;
  }
  const user = c.get("user");
  if (!user) throw new KilnError("ErrSessionTimedOut");
  if (!hasScope(user.scopes, SCOPES.nodesDeploy)) throw new KilnError("ErrMissingScope", { scope: SCOPES.nodesDeploy });
  if (!Number.isSafeInteger(id) || id <= 0) throw new KilnError("ErrNotFound", { id: raw });
  return await getNodeRow(db, id);
}

export function nodeInstallRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get(nodeExecutablePath(":id"), async (c) => {
    await deployableNode(c, deps.db, "executable");
    // From a checkout never built, the build runs first and the download waits for it.
    const file = Bun.file(await ensureExecutable(deps.config));
    // Streamed from disk: the executable is tens of megabytes and memory stays flat.
    return new Response(file.stream(), {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(file.size),
        "content-disposition": 'attachment; filename="kiln"',
        "cache-control": "no-store",
      },
    });
  });

  app.get(nodeConfigPath(":id"), async (c) => {
    const row = await deployableNode(c, deps.db, "config");
    const { config } = nodeDeployment(row, await publicOrigin(c, deps));
    // It holds the node's secret: no cache along the way may keep it.
    c.header("cache-control", "no-store");
    return c.json(config);
  });

  return app;
}
