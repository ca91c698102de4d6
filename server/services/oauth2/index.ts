// OAuth2 clients (client_credentials, RFC 6749 section 4.4). A client acts with its owner's
// permissions: all of them at account level, only those on its server at server level.
// The secret is shown once at creation and stored only as an argon2id hash.
import { recordEvent } from "../activity/record";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { createSession, randomToken, OAUTH2_TOKEN_TTL_MS } from "../sessions";
import { hashPassword, verifyPassword } from "../auth/credentials";

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

export async function createClient(db: Db, actor: ClientManager, input: { name?: unknown; description?: unknown }, serverId: string | null = null): Promise<{ id: string; secret: string }> {
  assertNotAClient(actor);
  const userId = actor.id;
  const id = `kiln_${randomToken().slice(0, 20)}`;
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

/** Deleting ends the client's tokens too; it cannot be recreated with the same credentials. */
export async function deleteClient(db: Db, actor: ClientManager, clientId: string, serverId: string | null = null): Promise<void> {
  assertNotAClient(actor);
  const userId = actor.id;
  const client = (await listClients(db, userId, serverId)).find((c) => c.client_id === clientId);
  if (!client) throw new KilnError("ErrClientNotFound");
  await db.transaction(async (tx) => {
    await tx.delete(schema.sessions).where(eq(schema.sessions.clientId, clientId)).run();
    await tx.delete(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, clientId)).run();
    await recordEvent(tx, "oauth2.client.deleted", { subject: userId, properties: { clientId } });
  });
}

/** The token endpoint's work: good credentials give a bearer token for one hour. */
export async function issueToken(db: Db, clientId: unknown, secret: unknown): Promise<{ access_token: string; token_type: "Bearer"; expires_in: number }> {
  const id = typeof clientId === "string" ? clientId : "";
  const row = id ? await db.select().from(schema.oauth2Clients).where(eq(schema.oauth2Clients.clientId, id)).get() : undefined;
  const ok = await verifyPassword(typeof secret === "string" ? secret : "", row?.secretHash);
  if (!row || !ok) throw new KilnError("ErrInvalidCredentials");
  const token = await createSession(db, row.userId, { kind: "oauth2", clientId: row.clientId });
  return { access_token: token, token_type: "Bearer", expires_in: OAUTH2_TOKEN_TTL_MS / 1000 };
}
