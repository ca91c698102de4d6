// Who is online, as the console's `list` gives it: "There are 2 of a max of 20 players online:
// Alex, Steve". The game joins the names with ", " and names are the game's or a proxy's to give
// (Floodgate's ".Steve", an offline-mode or older server's "x, Admin"), so splitting is only
// trusted when it gives exactly as many names as the count: ", " cannot overlap itself, so every
// extra piece is a ", " inside a name. Otherwise the names cannot be told apart, and the line is
// kept whole rather than guessed at (a guess would list an "Admin" who is not there).
import { PLAYER_LIST_PAGE } from "./list-page";

export interface OnlineList {
  online: number;
  max: number;
  /** Each name exactly as the game wrote it, at most PLAYER_LIST_PAGE.maxNames. */
  players: { name: string }[];
  /** The names' part of the line, when it could not be split into `online` names (then `players` is empty). */
  unsplit?: string;
}

/** The longest unsplit line kept: as many names as the tab shows, of the game's 16 characters. */
const MAX_UNSPLIT = PLAYER_LIST_PAGE.maxNames * 18;

export function onlineList(online: number, max: number, names: string): OnlineList {
  const text = names.replace(/^ /, "").replace(/[\r\n]+$/, "");
  if (online === 0 || text === "") return { online, max, players: [] };
  const pieces = text.split(", ");
  if (pieces.length !== online) return { online, max, players: [], unsplit: [...text].slice(0, MAX_UNSPLIT).join("") };
  return { online, max, players: pieces.slice(0, PLAYER_LIST_PAGE.maxNames).map((name) => ({ name })) };
}
