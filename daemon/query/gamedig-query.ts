// Every other query type through GameDig (Source A2S, Quake 3, Terraria, Minecraft's UDP query,
// Bedrock, …): `minecraft-query` and `bedrock` name its protocols, anything else is a GameDig
// game id. One attempt on the given port only, within the node's timeout.
import { QUERY_TIMEOUT_MS, QueryFailure, clip, clipName, countOf, MAX_PLAYER_NAMES } from "./limits";
import type { PlayersAnswer } from "../../core/players/players-state";
import { boundGameDig, type QueryMark } from "./gamedig-bounds";

/**
 * GameDig, loaded at the first query that needs it: loading it costs the process about 35 MB,
 * most of the node's idle budget, and a node whose servers declare no GameDig query never needs it.
 */
type Library = typeof import("gamedig");
let gamedig: Promise<Library> | undefined;
const loadGameDig = () =>
  (gamedig ??= import("gamedig").then((library) => {
    boundGameDig(library);
    return library;
  }));

const GAMEDIG_TYPES: Record<string, string> = { "minecraft-query": "protocol-gamespy3", bedrock: "protocol-minecraftbedrock" };

/** A GameDig game id (openarena, terrariatshock), else one of its protocols by name (valve, quake3); unknown types stay as written and fail as unknownType. */
function gamedigType(type: string, { games, protocols }: Library): string {
  if (GAMEDIG_TYPES[type]) return GAMEDIG_TYPES[type]!;
  if (Object.hasOwn(games, type)) return type;
  return Object.hasOwn(protocols, type) ? `protocol-${type}` : type;
}

type Figures = Omit<PlayersAnswer, "latencyMs" | "queriedAt">;

/**
 * A count the protocol left out: absent, empty, or NaN (GameDig's parseInt of nothing). Anything
 * else must be a count (./limits countOf); some protocols give text (Quake's sv_maxclients).
 */
const unsaid = (value: unknown) => value === undefined || value === null || value === "" || Number.isNaN(value);

export async function gamedigQuery(type: string, host: string, port: number, signal: AbortSignal): Promise<Figures> {
  const library = await loadGameDig();
  const mark: QueryMark = {};
  const query = library.GameDig.query({
    kiln: mark,
    type: gamedigType(type, library),
    host,
    port,
    givenPortOnly: true,
    maxRetries: 1,
    socketTimeout: QUERY_TIMEOUT_MS,
    attemptTimeout: QUERY_TIMEOUT_MS,
  });
  const aborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new QueryFailure("noAnswer"));
    signal.addEventListener("abort", () => reject(new QueryFailure("noAnswer")));
  });
  let state: Awaited<typeof query>;
  try {
    state = await Promise.race([query, aborted]);
  } catch (error) {
    query.catch(() => undefined);
    if (error instanceof QueryFailure) throw error;
    // Refused by ./gamedig-bounds: GameDig answers "Failed all 1 attempts" for it.
    if (mark.failure) throw mark.failure;
    // GameDig says "Invalid game: x" for a type it does not know; anything else: the game did not answer as it should.
    throw new QueryFailure(/^Invalid game/i.test(String((error as Error)?.message)) ? "unknownType" : "noAnswer");
  }
  // GameDig lists bots apart (Quake 3's ping-0 entries); they count in numplayers, so they are named too.
  const players = [...(state.players ?? []), ...(state.bots ?? [])]
    .slice(0, MAX_PLAYER_NAMES)
    .map((p) => clipName(p.name))
    .filter((name): name is string => !!name)
    .map((name) => ({ name }));
  const online = unsaid(state.numplayers) ? (state.players?.length ?? 0) : countOf(state.numplayers);
  const max = unsaid(state.maxplayers) ? 0 : countOf(state.maxplayers);
  return { online, max, players, version: clip(state.version), motd: clip(state.name) };
}
