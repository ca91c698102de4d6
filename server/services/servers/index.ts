// Servers as the panel knows them: the row (name, node, address parts) and who may reach it. The
// definition itself lives on the node; creating and deleting change both, in an order that a
// crash cannot break (lifecycle.ts). Only "ready" servers are listed or shown.
import { recordEvent } from "../activity/record";
import { and, count, eq, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";
import { KeptLookups } from "../../../db/kept";
import { KilnError } from "../../../core/errors";
import { DEFAULT_BIND_HOST, type ServerDefinition } from "../../../core/definition";
import { callOperation, jsonInit, type OperationInit } from "../../daemon-client";
import type { NodeOperationName, OperationParams } from "../../../core/contract";
import { getNodeRow, type NodeRow } from "../nodes";
import { getTemplate } from "../templates";
import type { SessionUser } from "../sessions";
import { addressParts, buildDefinition, type DefinitionChoices } from "./definition";
import { isAdminUser } from "./permissions";
import { assertGrantableByAddress, findUserByEmail } from "./users";
import { endSftpSessions } from "../sftp/disconnect";
import { expectOk } from "./node-answer";
import { assertCreationBounds, assertPackVariables } from "./creation-bounds";
import { parseWith } from "../../validate";
import { API_SCHEMAS } from "../../../core/api/schemas";
import { provisionServer, unprovisionServer, type ServerPlan } from "./lifecycle";
import { newServerPack } from "../mods/new-server-pack";
import { backupBy } from "../backups";
import { limitOf } from "../../../core/definition";
import { chooseNode } from "../placement";
import { allocationsForCreation } from "../allocations/creation";
import { portsNeeded } from "../allocations/binding";
import { SCOPES, hasScope } from "../../../core/scopes";

export interface ServerEntry {
  id: string;
  name: string;
  nodeId: number;
  nodeName: string;
  ip: string | null;
  port: number | null;
  /** the primary allocation's alias (the public name players type), when it has one */
  alias: string | null;
  /** the alias, else the server ip, or the node's public host when the ip is empty or {ip}; plus :port */
  address: string;
  /** The node as PufferPanel's server list gives it (its clients build the address from it). */
  node: { id: number; name: string; publicHost: string; publicPort: number };
  /** The definition's type at creation, PufferPanel's `type` ("generic" when not recorded). */
  type: string;
}

export interface NewServer extends DefinitionChoices {
  name: string;
  /** a node's id, or "auto": placement chooses (services/placement) */
  node: number | "auto";
  /** tags the node must carry */
  constraints?: string[];
  /** allocations of the node's pool to take, the primary first (else free ones are assigned) */
  allocations?: number[];
  template: string;
  /** the owner's email; the caller when left out */
  user?: string;
}

/** {ip} is the host the browser used, filled in where the address is shown. */
export function serverAddress(ip: string | null, port: number | null, publicHost: string, requestHost: string): string {
  const host = !ip || ip === DEFAULT_BIND_HOST ? publicHost : ip;
  const shown = host === DEFAULT_BIND_HOST ? requestHost : host;
  return port ? `${shown}:${port}` : shown;
}

/** What a list entry is read from (also the server list's search, ./search). */
export const entryColumns = {
  id: schema.servers.id,
  name: schema.servers.name,
  nodeId: schema.servers.nodeId,
  nodeName: schema.nodes.name,
  publicHost: schema.nodes.publicHost,
  publicPort: schema.nodes.publicPort,
  ip: schema.servers.ip,
  port: schema.servers.port,
  alias: schema.servers.alias,
  type: schema.servers.type,
};

type EntryRow = { id: string; name: string; nodeId: number; nodeName: string; publicHost: string; publicPort: number; ip: string | null; port: number | null; alias: string | null; type: string };

/** A list entry as the caller sees it: {ip} and 0.0.0.0 read as the host they asked. */
export function toEntry(row: EntryRow, requestHost: string): ServerEntry {
  const { publicHost, publicPort } = row;
  const node = { id: row.nodeId, name: row.nodeName, publicHost: publicHost === DEFAULT_BIND_HOST ? requestHost : publicHost, publicPort };
  // The primary allocation's alias is the name players type: it stands for the host.
  const address = row.alias ? (row.port ? `${row.alias}:${row.port}` : row.alias) : serverAddress(row.ip, row.port, publicHost, requestHost);
  // Field by field, in the order the answer has always had (a list makes one a row; a spread copied each twice).
  return { id: row.id, name: row.name, nodeId: row.nodeId, nodeName: row.nodeName, ip: row.ip, port: row.port, alias: row.alias, type: row.type, address, node };
}

const ready = eq(schema.servers.state, "ready");

// The list as the list pages and GET /api/servers ask for it on every poll, prepared once
// (db/prepared.ts); a client bound to one server takes the built query below.
const entries = (db: Db) => db.select(entryColumns).from(schema.servers).innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId));
const slice = { limit: sql.placeholder("limit"), offset: sql.placeholder("offset") };
const everyReady = (db: Db) => entries(db).where(ready).orderBy(schema.servers.name).limit(slice.limit).offset(slice.offset).prepare();
const everyReadyCount = (db: Db) => db.select({ n: count() }).from(schema.servers).where(ready).prepare();
const sharedWith = eq(schema.serverUsers.userId, sql.placeholder("userId"));
const sharedReady = (db: Db) =>
  entries(db).innerJoin(schema.serverUsers, eq(schema.serverUsers.serverId, schema.servers.id)).where(and(sharedWith, ready)).orderBy(schema.servers.name).limit(slice.limit).offset(slice.offset).prepare();
const sharedReadyCount = (db: Db) =>
  db.select({ n: count() }).from(schema.serverUsers).innerJoin(schema.servers, eq(schema.servers.id, schema.serverUsers.serverId)).where(and(sharedWith, ready)).prepare();

/**
 * The pages clients poll (the list pages every few seconds, API clients in loops), kept while
 * nothing is written (db/kept): by page, and by user unless every administrator sees the same.
 * On PostgreSQL too, until another panel's write is announced: a list a moment old shows a
 * server whose access was just taken away, and every action on it checks the right again.
 */
const keptPages = new KeptLookups<string, { rows: EntryRow[]; total: number }>(1_000, { announced: true });

/** One page of the servers the caller may see: every server for an admin, else those shared with them. */
export async function listServers(db: Db, user: SessionUser, page: number, limit: number, requestHost: string): Promise<{ servers: ServerEntry[]; total: number }> {
  const offset = (page - 1) * limit;
  if (!user.serverId) {
    const admin = await isAdminUser(db, user);
    const { rows, total } = await keptPages.get(db, `${admin ? "every" : user.id}:${limit}:${offset}`, async () =>
      admin
        ? { rows: await prepared(db, everyReady).all({ limit, offset }), total: (await prepared(db, everyReadyCount).get())?.n ?? 0 }
        : { rows: await prepared(db, sharedReady).all({ userId: user.id, limit, offset }), total: (await prepared(db, sharedReadyCount).get({ userId: user.id }))?.n ?? 0 },
    );
    return { servers: rows.map((r) => toEntry(r, requestHost)), total };
  }
  // A client bound to one server lists that one server at most.
  const base = entries(db);
  if (await isAdminUser(db, user)) {
    const rows = await base.where(and(ready, eq(schema.servers.id, user.serverId))).limit(limit).offset(offset).all();
    return { servers: rows.map((r) => toEntry(r, requestHost)), total: rows.length };
  }
  const mine = and(eq(schema.serverUsers.userId, user.id), eq(schema.serverUsers.serverId, user.serverId));
  const rows = await base.innerJoin(schema.serverUsers, eq(schema.serverUsers.serverId, schema.servers.id)).where(and(mine, ready)).limit(limit).offset(offset).all();
  const total = (await db.select({ n: count() }).from(schema.serverUsers).innerJoin(schema.servers, eq(schema.servers.id, schema.serverUsers.serverId)).where(and(mine, ready)).get())?.n ?? 0;
  return { servers: rows.map((r) => toEntry(r, requestHost)), total };
}

export async function getServerEntry(db: Db, id: string, requestHost: string): Promise<ServerEntry> {
  const row = await db.select(entryColumns).from(schema.servers).innerJoin(schema.nodes, eq(schema.nodes.id, schema.servers.nodeId)).where(and(eq(schema.servers.id, id), ready)).get();
  if (!row) throw new KilnError("ErrNotFound", { id }, "no such server");
  return toEntry(row, requestHost);
}

/** The node a server lives on, for calling it. */
export async function serverNode(db: Db, id: string): Promise<NodeRow> {
  const row = await db.select({ nodeId: schema.servers.nodeId }).from(schema.servers).where(eq(schema.servers.id, id)).get();
  if (!row) throw new KilnError("ErrNotFound", { id }, "no such server");
  return await getNodeRow(db, row.nodeId);
}

/**
 * One of the contract's operations on server `id`, at its node: the answer when it is a success,
 * else the node's catalogue error (ErrServiceNotAvailable when the node gives none). `params` are
 * the operation's other path parameters (`path` for a file path, already encoded).
 */
export async function callServerNode(db: Db, id: string, name: NodeOperationName, params: OperationParams = {}, init: OperationInit = {}): Promise<Response> {
  const node = await serverNode(db, id);
  const response = await callOperation(node, name, { ...params, id }, init);
  await expectOk(response, node.name);
  return response;
}

/** True when the user can reach at least one server (the drawer shows Servers then). */
export async function hasAnyServer(db: Db, userId: number): Promise<boolean> {
  return await db.select({ id: schema.serverUsers.serverId }).from(schema.serverUsers).where(eq(schema.serverUsers.userId, userId)).limit(1).get() !== undefined;
}

async function assertUniqueName(db: Db, name: string, exceptId?: string): Promise<void> {
  const clash = await db.select({ id: schema.servers.id }).from(schema.servers).where(sql`lower(${schema.servers.name}) = lower(${name})`).get();
  if (clash && clash.id !== exceptId) throw new KilnError("ErrDuplicateServerName", { name });
}

async function findUserId(db: Db, email: string): Promise<number> {
  const user = await findUserByEmail(db, email);
  if (!user) throw new KilnError("ErrUserNotFound", { email });
  await assertGrantableByAddress(db, user, email);
  return user.id;
}

/** Checks the request and works out the server it asks for (its node, its allocations); nothing is written yet. */
async function planServer(db: Db, creator: SessionUser, input: NewServer): Promise<ServerPlan> {
  const built = buildDefinition(await getTemplate(db, input.template), input);
  const ownerId = input.user ? await findUserId(db, input.user) : creator.id;
  await assertUniqueName(db, input.name);
  const constraints = input.constraints ?? [];
  let node: NodeRow;
  let placement: ServerPlan["placement"] = null;
  if (input.node === "auto") {
    const limits = built.limits;
    const chosen = await chooseNode(db, { memoryMiB: limitOf(limits, "memoryMiB") ?? undefined, cpuPercent: limitOf(limits, "cpuPercent") ?? undefined, diskMiB: limitOf(limits, "diskMiB") ?? undefined, ports: portsNeeded(built.data) }, constraints);
    node = chosen.node;
    // Each node's figures are the infrastructure's: told to those who may view nodes, the choice alone to others.
    placement = { node: node.name, reasons: hasScope(creator.scopes, SCOPES.nodesView) ? chosen.reasons : [] };
  } else {
    node = await getNodeRow(db, input.node);
    if (!constraints.every((tag) => node.tags.includes(tag))) throw new KilnError("ErrNoNodeFits", { short: "tags", nodes: 1 });
  }
  const { chosen, definition } = await allocationsForCreation(db, node, built, input.allocations, input.variables);
  const { ip, port } = addressParts(definition);
  return { id: randomBytes(4).toString("hex"), name: input.name, node, template: input.template, ownerId, definition, ip, port, allocations: chosen, alias: chosen[0]?.alias ?? null, memoryMiB: limitOf(built.limits, "memoryMiB"), placement };
}

/**
 * Creates a server from a creation request as sent (`request`: Kiln's body, or PufferPanel's turned
 * into Kiln's): checked against the creation schema, then against what its creator may choose
 * (./creation-bounds), before anything is planned. Every door creates through here.
 */
export async function createServer(db: Db, creator: SessionUser, request: Record<string, unknown>): Promise<{ id: string; placement?: NonNullable<ServerPlan["placement"]>; modpack?: { changeId?: string; title: string; versionNumber: string } }> {
  const checked = parseWith(API_SCHEMAS.serverCreate, request);
  // A modpack names the template (when the request does not) and the variables it sets.
  const pack = checked.modpack ? await newServerPack(db, checked.modpack, checked.template) : null;
  const template = pack?.template ?? checked.template;
  if (!template) throw new KilnError("ErrFieldRequired", { field: "template" });
  await assertCreationBounds(db, creator, { ...request, template });
  if (pack) await assertPackVariables(db, creator, template, pack.variables);
  const variables = pack ? withPackVariables(checked.variables, pack.variables) : checked.variables;
  const plan = await planServer(db, creator, { ...checked, template, variables });
  await provisionServer(db, plan);
  const placement = plan.placement ? { placement: plan.placement } : {};
  if (!pack) return { id: plan.id, ...placement };
  // A CurseForge server pack is installed by the template's own install, already queued.
  if (!pack.change) return { id: plan.id, ...placement, modpack: { title: pack.title, versionNumber: pack.versionNumber } };
  try {
    const answer = await callServerNode(db, plan.id, "modsPack", {}, jsonInit(pack.change, { "x-kiln-by": backupBy(creator) }));
    const { changeId } = (await answer.json()) as { changeId: string };
    return { id: plan.id, ...placement, modpack: { changeId, title: pack.title, versionNumber: pack.versionNumber } };
  } catch (error) {
    // The node refused the pack (a file host it does not download from, say): the server asked for
    // was a server with this pack, so none is left behind.
    await deleteServer(db, plan.id).catch(() => undefined);
    throw error;
  }
}

/** The variables with those the pack sets (its Minecraft version, a CurseForge pack's project and file); another value sent for one of them is refused. */
function withPackVariables(variables: Record<string, string | number | boolean>, set: Record<string, string>): Record<string, string | number | boolean> {
  for (const [name, value] of Object.entries(set)) {
    const sent = variables[name];
    if (sent !== undefined && String(sent) !== value) throw new KilnError("ErrFieldNotBetween", { field: `variables.${name}` }, `the modpack sets ${name} to ${value}`);
  }
  return { ...variables, ...set };
}

/** Removes the server from its node, then from the panel (its users and server-level clients too). */
export async function deleteServer(db: Db, id: string): Promise<void> {
  const node = await serverNode(db, id);
  // The node ends them too when the server goes; asking first ends them before the folder goes.
  await endSftpSessions(db, { serverId: id });
  await unprovisionServer(db, id, node);
}

export async function renameServer(db: Db, id: string, name: string): Promise<void> {
  await serverNode(db, id);
  await assertUniqueName(db, name, id);
  const old = (await db.select({ name: schema.servers.name }).from(schema.servers).where(eq(schema.servers.id, id)).get())?.name;
  await db.update(schema.servers).set({ name }).where(eq(schema.servers.id, id)).run();
  if (old !== name) await recordEvent(db, "server.renamed", { serverId: id, properties: { old, new: name } });
}

/** Keeps the list's address parts in step after the definition or its variables changed. */
export async function recordAddress(db: Db, id: string, definition: Pick<ServerDefinition, "data">): Promise<void> {
  await db.update(schema.servers).set(addressParts(definition)).where(eq(schema.servers.id, id)).run();
}

/** Reads the definition from the server's node. */
export async function fetchDefinition(db: Db, id: string): Promise<ServerDefinition> {
  return (await (await callServerNode(db, id, "definition")).json()) as ServerDefinition;
}

export { expectOk };
export { reconcileNode } from "./reconcile";
export { buildDefinition, offeredEnvironments, addressParts } from "./definition";
export { serverAccess, serverAccesses, serverOwnerId, speaksForOwners, authorize, grantableFlags, holdsAllFlags, allows, assertAllowed, isAdminUser, flagsToPermissions, permissionsToFlags, type ServerAccess, type ServerPermissions, type Requirement } from "./permissions";
export { listServerUsers, putServerUser, deleteServerUser, findUserByEmail, assertGrantableByAddress, isServerUser, type ServerUserEntry } from "./users";
