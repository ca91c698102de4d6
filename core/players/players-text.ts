// The players figure as people read it, written once for the server-rendered list, the list's
// island and the console's vitals: "7/20"; "no answer" for a running server whose query gave no
// figures (never 0, which would say nobody plays); "—" when not running or not the reader's to see.
import type { Translate } from "../i18n/translate";
import { formatNumber } from "../units";
import type { PlayerCounts } from "./players-state";

/** `counts` undefined: not known to this reader (no flag, or an older node). */
export function playersText(counts: PlayerCounts | undefined, running: boolean, t: Translate): string {
  if (!running || counts === undefined) return "—";
  if (counts === null) return t("vitals.playersNoAnswer");
  return t("vitals.playersCount", { online: formatNumber(counts.online, 0, t.locale), max: formatNumber(counts.max, 0, t.locale) });
}
