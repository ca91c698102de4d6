// After a request that changed state, and before its answer leaves, open live sockets re-read
// their rights (live-proxy/revocation): a logout, a password change, an account or a server user
// removed, scopes or flags lowered hold for an open socket from the moment the caller hears of it,
// not at the next periodic check. Which requests change state is ./changes-state's answer.
import type { Context } from "hono";
import { recheckOpenSockets } from "../live-proxy/revocation";
import { changesState } from "./changes-state";
import type { Db } from "../../db";

/** Called once the route has answered. */
export async function recheckSocketsAfter(c: Context, db: Db): Promise<void> {
  if (changesState(c)) await recheckOpenSockets(db);
}
