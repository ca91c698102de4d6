// The server list's live values: one island for the whole page, which
// asks /api/servers/live for the rows shown every LIST_POLL_MS while the page is visible (one
// request, whatever the number of rows; no socket per server) and writes each row's status dot,
// players, CPU and memory into the server-rendered table. It renders nothing of its own: the list, with
// the statuses of when it was made, is complete without it.
import { useEffect } from "react";
import { formatBytes, formatNumber } from "../core/units";
import type { Translate } from "../core/i18n/translate";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { api } from "./lib/api";
import { playersText } from "../core/players/players-text";
import type { PlayerCounts } from "../core/players/players-state";

export interface ServerListLiveProps {
  /** the ids of the rows on this page */
  ids: string[];
}

/**
 * How often the list asks: with the node's 15 s query, a join shows within 20 s. One request
 * for the whole page, of values the nodes hold in memory.
 */
export const LIST_POLL_MS = 5_000;

interface Live {
  status: "online" | "starting" | "offline" | "unknown";
  cpu?: number;
  memory?: number;
  memoryLimitMiB?: number;
  /** absent: not the reader's to see; null: the game gave no answer */
  players?: PlayerCounts;
}

/** Writes one server's values into its row (`[data-server-row]`); rows not on the page are skipped. */
export function applyLive(root: ParentNode, id: string, live: Live, t: Translate): void {
  const row = root.querySelector(`[data-server-row="${CSS.escape(id)}"]`);
  if (!row) return;
  const dot = row.querySelector<HTMLElement>('[data-live="status"]');
  if (dot) {
    const label = t(`serverStatus.${live.status}`);
    dot.className = `server-status-dot is-${live.status}`;
    dot.dataset.status = live.status;
    dot.setAttribute("aria-label", label);
    dot.title = label;
  }
  const running = live.status === "online" || live.status === "starting";
  const players = row.querySelector('[data-live="players"]');
  if (players) players.textContent = playersText(live.players, running, t);
  const cpu = row.querySelector('[data-live="cpu"]');
  if (cpu) cpu.textContent = running && live.cpu !== undefined ? `${formatNumber(live.cpu, 1, t.locale)} %` : "—";
  const memory = row.querySelector('[data-live="memory"]');
  if (memory) {
    const used = live.memory === undefined ? null : formatBytes(live.memory, "binary", 2, t.locale);
    memory.textContent = !running || used === null ? "—" : live.memoryLimitMiB ? t("stats.ofLimit", { used, limit: formatBytes(live.memoryLimitMiB * 1024 * 1024, "binary", 2, t.locale) }) : used;
  }
}

function ServerListLiveView({ ids }: ServerListLiveProps) {
  const t = useT();
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      if (document.visibilityState !== "hidden") {
        try {
          const { servers } = await api<{ servers: Record<string, Live> }>("GET", `/api/servers/live?ids=${ids.map(encodeURIComponent).join(",")}`);
          for (const id of ids) if (servers[id]) applyLive(document, id, servers[id], t);
        } catch {
          // The list still shows what it was rendered with; the next poll tries again.
        }
      }
      if (!stopped) timer = setTimeout(() => void poll(), LIST_POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [ids.join(",")]);
  return null;
}

export default defineIsland<ServerListLiveProps>({
  name: "ServerListLive",
  component: ServerListLiveView,
  messages: ["serverStatus.", "stats.ofLimit", "vitals.players"],
  hydrate: "idle",
});
