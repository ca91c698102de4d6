// Power actions on many servers of one node at once (the node page's bulk buttons and
// POST /api/nodes/{id}/power): each server is checked exactly as a single action is (the action's
// flag from core/contract/power-actions), and each answers for itself, so one refused or failing
// server never stops the others. Without a selection: every server of the node the caller may act on.
import { and, eq, inArray } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { POWER_ACTION_RULES, isPowerAction } from "../../../core/contract/power-actions";
import type { SessionUser } from "../sessions";
import { allows, callServerNode, serverAccesses } from "../servers";
import { getNodeRow } from "./index";

export interface BulkOutcome {
  serverId: string;
  name: string;
  ok: boolean;
  /** the catalogue error when it was refused or failed */
  error?: string;
}

/** At most this many servers are asked at the same time (a node is one machine). */
const AT_ONCE = 4;
const MAX_SELECTED = 500;

export async function nodePower(db: Db, user: SessionUser, nodeId: number, body: Record<string, unknown>): Promise<BulkOutcome[]> {
  await getNodeRow(db, nodeId);
  const action = body.action;
  // install rebuilds servers: not a bulk action.
  if (typeof action !== "string" || !isPowerAction(action) || action === "install") throw new KilnError("ErrFieldNotBetween", { field: "action" });
  const selected = body.servers;
  if (selected !== undefined && !(Array.isArray(selected) && selected.length <= MAX_SELECTED && selected.every((id) => typeof id === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(id)))) throw new KilnError("ErrFieldNotBetween", { field: "servers" });
  const onNode = and(eq(schema.servers.nodeId, nodeId), eq(schema.servers.state, "ready"));
  const rows = await db.select({ id: schema.servers.id, name: schema.servers.name }).from(schema.servers).where(selected ? and(onNode, inArray(schema.servers.id, selected as string[])) : onNode).orderBy(schema.servers.name).all();
  if (selected && rows.length !== new Set(selected as string[]).size) throw new KilnError("ErrNotFound", { field: "servers" });
  const needs = action === "restart" ? (["startServer", "stopServer"] as const) : ([POWER_ACTION_RULES[action].needs] as const);
  // Without a selection, servers the caller cannot even see are not theirs to act on, nor to be told of.
  const accesses = await serverAccesses(db, user, rows.map((row) => row.id));
  const targets = rows.filter((row) => selected !== undefined || accesses.get(row.id)!.view);
  const outcomes: BulkOutcome[] = [];
  for (let i = 0; i < targets.length; i += AT_ONCE) {
    outcomes.push(...(await Promise.all(targets.slice(i, i + AT_ONCE).map(async (row): Promise<BulkOutcome> => {
      const access = accesses.get(row.id)!;
      // Named by the id the caller sent: a server they may not see keeps its name from them.
      if (!access.view) return { serverId: row.id, name: row.id, ok: false, error: "ErrNotFound" };
      if (!needs.every((flag) => allows(access, flag))) return { serverId: row.id, name: row.name, ok: false, error: "ErrNoPermission" };
      try {
        await callServerNode(db, row.id, action);
        return { serverId: row.id, name: row.name, ok: true };
      } catch (error) {
        return { serverId: row.id, name: row.name, ok: false, error: error instanceof KilnError ? error.code : "ErrServiceNotAvailable" };
      }
    }))));
  }
  return outcomes;
}
