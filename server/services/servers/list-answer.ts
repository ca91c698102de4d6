// GET /api/servers's answer, the page clients poll (the list pages every few seconds, API clients
// in loops). Its bytes are kept while nothing they show can have changed: the database's
// generation (db/kept: a write here at once, another process's within its delay) and the player
// counts shown (each stands COUNTS_FRESH_MS, then the node is asked again). An answer kept is the
// one the same request would build again; a poll costs the session read and this lookup.
import { KeptLookups } from "../../../db/kept";
import type { Db } from "../../../db/client";
import { pagingAnswer } from "../../paging";
import type { SessionUser } from "../sessions";
import { listServers } from "./index";
import { countsFreshUntil, withPlayerCounts } from "./players-query";
import { isAdminUser } from "./permissions";

interface KeptAnswer {
  body: Blob;
  /** when a count it shows is no longer fresh */
  until: number;
}

/**
 * By caller (every administrator sees the same page), page, size and the host the address was
 * asked by ({ip} in addresses reads as it). Bounded: a caller varying the Host header can push
 * out only kept answers (at most this many, each one page of at most MAX_PAGE_SIZE servers).
 */
const keptAnswers = new KeptLookups<string, KeptAnswer>(256, { announced: true });

async function buildAnswer(db: Db, user: SessionUser, page: number, limit: number, requestHost: string): Promise<KeptAnswer> {
  const { servers, total } = await listServers(db, user, page, limit, requestHost);
  const shown = await withPlayerCounts(db, user, servers);
  return { body: new Blob([JSON.stringify({ servers: shown, paging: pagingAnswer(page, limit, total) })]), until: countsFreshUntil(shown) };
}

/** The JSON of one page of the servers `user` may see, with the player counts they may read. */
export async function serverListAnswer(db: Db, user: SessionUser, page: number, limit: number, requestHost: string): Promise<Blob> {
  // A client bound to one server lists at most that one, with its owner's rights read each time.
  if (user.serverId) return (await buildAnswer(db, user, page, limit, requestHost)).body;
  const who = (await isAdminUser(db, user)) ? "every" : String(user.id);
  const key = `${who}:${page}:${limit}:${requestHost}`;
  const answer = await keptAnswers.get(db, key, () => buildAnswer(db, user, page, limit, requestHost), (kept) => Date.now() < kept.until);
  return answer.body;
}
