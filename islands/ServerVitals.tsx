// The vitals beside the console: CPU, memory against its limit, disk
// against its space, uptime, players (the count; the names on click) and the address with a copy
// button. Players come as the node's `players` socket message, sent on connect and on a change. A stat is asked for every
// STATS_INTERVAL_MS through the page's one live connection (the same "stat" the stats tab uses,
// which carries disk, limits and uptime). The server renders the address and dashes, so the
// panel reads before script; the copy button appears once hydrated.
import { useEffect, useRef, useState } from "react";
import { STATS_INTERVAL_MS, type StatData } from "../core/live";
import { formatBytes, formatNumber } from "../core/units";
import { defineIsland } from "./define";
import type { Translate } from "../core/i18n/translate";
import { useT } from "./lib/i18n";
import { Icon } from "./lib/Icon";
import { copyText, COPIED_MS } from "./lib/copy-text";
import { liveStatsSource } from "./lib/stats-source";
import { serverLive, useLiveView } from "./lib/server-live";
import { isPlayersAnswer, playerCounts, type PlayerEntry, type PlayersState } from "../core/players/players-state";
import { playersText } from "../core/players/players-text";
import { ShownLabel } from "./lib/ShownLabel";

export interface ServerVitalsProps {
  serverId: string;
  /** host:port as the server list shows it */
  address: string;
}

/** Uptime in the two largest units that matter: "2 d 3 h", "3 h 12 min", "4 min 5 s", "9 s". */
/**
 * The names the game's query gave, each by the rule of untrusted labels: any player (or the game
 * itself) chooses its name, and "\u202Enimda" or "admin\u200B" must not read as "admin".
 */
export function PlayerNames({ names, t }: { names: readonly PlayerEntry[]; t: Translate }) {
  return (
    <ul className="server-vitals-names" aria-label={t("vitals.playersNames")}>
      {names.map((p, i) => (
        <li key={`${i}:${p.id ?? p.name}`}>
          <ShownLabel text={p.name} hint={t("common.hiddenCharacters")} />
        </li>
      ))}
    </ul>
  );
}

export function formatUptime(seconds: number, t: Translate): string {
  const s = Math.max(0, Math.floor(seconds));
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return t("vitals.uptimeDays", { d, h });
  if (h > 0) return t("vitals.uptimeHours", { h, m });
  if (m > 0) return t("vitals.uptimeMinutes", { m, s: s % 60 });
  return t("vitals.uptimeSeconds", { s });
}

const DASH = "—";
/** The copy icon's path, here rather than imported from files/icons, whose shared chunk carries every file icon. */
const COPY_ICON = "M16 1H4c-1.1 0-2 .9-2 2v14h2V3h12V1zm3 4H8c-1.1 0-2 .9-2 2v14c0 1.1.9 2 2 2h11c1.1 0 2-.9 2-2V7c0-1.1-.9-2-2-2zm0 16H8V7h11v14z";
/** A limit when set (0 or absent: none); read inline to keep the console tab's script small. */
const limit = (value: number | undefined) => (typeof value === "number" && value > 0 ? value : null);
const MIB = 1024 * 1024;

function ServerVitalsView({ serverId, address }: ServerVitalsProps) {
  const t = useT();
  const view = useLiveView(serverId);
  const [stat, setStat] = useState<StatData | null>(null);
  const [players, setPlayers] = useState<PlayersState | null>(null);
  const [hydrated, setHydrated] = useState(false);
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    setHydrated(true);
    const source = liveStatsSource(serverId);
    const off = source.onStat(setStat);
    const live = serverLive(serverId);
    setPlayers(live.lastPlayers as PlayersState | null);
    const offPlayers = live.on("players", (message) => setPlayers((message.data as PlayersState | null) ?? null));
    source.request();
    // Asked only while the tab is seen: a console left open in the background costs the node nothing.
    const timer = setInterval(() => document.visibilityState !== "hidden" && source.request(), STATS_INTERVAL_MS);
    return () => {
      clearInterval(timer);
      off();
      offPlayers();
      source.close?.();
      clearTimeout(copiedTimer.current);
    };
  }, [serverId]);

  async function copy() {
    if (!(await copyText(address))) return;
    setCopied(true);
    clearTimeout(copiedTimer.current);
    copiedTimer.current = setTimeout(() => setCopied(false), COPIED_MS);
  }

  const running = view.status !== "offline";
  const ofLimit = (used: string, limit: number | null) => (limit === null ? used : t("stats.ofLimit", { used, limit: formatBytes(limit, "binary", 2, t.locale) }));
  const cpuLimit = limit(stat?.limits?.cpuPercent);
  const bytes = (mib: number | null) => (mib === null ? null : mib * MIB);
  const cpu = stat && running ? `${formatNumber(stat.cpu, 1, t.locale)} %` : DASH;
  const memory = stat && running ? ofLimit(formatBytes(stat.memory, "binary", 2, t.locale), bytes(limit(stat.limits?.memoryMiB))) : DASH;
  const disk = stat?.disk != null ? ofLimit(formatBytes(stat.disk, "binary", 2, t.locale), bytes(limit(stat.limits?.diskMiB))) : DASH;
  const uptime = !running ? t("vitals.notRunning") : stat?.uptime != null ? formatUptime(stat.uptime, t) : DASH;
  // A template that declares no query shows no players entry at all; one that does and gets no answer says so.
  const declared = !(players && "error" in players && players.reason === "notDeclared");
  const names = isPlayersAnswer(players) ? players.players : [];

  return (
    <dl className="server-vitals" aria-label={t("vitals.title")}>
      <div>
        <dt>{t("vitals.cpu")}</dt>
        <dd data-vital="cpu" title={cpuLimit === null ? undefined : t("stats.cpuLimit", { percent: cpuLimit })}>{cpu}</dd>
      </div>
      <div>
        <dt>{t("vitals.memory")}</dt>
        <dd data-vital="memory">{memory}</dd>
      </div>
      <div>
        <dt>{t("vitals.disk")}</dt>
        <dd data-vital="disk">{disk}</dd>
      </div>
      <div>
        <dt>{t("vitals.uptime")}</dt>
        <dd data-vital="uptime">{uptime}</dd>
      </div>
      {declared ? (
        <div className="server-vitals-players">
          <dt>{t("vitals.players")}</dt>
          <dd data-vital="players">
            {isPlayersAnswer(players) && running ? (
              <details>
                <summary title={t("vitals.playersNames")}>{playersText(playerCounts(players), true, t)}</summary>
                {names.length > 0 ? (
                  <>
                    <PlayerNames names={names} t={t} />
                    {/* A Minecraft status names a sample (the game sends at most 12): the count says how many more. */}
                    {players.online > names.length ? <p className="muted small">{t("vitals.playersMore", { count: players.online - names.length })}</p> : null}
                  </>
                ) : (
                  <p className="muted small">{players.online > 0 ? t("vitals.playersNoNames") : t("players.online.none")}</p>
                )}
              </details>
            ) : (
              playersText(players === null ? undefined : null, running, t)
            )}
          </dd>
        </div>
      ) : null}
      <div className="server-vitals-address">
        <dt>{t("vitals.address")}</dt>
        <dd data-vital="address">
          <code>{address}</code>
          {hydrated ? (
            <button type="button" className="icon-btn" onClick={() => void copy()} title={t("vitals.copyAddress")} aria-label={t("vitals.copyAddress")}>
              <Icon path={COPY_ICON} size={16} />
            </button>
          ) : null}
          {copied ? (
            <span className="badge badge-on" role="status">
              {t("vitals.copied")}
            </span>
          ) : null}
        </dd>
      </div>
    </dl>
  );
}

export default defineIsland<ServerVitalsProps>({
  name: "ServerVitals",
  component: ServerVitalsView,
  messages: ["vitals.", "stats.ofLimit", "stats.cpuLimit", "players.online.none", "common.hiddenCharacters"],
  hydrate: "load",
});
