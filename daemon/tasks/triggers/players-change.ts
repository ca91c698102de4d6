// Who joined and who left, read from two successive answers of the server's players query (the
// node's PlayersWatch, daemon/query): the only source of players every game with a query shares.
// Names where both answers list everyone online (vanilla Minecraft lists up to 12, A2S and Quake
// 3 list all); otherwise only how many, from the counts. An answer after none (the server just
// started, or the game did not answer for a while) sets the baseline and fires nothing: players
// already on are not joins.
import { isPlayersAnswer, type PlayersAnswer, type PlayersState } from "../../../core/players/players-state";

export interface PlayersChange {
  joined: { count: number; names: string[] };
  left: { count: number; names: string[] };
}

const complete = (answer: PlayersAnswer) => answer.players.length === answer.online;

/** What changed between two states; null when there is nothing to compare (either is not an answer). */
export function playersChange(before: PlayersState | null, after: PlayersState | null): PlayersChange | null {
  if (!isPlayersAnswer(before) || !isPlayersAnswer(after)) return null;
  if (complete(before) && complete(after)) {
    const had = new Set(before.players.map((p) => p.name));
    const has = new Set(after.players.map((p) => p.name));
    const joined = [...has].filter((name) => !had.has(name));
    const left = [...had].filter((name) => !has.has(name));
    return { joined: { count: joined.length, names: joined }, left: { count: left.length, names: left } };
  }
  const difference = after.online - before.online;
  return { joined: { count: Math.max(0, difference), names: [] }, left: { count: Math.max(0, -difference), names: [] } };
}
