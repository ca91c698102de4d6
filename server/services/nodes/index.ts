// Nodes: create, list, update, delete, the local node's row, and online status from heartbeats.
import { recordEvent } from "../activity/record";
import { eq, count, sql } from "drizzle-orm";
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { THIS_PANEL } from "../cluster/instance";
import { schema } from "../../../db";
import { prepared } from "../../../db/prepared";
import { KeptLookups } from "../../../db/kept";
import { KilnError } from "../../../core/errors";
import { SCOPES } from "../../../core/scopes";
import { DEFAULT_BIND_HOST } from "../../../core/definition";
import { DEFAULT_DAEMON_CONFIG_PATH } from "../../../daemon/config";
import { DEPLOY_TOKEN_TTL_S, signDeployToken } from "./deploy-token";
import { installCommand } from "./install-command";
import { nodeExecutablePath } from "../../../core/nodes";
import { SERVICE_ENABLE_COMMAND, SERVICE_UNIT_PATH, serviceUnit } from "./service-unit";

export interface NodeInput {
  name: string;
  publicHost: string;
  publicPort: number;
  privateHost: string;
  privatePort: number;
  sftpPort: number;
  internalHost?: string | null;
  /** placement's constraints match these ("location=eu", "ssd") */
  tags?: string[];
  /** no new servers by placement */
  draining?: boolean;
}

export interface NodeView extends Omit<NodeInput, "internalHost" | "tags" | "draining"> {
  id: number;
  internalHost: string | null;
  tags: string[];
  draining: boolean;
  isLocal: boolean;
  status: "online" | "offline";
  lastSeenAt: number | null;
  /** The panel process that last heard from the node (several panels on one database). */
  lastPanel: string | null;
}

export type NodeRow = typeof schema.nodes.$inferSelect;

/** A node that has not answered a heartbeat for this long shows as offline. */
export const NODE_OFFLINE_AFTER_MS = 90_000;
export const LOCAL_NODE_NAME = "local";

export function nodeView(row: NodeRow, now = Date.now()): NodeView {
  const seen = row.lastSeenAt?.getTime() ?? null;
  return {
    id: row.id,
    name: row.name,
    publicHost: row.publicHost,
    publicPort: row.publicPort,
    privateHost: row.privateHost,
    privatePort: row.privatePort,
    sftpPort: row.sftpPort,
    internalHost: row.internalHost,
    tags: row.tags,
    draining: row.draining,
    isLocal: row.isLocal,
    status: seen !== null && now - seen < NODE_OFFLINE_AFTER_MS ? "online" : "offline",
    lastSeenAt: seen,
    lastPanel: row.lastPanel,
  };
}

export async function listNodes(db: Db): Promise<NodeView[]> {
  return (await db.select().from(schema.nodes).orderBy(schema.nodes.id).all()).map((row) => nodeView(row));
}

const nodeRead = (db: Db) => db.select().from(schema.nodes).where(eq(schema.nodes.id, sql.placeholder("id"))).prepare();
/** Every call to a node reads its row first (address, secret): kept while nothing is written (db/kept). */
const keptNodes = new KeptLookups<number, NodeRow | undefined>(1_000);

export async function findNodeRow(db: Db, id: number): Promise<NodeRow | undefined> {
  const row = await keptNodes.get(db, id, () => prepared(db, nodeRead).get({ id }));
  // A copy: a caller's change never reaches the kept row.
  return row && { ...row };
}

export async function getNodeRow(db: Db, id: number): Promise<NodeRow> {
  const row = await findNodeRow(db, id);
  if (!row) throw new KilnError("ErrNotFound", { id }, "no such node");
  return row;
}

export async function createNode(db: Db, input: NodeInput): Promise<NodeView> {
  await assertUniqueName(db, input.name);
  const row = await db
    .insert(schema.nodes)
    .values({ ...input, internalHost: input.internalHost || null, secret: newNodeSecret(), createdAt: new Date() })
    .returning()
    .get();
  await recordEvent(db, "node.created", { subject: row.id, properties: { name: row.name } });
  return nodeView(row);
}

/**
 * Where a node is reached: the panel sends it tokens and reads its answers at the private address,
 * users type their password into SFTP at the public one. Moving either lets whoever moved it read
 * what goes there, so only an administrator changes them on a node that exists (nodes.edit names
 * and removes nodes, and makes new ones, which must still prove they hold their own secret).
 */
export const NODE_ADDRESS_FIELDS = ["publicHost", "publicPort", "privateHost", "privatePort", "sftpPort", "internalHost"] as const;

export async function updateNode(db: Db, id: number, input: NodeInput, actor: { scopes: readonly string[] }): Promise<NodeView> {
  const before = await getNodeRow(db, id);
  const moved = NODE_ADDRESS_FIELDS.find((field) => (input[field] || null) !== (before[field] || null));
  if (moved && !actor.scopes.includes(SCOPES.admin)) throw new KilnError("ErrMissingScope", { scope: SCOPES.admin, field: moved });
  await assertUniqueName(db, input.name, id);
  const tags = input.tags === undefined ? undefined : [...new Set(input.tags)].sort();
  const row = await db.update(schema.nodes).set({ ...input, ...(tags ? { tags } : {}), internalHost: input.internalHost || null }).where(eq(schema.nodes.id, id)).returning().get();
  const fields = (Object.keys(input) as (keyof NodeInput)[]).filter((field) => JSON.stringify(field === "tags" ? tags : input[field] ?? null) !== JSON.stringify(before[field as keyof typeof before] ?? null));
  if (fields.length > 0) await recordEvent(db, "node.changed", { subject: id, properties: { name: row!.name, fields } });
  return nodeView(row!);
}

/** A node that still has servers cannot be deleted: their definitions and files live there. */
export async function deleteNode(db: Db, id: number): Promise<void> {
  await getNodeRow(db, id);
  const [{ n }] = (await db.select({ n: count() }).from(schema.servers).where(eq(schema.servers.nodeId, id)).all()) as [{ n: number }];
  if (n > 0) throw new KilnError("ErrNodeHasServers", { count: n });
  const { name } = await getNodeRow(db, id);
  await db.delete(schema.nodes).where(eq(schema.nodes.id, id)).run();
  await recordEvent(db, "node.deleted", { subject: id, properties: { name } });
}

/**
 * What an operator puts on a new machine: the kiln executable (from executableUrl), one config
 * file (it holds the secret) and one command; or all of it in `install`, one line whose
 * deployment token lapses at tokenExpiresAt (ms). To keep it running: a systemd unit and the
 * command that enables it.
 */
export interface NodeDeployment {
  configPath: string;
  config: { id: number; host: string; port: number; sftpPort: number; data: string; panelUrl: string; secret: string };
  command: string;
  executableUrl: string;
  install: string;
  tokenExpiresAt: number;
  service: { path: string; unit: string; enable: string };
}

/**
 * Shared by `GET /api/nodes/{id}/deployment`, the install script's config and the node screen, so
 * all agree. The local node has none: it runs with the panel, on the panel's machine, and its
 * secret is that machine's (with it, nodes.deploy would sign the panel's node calls, SFTP login
 * checks included, as the local node).
 */
export function nodeDeployment(row: NodeRow, panelUrl: string, now = Date.now()): NodeDeployment {
  if (row.isLocal) throw new KilnError("ErrNotFound", { id: row.id }, "the local node runs with the panel: it has no deployment");
  const configPath = DEFAULT_DAEMON_CONFIG_PATH;
  return {
    configPath,
    config: { id: row.id, host: "0.0.0.0", port: row.privatePort, sftpPort: row.sftpPort, data: "/var/lib/kiln", panelUrl, secret: row.secret },
    command: "kiln daemon",
    executableUrl: `${panelUrl}${nodeExecutablePath(row.id)}`,
    install: installCommand({ panelUrl, nodeId: row.id, token: signDeployToken(row, now), configPath }),
    tokenExpiresAt: (Math.floor(now / 1000) + DEPLOY_TOKEN_TTL_S) * 1000,
    service: { path: SERVICE_UNIT_PATH, unit: serviceUnit(configPath), enable: SERVICE_ENABLE_COMMAND },
  };
}

/** How many servers each node holds (nodes with none are absent), for the node list. */
export async function serverCountsByNode(db: Db): Promise<Map<number, number>> {
  const rows = await db.select({ nodeId: schema.servers.nodeId, n: count() }).from(schema.servers).groupBy(schema.servers.nodeId).all();
  return new Map(rows.map((r) => [r.nodeId, r.n]));
}

/** The node answered this panel; `lastStatus`: its status answer as server/node-memory keeps it (null forgets it). */
export async function markSeen(db: Db, id: number, lastStatus?: string | null): Promise<void> {
  await db.update(schema.nodes).set({ lastSeenAt: new Date(), lastPanel: THIS_PANEL, ...(lastStatus !== undefined ? { lastStatus } : {}) }).where(eq(schema.nodes.id, id)).run();
}

/**
 * The local node's row, created on the first start and brought up to date on every start:
 * its port is chosen afresh and its secret lives in the node's data folder.
 */
export async function ensureLocalNode(db: Db, local: { privatePort: number; sftpPort: number; secret: string }): Promise<NodeRow> {
  const existing = await db.select().from(schema.nodes).where(eq(schema.nodes.isLocal, true)).get();
  const values = { privateHost: "127.0.0.1", privatePort: local.privatePort, sftpPort: local.sftpPort, secret: local.secret };
  // The local node's API port is chosen afresh at each start; its public port follows it.
  if (existing) return (await db.update(schema.nodes).set({ ...values, publicPort: local.privatePort }).where(eq(schema.nodes.id, existing.id)).returning().get())!;
  const name = await uniqueLocalName(db);
  // {ip}: the address the browser used to reach the panel, filled in where it is shown.
  return await db.insert(schema.nodes).values({ name, publicHost: DEFAULT_BIND_HOST, publicPort: local.privatePort, isLocal: true, createdAt: new Date(), ...values }).returning().get();
}

async function uniqueLocalName(db: Db): Promise<string> {
  let name = LOCAL_NODE_NAME;
  for (let i = 2; await db.select().from(schema.nodes).where(eq(schema.nodes.name, name)).get(); i++) name = `${LOCAL_NODE_NAME}-${i}`;
  return name;
}

async function assertUniqueName(db: Db, name: string, exceptId?: number): Promise<void> {
  const clash = await db.select({ id: schema.nodes.id }).from(schema.nodes).where(eq(schema.nodes.name, name)).get();
  if (clash && clash.id !== exceptId) throw new KilnError("ErrDuplicateNodeName", { name, field: "name" });
}

function newNodeSecret(): string {
  return randomBytes(32).toString("base64url");
}
