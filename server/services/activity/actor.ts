// Who is acting in the request being served, kept for the request's whole async life so a service
// records its event with the right actor and address without every caller passing them down.
// Set once by the authenticate middleware; a background job (the node's events, pruning, webhook
// deliveries) records with an actor it names itself.
import { AsyncLocalStorage } from "node:async_hooks";
import type { ActorType } from "../../../core/activity";
import type { SessionUser } from "../sessions";
import type { Db } from "../../../db";

export interface Actor {
  type: ActorType;
  id: string | null;
  name: string | null;
  /** The user an OAuth2 client or a task acted for. */
  onBehalfOf?: number | null;
}

interface RequestActor {
  db: Db;
  user: SessionUser | null;
  /** Read only when an event is recorded: most requests record none. */
  address: () => string;
}

const current = new AsyncLocalStorage<RequestActor>();

export function withRequestActor<T>(db: Db, user: SessionUser | null, address: () => string, run: () => T): T {
  return current.run({ db, user, address }, run);
}

/** The database of the request being served: where the node client records what a user did. */
export function requestDb(): Db | null {
  return current.getStore()?.db ?? null;
}

/** The actor of the request being served (a user, or an OAuth2 client for one), or the system outside a request. */
export function currentActor(): Actor {
  const user = current.getStore()?.user;
  if (!user) return SYSTEM;
  if (user.clientId) return { type: "client", id: user.clientId, name: user.username, onBehalfOf: user.id };
  return userActor(user);
}

export function currentAddress(): string | null {
  const store = current.getStore();
  return store ? store.address() : null;
}

export function userActor(user: { id: number; username: string }): Actor {
  return { type: "user", id: String(user.id), name: user.username };
}

export const SYSTEM: Actor = { type: "system", id: null, name: null };
