// The bounds of one query, whatever the game answers: it ends after QUERY_TIMEOUT_MS, and an
// answer longer than QUERY_ANSWER_CAP is dropped unread (a Minecraft status with a 64×64 icon
// is about 20 KiB; a UDP datagram is at most 64 KiB), so a server answering 10 MB or never
// answering costs the node one socket for two seconds and no memory past the cap.
import { isPlayerCount } from "../../core/players/players-state";

export const QUERY_TIMEOUT_MS = 2000;
export const QUERY_ANSWER_CAP = 256 * 1024;
/** Names kept of one answer (a server may claim thousands); the counts stay as the game said (when they are counts: countOf). */
export const MAX_PLAYER_NAMES = 200;
/** Each name, version and MOTD cut to this many characters (a name: code points). */
export const MAX_TEXT = 200;

/** Why one query gave no figures; its reason is what the state says (core/players QueryReason). */
export class QueryFailure extends Error {
  constructor(readonly reason: "noAnswer" | "badAnswer" | "tooLarge" | "unknownType") {
    super(reason);
  }
}

/** A count the game said (a number, or a number's text), else badAnswer: see core/players MAX_PLAYER_COUNT. */
export function countOf(value: unknown): number {
  const count = typeof value === "string" && /^\d{1,7}$/.test(value.trim()) ? Number(value.trim()) : value;
  if (!isPlayerCount(count)) throw new QueryFailure("badAnswer");
  return count;
}

export function clip(text: unknown): string | undefined {
  if (typeof text !== "string") return undefined;
  // Control characters and Minecraft's § format codes are not part of what a viewer reads.
  const clean = text.replace(/\u00a7./gu, "").replace(/\p{Cc}+/gu, " ").trim();
  return clean === "" ? undefined : clean.slice(0, MAX_TEXT);
}

/**
 * A player's name as the game gave it, cut to MAX_TEXT code points and nothing else: what a name
 * hides (bidi overrides, zero-width and control characters, `§` codes, spaces at the ends) is shown
 * marked where it is shown (core/text/shown-label), never taken out here, since taking it out
 * makes "admin\u0007" or "§cadmin" into a plain "admin".
 */
export function clipName(text: unknown): string | undefined {
  if (typeof text !== "string" || text === "") return undefined;
  const chars = Array.from(text);
  return chars.length > MAX_TEXT ? chars.slice(0, MAX_TEXT).join("") : text;
}
