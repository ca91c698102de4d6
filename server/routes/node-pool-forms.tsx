// The node page's Ports and bulk power cards: what they show, and their plain forms. Adding ports
// or removing a free one (nodes.edit) ends in a redirect to the card with a toast, or the node page
// again with the refusal by the form it concerns; bulk power (nodes.view; the service checks each
// server) answers with the page itself, since its outcome (a count and each refusal) is more than
// a flash cookie carries. The services are the API's (routes/allocations.ts).
import type { Context, Hono } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { readBody, readForm } from "../request";
import { getNodeRow, type NodeRow } from "../services/nodes";
import { addToPool, listPool, poolHolders, removeFromPool } from "../services/allocations/pool";
import { nodePower } from "../services/nodes/bulk-power";
import { searchServers } from "../services/servers/search";
import { errorField } from "../../views/components/form-errors";
import { POOL_ANCHOR, POOL_FIELDS, type NodePortsCardProps } from "../../views/components/NodePortsCard";
import type { BulkAction, NodePowerCardProps } from "../../views/components/NodePowerCard";
import { errorMessageKey } from "../../core/errors/message-key";

/** The servers the power card lists by name; acting with none ticked reaches every one. */
const POWER_LIST_MAX = 100;

/** What a post leaves on the cards when it answers with the page: posted values, a refusal, an outcome. */
export interface NodeCardsState {
  pool?: Pick<NodePortsCardProps, "values" | "error">;
  power?: Pick<NodePowerCardProps, "outcome" | "error">;
}

/** Shows the node page again with `state` on its cards. */
export type NodeCardsPage = (c: Context<KilnEnv>, row: NodeRow, state: NodeCardsState, status?: number) => Promise<Response>;

/** What the Ports and power cards show to this viewer. */
export async function nodeCards(c: Context<KilnEnv>, deps: Deps, row: NodeRow, state: NodeCardsState, requestHost: string): Promise<{ pool: Omit<NodePortsCardProps, "nodeId" | "canEdit">; power: Omit<NodePowerCardProps, "nodeId"> }> {
  const { servers, total } = await searchServers(deps.db, c.get("user")!, { q: "", nodeId: row.id, sort: "name", descending: false }, 1, POWER_LIST_MAX, requestHost);
  return {
    pool: { pool: await listPool(deps.db, row.id), holders: Object.fromEntries(await poolHolders(deps.db, row.id, c.get("user")!)), each: c.req.query("ports") === "each", ...state.pool },
    power: { servers: servers.map(({ id, name }) => ({ id, name })), total, ...state.power },
  };
}

const text = (value: unknown) => (typeof value === "string" ? value : "");
/** A form field as a list of its values (none, one or several boxes ticked). */
const all = (value: unknown): string[] => (value === undefined ? [] : Array.isArray(value) ? value.map(String) : [String(value)]);

export function nodePoolFormRoutes(app: Hono<KilnEnv>, deps: Deps, page: NodeCardsPage): void {
  const secure = (c: Context<KilnEnv>) => isHttps(c, deps.config.trustProxy);
  const number = (c: Context<KilnEnv>, name: string) => {
    const raw = c.req.param(name) ?? "";
    if (!/^\d{1,12}$/.test(raw)) throw new KilnError("ErrNotFound", { id: raw });
    return Number(raw);
  };
  /** The catalogue message; a field error names the field by its label in the add form. */
  const message = (c: Context<KilnEnv>, error: KilnError) => {
    const t = c.get("t");
    const field = error.metadata?.field;
    const named = typeof field === "string" && (POOL_FIELDS as readonly string[]).includes(field) ? { ...error.metadata, field: t(`nodes.pool.field.${field}`) } : error.metadata;
    return t(errorMessageKey(error.code, error.metadata), named);
  };
  app.post("/node/:id/allocations", requirePageLogin(), requireScope(SCOPES.nodesEdit), async (c) => {
    const row = await getNodeRow(deps.db, number(c, "id"));
    const body = await readBody(c);
    const values = { ip: text(body.ip), ports: text(body.ports), alias: text(body.alias) };
    try {
      await addToPool(deps.db, row.id, { ip: values.ip, ports: values.ports, alias: values.alias.trim() });
      setFlash(c, "nodes.pool.added", secure(c));
      return c.redirect(`/node/${row.id}#${POOL_ANCHOR}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, row, { pool: { values, error: { form: "add", message: message(c, error), field: errorField(error.metadata) } } }, error.status);
    }
  });

  app.post("/node/:id/allocations/:allocationId/delete", requirePageLogin(), requireScope(SCOPES.nodesEdit), async (c) => {
    const row = await getNodeRow(deps.db, number(c, "id"));
    try {
      await removeFromPool(deps.db, row.id, number(c, "allocationId"));
      setFlash(c, "nodes.pool.removed", secure(c));
      return c.redirect(`/node/${row.id}#${POOL_ANCHOR}`, 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, row, { pool: { error: { form: "remove", message: message(c, error) } } }, error.status);
    }
  });

  app.post("/node/:id/power", requirePageLogin(), requireScope(SCOPES.nodesView), async (c) => {
    const row = await getNodeRow(deps.db, number(c, "id"));
    // The ticked servers share a name: all their values are read.
    const form = await readForm(c, { all: true });
    const action = text(form.action);
    const selected = all(form.servers);
    try {
      const outcomes = await nodePower(deps.db, c.get("user")!, row.id, { action, servers: selected.length > 0 ? selected : undefined });
      // nodePower took the action, so it is one of the bulk ones.
      return page(c, row, { power: { outcome: { action: action as BulkAction, selected, outcomes } } });
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return page(c, row, { power: { error: message(c, error) } }, error.status);
    }
  });
}
