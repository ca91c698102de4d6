// Who may see and change which of a server's variables, and changing them: an administrator all
// of them; anyone else those marked userEdit (the rest are the template's: ports, addresses,
// memory, images). Every door (the settings form, the proxy's /data, the API) asks here, and the
// list's address follows every change. A variable an allocation fills changes through the
// allocations only (services/allocations), for administrators too; on a server holding
// allocations, every other port variable (core/definition/server-ports, the node publishes them
// all) takes only a port of those allocations.
import { KilnError } from "../../../core/errors";
import { withVariableValues, type ServerDefinition, type Variable } from "../../../core/definition";
import type { ServerAccess } from "../../../core/scopes/server-access";
import type { Db } from "../../../db";
import { jsonInit } from "../../daemon-client";
import { callServerNode, fetchDefinition, recordAddress } from "./index";
import { assertNotAllocationBound, heldBy } from "../allocations/binding";
import { recordBounds } from "./bounds";

/** The variables the caller may see and change. */
export function editableVariables(definition: Pick<ServerDefinition, "data">, access: ServerAccess): Record<string, Variable> {
  return Object.fromEntries(Object.entries(definition.data ?? {}).filter(([, v]) => access.admin || v.userEdit !== false)) as Record<string, Variable>;
}

/** The values the caller may see, by name (the proxy's GET /data). */
export async function visibleValues(db: Db, id: string, access: ServerAccess): Promise<Record<string, unknown>> {
  const definition = await fetchDefinition(db, id);
  return Object.fromEntries(Object.entries(editableVariables(definition, access)).map(([name, v]) => [name, v.value]));
}

/** ErrNoPermission naming the first of `names` the caller may not change. */
export function assertMayChange(definition: Pick<ServerDefinition, "data">, access: ServerAccess, names: Iterable<string>): void {
  if (access.admin) return;
  for (const name of names) {
    if (definition.data?.[name]?.userEdit === false) throw new KilnError("ErrNoPermission", { field: name }, `${name} is not editable by users`);
  }
}

/**
 * Sets variables from a form's values: every name must be one of the server's variables (an unknown
 * one is ErrNotFound, not skipped), every value its variable's type, and each one the caller's to
 * change; the node checks the values again.
 */
export async function setVariables(db: Db, access: ServerAccess, id: string, submitted: Record<string, unknown>): Promise<void> {
  const current = await fetchDefinition(db, id);
  const changed = withVariableValues(current, submitted);
  assertMayChange(changed, access, Object.keys(submitted));
  await assertNotAllocationBound(db, id, current, Object.fromEntries(Object.keys(submitted).map((name) => [name, changed.data[name]!.value])));
  const data = Object.fromEntries(Object.keys(submitted).map((name) => [name, changed.data[name]!.value]));
  await callServerNode(db, id, "setData", {}, jsonInit({ data }));
  await recordAddress(db, id, changed);
}

/** A /data body as PufferPanel's clients send it, before the node reads it: refused when it names a variable the caller may not change. */
export async function assertMayChangeData(db: Db, access: ServerAccess, id: string, body: unknown): Promise<void> {
  const data = (body as { data?: Record<string, unknown> } | undefined)?.data;
  // A malformed body is the node's to answer.
  if (!data || typeof data !== "object") return;
  if (access.admin && (await heldBy(db, id)).length === 0) return;
  const definition = await fetchDefinition(db, id);
  assertMayChange(definition, access, Object.keys(data));
  await assertNotAllocationBound(db, id, definition, data);
}

/** A whole definition as the proxy passes it on (PufferPanel's POST of a server): refused when it would move a port off the server's allocations. */
export async function assertReplacementKeepsAllocations(db: Db, id: string, body: unknown): Promise<void> {
  if ((await heldBy(db, id)).length === 0) return;
  const definition = (body && typeof body === "object" ? body : {}) as Partial<ServerDefinition>;
  const data = definition.data && typeof definition.data === "object" ? definition.data : {};
  await assertNotAllocationBound(db, id, { data, extraPorts: definition.extraPorts }, Object.fromEntries(Object.entries(data).map(([name, v]) => [name, (v as { value?: unknown } | null)?.value])), true, () => fetchDefinition(db, id));
}

/**
 * Replaces the whole definition (an administrator's), has the node load it, and keeps the list's
 * address and the panel's copy of its bounds (./bounds) in step. A caller changing one part of the
 * definition reads the rest with heldDefinition, so the bounds it sends are the panel's own.
 */
export async function replaceDefinition(db: Db, id: string, definition: ServerDefinition): Promise<void> {
  await assertNotAllocationBound(db, id, definition, Object.fromEntries(Object.entries(definition.data ?? {}).map(([name, v]) => [name, v.value])), true, () => fetchDefinition(db, id));
  await callServerNode(db, id, "replaceDefinition", {}, jsonInit(definition));
  await recordBounds(db, id, definition);
  await callServerNode(db, id, "reload");
  await recordAddress(db, id, definition);
}
