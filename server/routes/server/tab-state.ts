// What of a tab's address is its state: the Players tab's pages and searches, one pair per list. A
// plain form sent from such a tab carries that state in its own address (the view puts it
// there), and the form's redirect goes back to the tab as it was, not to its first pages. Only
// the tab's own parameter names pass, each value at most MAX_VALUE characters, and the address is
// built by URLSearchParams: a crafted form address cannot send the redirect anywhere else.
import { PLAYER_LIST_NAMES } from "../../../core/players/player-lists";
import { tabParams } from "../../../core/players/list-page";
import type { ServerTab } from "../../../views/pages/server/tabs";

const STATE_PARAMS: Partial<Record<ServerTab, readonly string[]>> = {
  players: PLAYER_LIST_NAMES.flatMap((list) => [tabParams(list).page, tabParams(list).search]),
};

/** Longer than any page number or search the tabs read (core/players/list-page cuts a search at 45). */
const MAX_VALUE = 64;

/** The address of server `id`'s `tab`, keeping the tab's state from `query` (a form's own address). */
export function tabAddress(id: string, tab: ServerTab, query: Record<string, string>): string {
  const params = new URLSearchParams({ tab });
  for (const name of STATE_PARAMS[tab] ?? []) {
    const value = query[name];
    if (value && value.length <= MAX_VALUE) params.set(name, value);
  }
  return `/server/${encodeURIComponent(id)}?${params.toString()}`;
}
