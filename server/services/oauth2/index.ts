// OAuth2 clients (client_credentials, RFC 6749 section 4.4). A client acts with its owner's
// permissions: all of them at account level, only those on its server at server level.
// The secret is shown once at creation and stored only as an argon2id hash.
import { recordEvent } from "../activity/record";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { createSession, randomToken, OAUTH2_TOKEN_TTL_MS } from "../sessions";
import { hashPassword, requirePassword, verifyPassword } from "../auth/credentials";
import { throttleKeys, type LoginThrottle } from "../auth/throttle";
import { assertMayManage, type Actor } from "../users/manage";
import { serverAccesses } from "../servers/permissions";
import type { SessionUser } from "../sessions";

export interface ClientView {
  client_id: string;
  name: string;
  description: string;
  serverId: string | null;
}

const view = {
  client_id: schema.oauth2Clients.clientId,
  name: schema.oauth2Clients.name,
  description: schema.oauth2Clients.description,
  serverId: schema.oauth2Clients.serverId,
};

const MAX_TEXT = 200;

function text(value: unknown): string {
  return typeof value === "string" ? value.trim().slice(0, MAX_TEXT) : "";
}

/**
 * Clients one account holds, at account and server level together: enough for every script and
 * bot of a server's owner, and a bound on what one user adds to the database (each is a row and
 * an activity event, and takes a password hash's time to make).
 */
export const MAX_CLIENTS_PER_ACCOUNT = 50;

/** Who manages clients: an account's holder, never a client's token (it would mint others, or end its owner's). */
export interface ClientManager {
  id: number;
  clientId?: string;
}

function assertNotAClient(actor: ClientManager): void {
  if (actor.clientId) throw new KilnError("ErrNoPermission", { reason: "OAuth2 clients do not manage clients" });
}

/** A client's id: this prefix and part of a random token. Nothing else makes them, so none is longer. */
const CLIENT_ID_PREFIX = "kiln_";
export const CLIENT_ID_LENGTH = CLIENT_ID_PREFIX.length + 20;

/**
 * A new client, for the holder who gives the account's current password again (ErrFieldRequired
 * without it, ErrInvalidCredentials for a wrong one; the caller runs this under the login
 * throttle): a client is a way in that outlives a password change (which ends its tokens, not
 * it), so a session alone (a stolen cookie) must not add one. An account without a password (a
 * provider made it) adds none, as it adds no passkey.
 */
export async function createClient(db: Db, actor: ClientManager, input: { name?: unknown; description?: unknown; password?: unknown }, serverId: string | null = null): Promise<{ id: string; secret: string }> {
  assertNotAClient(actor);
  const userId = actor.id;
  await requirePassword(db, userId, input.password);
  const id = `${CLIENT_ID_PREFIX}${randomToken().slice(0, CLIENT_ID_LENGTH - CLIENT_ID_PREFIX.length)}`;
  const secret = randomToken();
  const secretHash = await hashPassword(secret);
  // Counted and written in one transaction: requests racing each other cannot pass the bound together.
  await db.transaction(async (tx) => {
    const held = (await tx.select({ n: count() }).from(schema.oauth2Clients).where(eq(schema.oauth2Clients.userId, userId)).get())?.n ?? 0;
    if (held >= MAX_CLIENTS_PER_ACCOUNT) throw new KilnError("ErrClientLimit", { max: MAX_CLIENTS_PER_ACCOUNT });
    await tx.insert(schema.oauth2Clients).values({ clientId: id, userId, serverId, name: text(input.name), description: text(input.description), secretHash, createdAt: new Date() }).run();
    await recordEvent(tx, "oauth2.client.created", { subject: userId, serverId, properties: { clientId: id, name: text(input.name), serverId } });
  });
  return { id, secret };
}

export async function listClients(db: Db, userId: number, serverId: string | null = null): Promise<ClientView[]> {
  const server = serverId === null ? isNull(schema.oauth2Clients.serverId) : eq(schema.oauth2Clients.serverId, serverId);
  return await db.select(view).from(schema.oauth2Clients).where(and(eq(schema.oauth2Clients.userId, userId), server)).orderBy(schema.oauth2Clients.createdAt).all();
}

/**
 * Deleting ends the client's tokens too; it cannot be recreated with the same credentials. Given a
 * server, only a client bound to it (the server's tab); without one, any of the account's own
 * clients wherever bound (the Account page lists them all): a client bound to a server its owner
 * was removed from stays theirs to delete, and would work again were they added back.
 */
export async function deleteClient(db: Db, actor: ClientManager, clientId: string, serverId?: string): Promise<void> {
  assertNotAClient(actor);
  const userId = actor.id;
  const own = serverId === undefined ? await accountClients(db, userId) : await listClients(db, userId, serverId);
  if (!own.some((c) => c.client_id === clientId)) throw new KilnError("ErrClientNotFound");
  await removeClient(db, userId, clientId);
}

/** A client as a manager sees it: with its server's name when it is bound to one. */
export interface AccountClientView extends ClientView {
  serverName: string | null;
}

/** Every client an account holds, at account level and for each server (a manager's view: no secret is kept to show). */
export async function accountClients(db: Db, userId: number): Promise<AccountClientView[]> {
  return await db
    .select({ ...view, serverName: schema.servers.name })
    .from(schema.oauth2Clients)
    .leftJoin(schema.servers, eq(schema.servers.id, schema.oauth2Clients.serverId))
    .where(eq(schema.oauth2Clients.userId, userId))
    .orderBy(schema.oauth2Clients.createdAt)
    .all();
}

/**
 * The holder's own clients, for their Account page: every one, a bound one's server named only
 * while the holder still sees that server (a name given to it since is not theirs to learn).
 */
export async function ownClients(db: Db, user: SessionUser): Promise<AccountClientView[]> {
  const clients = await accountClients(db, user.id);
  const access = await serverAccesses(db, user, clients.flatMap((c) => (c.serverId ? [c.serverId] : [])));
  return clients.map((c) => (c.serverId && !access.get(c.serverId)?.view ? { ...c, serverName: null } : c));
}

/**
 * A manager (users.edit) deletes another account's client: a leaked secret or a script gone wrong
 * is stopped without deleting the account. The account rule holds (users/manage: nobody reaches an
 * account holding more than they do), and a client's token manages no client.
 */
export async function revokeAccountClient(db: Db, actor: Actor & ClientManager, userId: number, clientId: string): Promise<void> {
  assertNotAClient(actor);
  await assertMayManage(db, actor, userId);
  if (!(await accountClients(db, userId)).some((c) => c.client_id === clientId)) throw new KilnError("ErrClientNotFound");
  await removeClient(db, userId, clientId);
}

async function removeClient(db: Db, userId: number, clientId: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(schema.sessions).where(eq(schema.sessions.clientId, clientId)).run();
    await tx.delete(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, clientId)).run();
    await recordEvent(tx, "oauth2.client.deleted", { subject: userId, properties: { clientId } });
  });
}

export interface IssuedToken {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
}

/**
 * The token endpoint's work, under the login throttle: good credentials give a bearer token for
 * one hour; anything else is ErrInvalidCredentials. An id longer than any client's is refused
 * before any work (it would be a stored key, and cost a lookup, however long). A failure counts
 * against the caller's address, and against the client only when it exists: an id is anyone's to
 * type, so an unknown one names nothing worth a counter of its own.
 */
export async function requestToken(db: Db, throttle: LoginThrottle, address: string, clientId: unknown, secret: unknown): Promise<IssuedToken> {
  const id = typeof clientId === "string" ? clientId : "";
  if (id.length > CLIENT_ID_LENGTH) throw new KilnError("ErrInvalidCredentials");
  const known = id !== "" && (await db.select({ id: schema.oauth2Clients.clientId }).from(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, id)).get()) !== undefined;
  const keys = throttleKeys(known ? { clientId: id } : undefined, address);
  // Any refusal counts: there is no field to forget here, only a secret to guess.
  return await throttle.check(keys, () => issueToken(db, id, secret), (error) => error instanceof KilnError);
}

async function issueToken(db: Db, id: string, secret: unknown): Promise<IssuedToken> {
  const row = id ? await db.select().from(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, id)).get() : undefined;
  // Verified against a real hash when the client is unknown too: the answer takes as long.
  const ok = await verifyPassword(typeof secret === "string" ? secret : "", row?.secretHash);
  if (!row || !ok) throw new KilnError("ErrInvalidCredentials");
  // Written only while the client is still there with the secret checked (createSession's proof).
  const token = await createSession(db, row.userId, { kind: "oauth2", clientId: row.clientId, proof: { clientSecretHash: row.secretHash } });
  return { access_token: token, token_type: "Bearer", expires_in: OAUTH2_TOKEN_TTL_MS / 1000 };
}
