// After a request that changed state, and before its answer leaves, open live sockets re-read
// their rights (live-proxy/revocation): a logout, a password change, an account or a server user
// removed, scopes or flags lowered hold for an open socket from the moment the caller hears of it,
// not at the next periodic check. Which requests change state is ./changes-state's answer.
import type { MiddlewareHandler } from "hono";
import { recheckOpenSockets } from "../live-proxy/revocation";
import { changesState } from "./changes-state";
import type { Db } from "../../db";

export const recheckSockets = (db: Db): MiddlewareHandler =>
  async function recheckSockets(c, next) {
    await next();
    if (changesState(c)) await recheckOpenSockets(db);
  };
