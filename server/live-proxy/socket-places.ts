// Who may hold a server's live sockets through the panel. The node keeps MAX_SOCKETS_PER_SERVER
// places per server for everyone; without a share per user, one user who may only read the
// console could take them all and lock the server's administrators out of it. So a user holds at
// most MAX_SOCKETS_PER_USER of a server's sockets, and its co-users (neither administrators nor
// its owner) hold together at most CO_USER_SOCKETS: the places left when ADMIN_SOCKETS and
// OWNER_SOCKETS are kept back. Administrators are not counted here (the node's own bound still
// holds for them); the owner's sockets count against the owner's share alone, so co-users who
// filled theirs never shut the owner out of their own console. The owner is the one
// services/servers' speaksForOwners names (serverOwnerId), read at each opening: a new owner's
// sockets are the owner's from then on.
//
// Counted in the database (`one_time_values`, kind `socket`, a row per open socket naming the
// panel process that holds it), not in each process: behind a balancer every panel gave each user
// a share of its own, so through two panels one reader held twice their share and two readers
// held all of the node's places, the administrators' too. A row of a panel that stopped (killed,
// cut off: gone from `panel_instances` after GONE_AFTER_MS) counts no more, and goes at the next
// opening on its server or the next sweep (forgetGoneSockets), whichever comes first: a server no
// socket opens on again (or one deleted) keeps none of them.
import { and, eq, inArray, like } from "drizzle-orm";
import { KilnError } from "../../core/errors";
import { MAX_SOCKETS_PER_SERVER } from "../../core/live/limits";
import { schema, type Db } from "../../db";
import { randomToken } from "../services/sessions";
import { otherLiveInstances, THIS_PANEL } from "../services/cluster/instance";
import { serverOwnerId } from "../services/servers";
import type { ProxySocketData } from "./socket-data";

/** One user's sockets to one server (each browser tab on the server's pages holds one). */
export const MAX_SOCKETS_PER_USER = 5;
/** A server's places only administrators' sockets take. */
export const ADMIN_SOCKETS = 5;
/** A server's places only its owner's sockets take: the owner's own share, counted apart. */
export const OWNER_SOCKETS = MAX_SOCKETS_PER_USER;
/** The places a server's co-users share. */
export const CO_USER_SOCKETS = MAX_SOCKETS_PER_SERVER - ADMIN_SOCKETS - OWNER_SOCKETS;

const KIND = "socket";
/** A socket's row lasts as long as it is open; its panel's liveness, not a time, ends a forgotten one. */
const NEVER = Number.MAX_SAFE_INTEGER;
const of = schema.oneTimeValues;

/** This process's sockets' rows, once taken (null: refused or failed). */
const taken = new WeakMap<object, Promise<string | null>>();
/** Rows of sockets this process closed, while their deletion is on its way: a reopening right after is not refused for them. */
const releasing = new Set<string>();

/** Whom a socket is counted for: its user, or the user an OAuth2 client acts for. */
function holder(data: ProxySocketData): string {
  const { actor } = data;
  return actor.onBehalfOf != null ? `user:${actor.onBehalfOf}` : `${actor.type}:${actor.id}`;
}

/** `serverId|holder|panel|random`: a server's rows are a prefix (server ids are hex; "|" is in no holder or panel name). */
const keyOf = (data: ProxySocketData) => `${data.serverId}|${holder(data)}|${THIS_PANEL}|${randomToken()}`;

/** Refuses (ErrTooManyRequests) when a socket with `data` would pass its user's share or the co-users' share; answers the rows of panels gone. */
async function checkPlace(db: Db, data: ProxySocketData): Promise<string[]> {
  const rows = await db.select({ key: of.key }).from(of).where(and(eq(of.kind, KIND), like(of.key, `${data.serverId}|%`))).all();
  const live = new Set([THIS_PANEL, ...(await otherLiveInstances(db, THIS_PANEL)).map((panel) => panel.id)]);
  const owner = await serverOwnerId(db, data.serverId);
  // The owner's holder as keyOf names it: an OAuth2 client acting for the owner holds the owner's places.
  const owners = owner === null ? null : `user:${owner}`;
  const gone: string[] = [];
  let [mine, shared] = [0, 0];
  for (const { key } of rows) {
    const [, who, panel] = key.split("|");
    if (!live.has(panel!)) gone.push(key);
    else if (!releasing.has(key)) [mine, shared] = [mine + (who === holder(data) ? 1 : 0), shared + (who === owners ? 0 : 1)];
  }
  if (mine >= MAX_SOCKETS_PER_USER) throw new KilnError("ErrTooManyRequests", { max: MAX_SOCKETS_PER_USER }, "too many sockets of this user for this server");
  if (holder(data) !== owners && shared >= CO_USER_SOCKETS) throw new KilnError("ErrTooManyRequests", { max: CO_USER_SOCKETS }, "too many sockets for this server");
  return gone;
}

/** Throws ErrTooManyRequests when a socket with `data` would pass the user's share or the co-users' share. */
export async function assertSocketPlace(data: ProxySocketData): Promise<void> {
  if (!data.access.admin) await checkPlace(data.db, data);
}

/**
 * Counts an opened socket, checked again in the transaction that writes its row (upgrades checked
 * at once, through any panel, all passed assertSocketPlace before any of them opened); throws its
 * refusal and counts nothing.
 */
export async function takeSocketPlace(socket: object, data: ProxySocketData): Promise<void> {
  if (data.access.admin) return;
  const made = data.db.transaction(async (tx) => {
    // Read through the transaction (it is the async context's): another panel's opening waits or is retried.
    const gone = await checkPlace(data.db, data);
    if (gone.length > 0) await tx.delete(of).where(and(eq(of.kind, KIND), inArray(of.key, gone))).run();
    const key = keyOf(data);
    await tx.insert(of).values({ kind: KIND, key, value: "", expiresAt: NEVER }).run();
    return key;
  });
  taken.set(socket, made.catch(() => null));
  await made;
}

/** The first wait before a failed release is tried again, doubled at each failure up to the last. */
const RELEASE_RETRY_MS = { first: 500, last: 30_000 };

const forgetRow = (db: Db, key: string) => db.delete(of).where(and(eq(of.kind, KIND), eq(of.key, key))).run();

/**
 * The socket closed: its place is free (once its opening's row, if any, was written). A deletion
 * the database refuses (busy past its timeout, out of reach for a moment) is tried again until the
 * row goes, and this process counts it no more meanwhile: its panel is alive, so no sweep takes the
 * row (they take gone panels' rows only), and the user lost that place, through every panel, until
 * this one stopped. The first failure is still thrown, for the log.
 */
export async function releaseSocketPlace(socket: object, data: ProxySocketData): Promise<void> {
  const key = await taken.get(socket);
  taken.delete(socket);
  if (!key) return;
  releasing.add(key);
  try {
    await forgetRow(data.db, key);
  } catch (error) {
    releaseLater(data.db, key, RELEASE_RETRY_MS.first);
    throw error;
  }
  releasing.delete(key);
}

function releaseLater(db: Db, key: string, wait: number): void {
  // Unref'd: a process stopping does not wait for it (its rows are then a gone panel's, swept).
  const timer = setTimeout(() => {
    forgetRow(db, key).then(
      () => releasing.delete(key),
      () => releaseLater(db, key, Math.min(wait * 2, RELEASE_RETRY_MS.last)),
    );
  }, wait);
  timer.unref();
}

/** Every panel's rows looked at per statement when sweeping: a few hundred keys in one IN list. */
const SWEEP_BATCH = 500;

/** Drops the rows of sockets whose panel process is gone (run every SOCKET_SWEEP_MS by one panel). */
export async function forgetGoneSockets(db: Db): Promise<void> {
  // The rows first: a panel that registers after the liveness is read has rows of its own only after it.
  const rows = await db.select({ key: of.key }).from(of).where(eq(of.kind, KIND)).all();
  const live = new Set([THIS_PANEL, ...(await otherLiveInstances(db, THIS_PANEL)).map((panel) => panel.id)]);
  const gone = rows.map(({ key }) => key).filter((key) => !live.has(key.split("|")[2]!));
  for (let i = 0; i < gone.length; i += SWEEP_BATCH) await db.delete(of).where(and(eq(of.kind, KIND), inArray(of.key, gone.slice(i, i + SWEEP_BATCH)))).run();
}

/** How often the rows of gone panels' sockets are swept. */
export const SOCKET_SWEEP_MS = 30_000;
