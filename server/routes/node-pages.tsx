// The Nodes screens and their forms (list, add, edit with tags and draining, delete, deployment
// instructions; the Ports and bulk power cards' forms are ./node-pool-forms). They write through
// the same schema and service as /api/nodes.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { API_SCHEMAS } from "../../core/api/schemas";
import { SCOPES, hasScope, type Scope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { readBody } from "../request";
import { parseWith } from "../validate";
import { publicOrigin } from "../relying-party";
import { ensureExecutable, executableState } from "../services/nodes/executable";
import { getSetting, SETTING_KEYS } from "../services/settings";
import { checkNode } from "../node-heartbeat";
import { nodeIsolation } from "../node-isolation";
import { nodeReport } from "../node-report";
import { createNode, deleteNode, getNodeRow, listNodes, nodeDeployment, nodeView, serverCountsByNode, updateNode, type NodeRow } from "../services/nodes";
import pkg from "../../package.json";
import { NodesPage } from "../../views/pages/NodesPage";
import { AddNodePage } from "../../views/pages/AddNodePage";
import { NodePage, DEPLOYMENT_ANCHOR, nodeFormValues, nodePlacementValues, type NodePageProps } from "../../views/pages/NodePage";
import type { NodePlacementValues } from "../../views/components/NodePlacementFields";
import { nodeCards, nodePoolFormRoutes, type NodeCardsState } from "./node-pool-forms";
import { NODE_FIELDS, type NodeFormValues } from "../../views/components/NodeForm";
import { backupTargetFormRoutes } from "./backup-target-forms";
import { NodeBackupTargets } from "../services/backups";
import { errorField } from "../../views/components/form-errors";
import { nodeTransfers } from "../services/transfers";
import { evacuateNode, evacuation } from "../services/placement/evacuate";
import { rebalanceProposals } from "../services/placement/rebalance";
import { errorMessageKey } from "../../core/errors/message-key";

function idParam(c: Context): number {
  const id = Number(c.req.param("id"));
  if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrNotFound", { id: c.req.param("id") ?? "" });
  return id;
}

/** The host the browser used, without its port: what `{ip}` stands for in a node's public host. */
function browserHost(c: Context, deps: Deps): string {
  const host = (deps.config.trustProxy ? c.req.header("x-forwarded-host")?.split(",")[0]?.trim() : undefined) || c.req.header("host") || new URL(c.req.url).host;
  return host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
}

/**
 * The settings form's tags ("location=eu, ssd") and draining as the node service takes them; none
 * when the post did not carry the form's tags field (always posted, even empty, while an unticked
 * checkbox is not), so a post without them leaves both as they were.
 */
function postedPlacement(body: Record<string, unknown>): { tags: string[]; draining: boolean } | undefined {
  if (typeof body.tags !== "string") return undefined;
  return { tags: body.tags.split(",").map((tag) => tag.trim()).filter((tag) => tag !== ""), draining: ["on", "true", "1"].includes(String(body.draining)) };
}

/** What was posted, as the form shows it again after an error. */
function postedValues(body: Record<string, unknown>): NodeFormValues {
  const text = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : "");
  return Object.fromEntries(NODE_FIELDS.map((f) => [f, text(body[f])])) as NodeFormValues;
}

export function nodePageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const can = (c: Context<KilnEnv>, scope: Scope) => hasScope(c.get("user")!.scopes, scope);
  const secure = (c: Context<KilnEnv>) => isHttps(c, deps.config.trustProxy);
  /** The catalogue message; a field error names the field by its label in the form. */
  const message = (c: Context<KilnEnv>, error: KilnError) => {
    const t = c.get("t");
    const field = error.metadata?.field;
    const named = typeof field === "string" && (NODE_FIELDS as readonly string[]).includes(field) ? { ...error.metadata, field: t(`nodes.field.${field}`) } : error.metadata;
    return t(errorMessageKey(error.code, error.metadata), named);
  };

  app.get("/node", requirePageLogin(), requireScope(SCOPES.nodesView), async (c) => {
    const counts = await serverCountsByNode(deps.db);
    const nodes = await Promise.all((await listNodes(deps.db)).map(async (node) => ({ node, report: await nodeReport(deps.db, node.id), servers: counts.get(node.id) ?? 0 })));
    return render(c, deps, <NodesPage nodes={nodes} browserHost={browserHost(c, deps)} canEdit={can(c, SCOPES.nodesEdit)} panelVersion={pkg.version} />);
  });

  app.get("/addnode", requirePageLogin(), requireScope(SCOPES.nodesEdit), (c) => render(c, deps, <AddNodePage />));
  app.post("/addnode", requirePageLogin(), requireScope(SCOPES.nodesEdit), async (c) => {
    const body = await readBody(c);
    try {
      const node = await createNode(deps.db, parseWith(API_SCHEMAS.node, body));
      // As the API does: ask the new node at once, so its status is right on the next screen.
      void checkNode(deps.db, node.id);
      setFlash(c, "nodes.created", secure(c));
      return c.redirect(`/node/${node.id}${can(c, SCOPES.nodesDeploy) ? `#${DEPLOYMENT_ANCHOR}` : ""}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <AddNodePage error={{ message: message(c, error), field: errorField(error.metadata) }} values={postedValues(body)} />, error.status);
    }
  });

  /**
   * A refused tag, said by the tags field: the schema names it by its place in the list
   * ("tags.2"), or the list when it holds too many.
   */
  const tagRefusal = (c: Context<KilnEnv>, error: KilnError, tags: string[]) => {
    const field = error.metadata?.field;
    const at = typeof field === "string" ? /^tags(?:\.(\d+))?$/.exec(field) : null;
    if (!at) return undefined;
    const t = c.get("t");
    return { field: "tags", message: at[1] === undefined ? t("nodes.tagsTooMany", { max: Number(error.metadata?.max) }) : t("nodes.tagInvalid", { tag: tags[Number(at[1])] ?? "" }) };
  };

  const nodePage = async (c: Context<KilnEnv>, row: NodeRow, extra: { values?: NodeFormValues; placement?: NodePlacementValues; error?: NodePageProps["error"]; targetsError?: string } & NodeCardsState = {}, status = 200) => {
    const node = nodeView(row);
    const cards = await nodeCards(c, deps, row, extra, browserHost(c, deps));
    const deployment = can(c, SCOPES.nodesDeploy) && !node.isLocal ? nodeDeployment(row, await publicOrigin(c, deps)) : undefined;
    const onboarding = { masterUrlSet: Boolean(await getSetting(deps.db, SETTING_KEYS.masterUrl)), executable: executableState(deps.config), platform: deps.config.executableChosen ? null : `${process.platform} ${process.arch}` };
    return render(
      c,
      deps,
      <NodePage node={node} values={extra.values ?? nodeFormValues(node)} placement={extra.placement ?? nodePlacementValues(node)} pool={cards.pool} power={cards.power} transfers={can(c, SCOPES.admin) ? await nodeTransfers(deps.db, row.id) : undefined} balance={can(c, SCOPES.admin) ? { evacuation: await evacuation(deps.db, row.id), rebalance: await rebalanceProposals(deps.db, row.id, deps.config.rebalance) } : undefined} canEdit={can(c, SCOPES.nodesEdit)} canMove={can(c, SCOPES.admin)} deployment={deployment} onboarding={onboarding} canEditSettings={can(c, SCOPES.settingsEdit)} error={extra.error} isolation={await nodeIsolation(deps.db, row.id)} backupTargets={can(c, SCOPES.admin) ? await backupTargets(c, row, extra.targetsError) : undefined} />,
      status,
    );
  };

  app.get("/node/:id", requirePageLogin(), requireScope(SCOPES.nodesView), async (c) => nodePage(c, await getNodeRow(deps.db, idParam(c))));

  app.post("/node/:id/evacuate", requirePageLogin(), requireScope(SCOPES.admin), async (c) => {
    const row = await getNodeRow(deps.db, idParam(c));
    try {
      await evacuateNode(deps.db, c.get("user")!, row.id);
      setFlash(c, "nodes.balance.evacuating", isHttps(c, deps.config.trustProxy));
      return c.redirect(`/node/${row.id}#balance`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return nodePage(c, row, { error: { section: "details", message: c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata) } }, error.status);
    }
  });

  // A checkout's panel builds the executable it offers when asked (else the first download does):
  // the build runs in the background and the page says so.
  app.post("/node/:id/build-executable", requirePageLogin(), requireScope(SCOPES.nodesDeploy), async (c) => {
    const row = await getNodeRow(deps.db, idParam(c));
    void ensureExecutable(deps.config).catch(() => undefined);
    return c.redirect(`/node/${row.id}#${DEPLOYMENT_ANCHOR}`, 303);
  });

  // The node's backup targets (administrators only), asked of the node; one that does not answer is said in the card.
  async function backupTargets(c: Context<KilnEnv>, row: NodeRow, error?: string): Promise<NonNullable<NodePageProps["backupTargets"]>> {
    try {
      return { targets: await new NodeBackupTargets(deps.db, row.id, c.get("user")!).list(), error };
    } catch (failure) {
      if (!(failure instanceof KilnError)) throw failure;
      return { targets: null, error: error ?? message(c, failure) };
    }
  }
  backupTargetFormRoutes(app, deps, (c, row, error, status) => nodePage(c, row, { targetsError: error }, status));
  nodePoolFormRoutes(app, deps, (c, row, state, status) => nodePage(c, row, state, status));

  app.post("/node/:id", requirePageLogin(), requireScope(SCOPES.nodesEdit), async (c) => {
    const row = await getNodeRow(deps.db, idParam(c));
    const body = await readBody(c);
    // The local node's private address and SFTP port are rewritten by the panel at every start
    // (ensureLocalNode), so its form shows them read-only and whatever is posted for them is ignored.
    const posted = row.isLocal ? { ...body, privateHost: row.privateHost, privatePort: row.privatePort, sftpPort: row.sftpPort } : body;
    const placement = postedPlacement(body);
    try {
      await updateNode(deps.db, row.id, parseWith(API_SCHEMAS.node, { ...posted, ...placement }), c.get("user")!);
      setFlash(c, "nodes.updated", secure(c));
      return c.redirect(`/node/${row.id}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      const refusal = tagRefusal(c, error, placement?.tags ?? []) ?? { message: message(c, error), field: errorField(error.metadata) };
      const shown = placement ? { tags: String(body.tags), draining: placement.draining } : undefined;
      return nodePage(c, row, { values: postedValues(posted), placement: shown, error: { section: "details", ...refusal } }, error.status);
    }
  });

  app.post("/node/:id/delete", requirePageLogin(), requireScope(SCOPES.nodesEdit), async (c) => {
    const row = await getNodeRow(deps.db, idParam(c));
    try {
      await deleteNode(deps.db, row.id);
      setFlash(c, "nodes.deleted", secure(c));
      return c.redirect("/node", 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return nodePage(c, row, { error: { section: "delete", message: message(c, error) } }, error.status);
    }
  });

  return app;
}
