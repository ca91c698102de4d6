// The server page's stats tab: a CPU chart in percent and a memory
// chart with an MB/MiB toggle, and a players chart once the node says the server is queried. Both start with 40 zero points 3 s apart; a stat is asked for at
// once and every 3000 ms, each one appends a point and only the latest 40 are kept. The server
// renders the seeded charts, so the tab is readable before script. This island is only loaded on
// the stats tab; nothing the console tab imports may import it or the chart.
import { useEffect, useRef, useState } from "react";
import { STATS_INTERVAL_MS, type StatData } from "../core/live";
import { CHART_MEMORY_UNITS, bytesToChartUnit, familyOf, formatBytes, formatNumber, isChartMemoryUnit, roundCpu, roundTo, type ChartMemoryUnit } from "../core/units";
import { defineIsland } from "./define";
import { useT } from "./lib/i18n";
import { CHART_POINTS, CPU_Y_MAX, LineChart, MEMORY_Y_MAX, seedTimes } from "./lib/line-chart";
import { liveStatsSource, type StatsSource } from "./lib/stats-source";
import { limitBytes, limitOf } from "../core/definition/limit-values";
import { isPlayersAnswer, playerCounts, type PlayersState } from "../core/players/players-state";
import { playersText } from "../core/players/players-text";

export interface ServerStatsProps {
  serverId: string;
}

export interface Sample {
  /** ms since the epoch */
  t: number;
  /** percent, rounded to 2 decimals */
  cpu: number;
  /** bytes; converted to the chosen unit only when drawn, so the toggle redraws every point */
  memory: number;
  /** players online as last queried when the sample was taken (0 while unknown) */
  players?: number;
}

/** The browser remembers the chosen memory unit (a per-browser preference). */
export const MEMORY_UNIT_STORAGE_KEY = "kiln.memoryUnit";
const DEFAULT_UNIT: ChartMemoryUnit = "MB";

export function seedSamples(end: number): Sample[] {
  return seedTimes(end).map((t) => ({ t, cpu: 0, memory: 0 }));
}

export function appendSample(samples: readonly Sample[], stat: StatData, t: number, players = 0): Sample[] {
  const next = [...samples, { t, cpu: roundCpu(stat.cpu), memory: Number.isFinite(stat.memory) && stat.memory > 0 ? stat.memory : 0, players }];
  return next.length > CHART_POINTS ? next.slice(next.length - CHART_POINTS) : next;
}

function storedUnit(): ChartMemoryUnit | null {
  try {
    const value = localStorage.getItem(MEMORY_UNIT_STORAGE_KEY);
    return isChartMemoryUnit(value) ? value : null;
  } catch {
    return null; // storage disabled: the default unit it is
  }
}

function storeUnit(unit: ChartMemoryUnit): void {
  try {
    localStorage.setItem(MEMORY_UNIT_STORAGE_KEY, unit);
  } catch {
    // storage disabled: the choice lasts for this page only, which is all we can do
  }
}

export interface StatsPanelProps {
  /** Opens the stats source; called in the browser only, after hydration. */
  connect: () => StatsSource;
  intervalMs?: number;
}

/** The charts themselves, with the source injected (the island passes the live one). */
export function StatsPanel({ connect, intervalMs = STATS_INTERVAL_MS }: StatsPanelProps) {
  const t = useT();
  const [samples, setSamples] = useState(() => seedSamples(Date.now()));
  const [unit, setUnit] = useState<ChartMemoryUnit>(DEFAULT_UNIT);
  const [failing, setFailing] = useState(false);
  // The latest disk figure and the limits, shown beside the charts.
  const [usage, setUsage] = useState<Pick<StatData, "disk" | "limits">>({});
  // The server's clock made the seeded time labels; after hydration the charts are drawn anew
  // (a new key) so they show this browser's times even where the text matched by chance.
  const [hydrated, setHydrated] = useState(false);
  // The node's last players figure; each stat's sample takes its count.
  const [players, setPlayers] = useState<PlayersState | null>(null);
  const playersRef = useRef<PlayersState | null>(null);

  useEffect(() => {
    setHydrated(true);
    const remembered = storedUnit();
    if (remembered) setUnit(remembered);
    const source = connect();
    const offStat = source.onStat((stat) => {
      setFailing(false);
      setSamples((prev) => appendSample(prev, stat, Date.now(), isPlayersAnswer(playersRef.current) ? playersRef.current.online : 0));
      setUsage({ disk: stat.disk, limits: stat.limits });
    });
    const offError = source.onError?.(() => setFailing(true));
    const offPlayers = source.onPlayers?.((state) => {
      playersRef.current = state;
      setPlayers(state);
    });
    source.request();
    const timer = setInterval(() => source.request(), intervalMs);
    return () => {
      clearInterval(timer);
      offStat();
      offError?.();
      offPlayers?.();
      source.close?.();
    };
    // The source is opened once per mount; a new connect function alone must not reopen it.
  }, [intervalMs]);

  function choose(next: ChartMemoryUnit) {
    setUnit(next);
    storeUnit(next);
  }

  const times = samples.map((s) => s.t);
  const latest = samples[samples.length - 1];
  const describe = (title: string) => (value: string) => t("stats.chartLabel", { title, value });
  const key = hydrated ? "browser" : "server";
  const family = familyOf(unit);
  const memoryLimit = limitBytes(usage.limits, "memoryMiB");
  const ofLimit = (used: string, limit: number | null) => (limit === null ? used : t("stats.ofLimit", { used, limit: formatBytes(limit, family, 2, t.locale) }));
  // The memory limit as it was set, in MiB ("48 MiB", not "50.33 MB"), whatever unit the chart shows.
  const memoryLimitText = memoryLimit === null ? null : `${formatNumber(limitOf(usage.limits, "memoryMiB")!, 2, t.locale)}\u00a0MiB`;

  return (
    <div className="stats-charts">
      {failing ? (
        <p className="stats-failing muted" role="status">
          {t("stats.unavailable")}
        </p>
      ) : null}
      <LineChart
        key={`cpu-${key}`}
        title={t("stats.cpu")}
        points={samples.map((s) => s.cpu)}
        times={times}
        yMax={CPU_Y_MAX}
        unit="%"
        describe={describe(t("stats.cpu"))}
      />
      <LineChart
        key={`memory-${key}`}
        title={t("stats.memory")}
        points={samples.map((s) => roundTo(bytesToChartUnit(s.memory, unit), 2))}
        times={times}
        yMax={MEMORY_Y_MAX[unit]}
        unit={unit}
        latestText={memoryLimitText === null ? formatBytes(latest?.memory ?? 0, family, 2, t.locale) : t("stats.ofLimit", { used: formatBytes(latest?.memory ?? 0, family, 2, t.locale), limit: memoryLimitText })}
        limit={memoryLimit === null ? undefined : { value: roundTo(bytesToChartUnit(memoryLimit, unit), 2), label: t("stats.memoryLimitLine", { limit: memoryLimitText! }) }}
        describe={describe(t("stats.memory"))}
        tone="info"
        actions={
          <span className="stats-unit-toggle" role="group" aria-label={t("stats.memoryUnit")}>
            {CHART_MEMORY_UNITS.map((u) => (
              <button key={u} type="button" aria-pressed={u === unit} title={t(u === "MB" ? "stats.unitDecimal" : "stats.unitBinary")} onClick={() => choose(u)}>
                {u}
              </button>
            ))}
          </span>
        }
      />
      {players && !("error" in players && players.reason === "notDeclared") ? (
        <LineChart
          key={`players-${key}`}
          title={t("stats.players")}
          points={samples.map((s) => s.players ?? 0)}
          times={times}
          yMax={Math.max(isPlayersAnswer(players) ? players.max : 0, 1)}
          unit=""
          latestText={playersText(isPlayersAnswer(players) ? playerCounts(players) : null, true, t)}
          describe={describe(t("stats.players"))}
          tone="info"
        />
      ) : null}
      <p className="stats-limits muted" data-testid="stats-limits">
        {usage.disk != null ? <span>{t("stats.disk", { value: ofLimit(formatBytes(usage.disk, family, 2, t.locale), limitBytes(usage.limits, "diskMiB")) })}</span> : null}
        {limitOf(usage.limits, "cpuPercent") !== null ? <span>{t("stats.cpuLimit", { percent: limitOf(usage.limits, "cpuPercent")! })}</span> : null}
        {limitOf(usage.limits, "processes") !== null ? <span>{t("stats.processLimit", { count: limitOf(usage.limits, "processes")! })}</span> : null}
      </p>
    </div>
  );
}

function ServerStatsView({ serverId }: ServerStatsProps) {
  return <StatsPanel connect={() => liveStatsSource(serverId)} />;
}

export default defineIsland<ServerStatsProps>({
  name: "ServerStats",
  component: ServerStatsView,
  messages: ["stats.", "vitals.players"],
  hydrate: "load",
});
