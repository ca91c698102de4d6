// The panel's copy of each server's bounds (core/definition/bounds: limits, file denylist,
// environment type, docker network). It is written whenever the panel hands a node a definition
// (creation, an administrator's replacement on the admin tab or through the proxy, a change of
// allocations, a platform switch), and read where the panel must not take a node's word for them:
// a move lays it over the definition the source answers, and a change the panel makes to a
// definition it read from the node starts from it. A server made before the panel kept the copy
// (bounds null) has it recorded from its node once, when the heartbeat next reaches that node:
// trust on first use, as the task savers were (docs/security.md).
import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { templateSchema, type ServerDefinition } from "../../../core/definition";
import { definitionBounds, withBounds, type BoundName, type DefinitionBounds } from "../../../core/definition/bounds";
import { callOperation } from "../../daemon-client";
import type { NodeRow } from "../nodes";
import { expectOk } from "./node-answer";
import { fetchDefinition } from "./index";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/**
 * The bounds of a definition as a node keeps it: read through the schema first, so a field left
 * to its default (a docker network mode) counts as the node will hold it.
 */
export function boundsOf(definition: unknown): DefinitionBounds {
  const parsed = templateSchema.safeParse(definition);
  return definitionBounds((parsed.success ? parsed.data : definition) as ServerDefinition);
}

/** Records `definition`'s bounds as the panel's copy: it is what the panel had the node take. */
export async function recordBounds(db: Db | Tx, id: string, definition: unknown): Promise<void> {
  await db.update(schema.servers).set({ bounds: boundsOf(definition) }).where(eq(schema.servers.id, id)).run();
}

/** The panel's copy, or null for a server whose copy is still to be recorded. */
export async function keptBounds(db: Db, id: string): Promise<DefinitionBounds | null> {
  return (await db.select({ bounds: schema.servers.bounds }).from(schema.servers).where(eq(schema.servers.id, id)).get())?.bounds ?? null;
}

/**
 * The definition on the server's node with the panel's bounds laid over it: for a change the panel
 * makes to one part of it (a run flag, the limits, an allocation's ports, a platform switch), so
 * what the node answered for the others is never recorded as the panel's.
 */
export async function heldDefinition(db: Db, id: string): Promise<ServerDefinition> {
  const definition = await fetchDefinition(db, id);
  const kept = await keptBounds(db, id);
  return kept ? withBounds(definition, kept).definition : definition;
}

/**
 * A source's answer for a move with the panel's bounds laid over it, and the bounds it answered
 * otherwise. A server with no copy yet has the source's recorded now (the first move is its first use).
 */
export async function withKeptBounds(db: Db, id: string, answered: ServerDefinition): Promise<{ definition: ServerDefinition; differing: BoundName[] }> {
  const kept = await keptBounds(db, id);
  if (!kept) {
    await recordBounds(db, id, answered);
    return { definition: answered, differing: [] };
  }
  const parsed = templateSchema.safeParse(answered);
  const { differing } = withBounds(parsed.success ? parsed.data : answered, kept);
  return { definition: withBounds(answered, kept).definition, differing };
}

/**
 * Records, once, the bounds of the node's servers made before the panel kept them (bounds null),
 * from the definition the node answers now (one at a time: a definition is small, and this runs when
 * the node first answers after start or an absence). A server the node does not answer for stays pending.
 */
export async function recordEarlierBounds(db: Db, node: NodeRow): Promise<void> {
  const pending = await db.select({ id: schema.servers.id }).from(schema.servers).where(and(eq(schema.servers.nodeId, node.id), eq(schema.servers.state, "ready"), isNull(schema.servers.bounds))).all();
  for (const { id } of pending) {
    const answer = await callOperation(node, "definition", { id }).catch(() => null);
    if (!answer) continue;
    if (!answer.ok) {
      await answer.body?.cancel();
      continue;
    }
    await expectOk(answer, node.name);
    const definition: unknown = await answer.json().catch(() => null);
    if (!definition || typeof definition !== "object") continue;
    // Only while still pending and still on this node: a move or an administrator's change meanwhile wrote the panel's own.
    await db.update(schema.servers).set({ bounds: boundsOf(definition) }).where(and(eq(schema.servers.id, id), eq(schema.servers.nodeId, node.id), isNull(schema.servers.bounds))).run();
  }
}
