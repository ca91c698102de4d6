// A small hand-written SVG line chart for the stats tab.
// We chose a hand-written chart over chart.js (and similar libraries) to keep the page light: the
// whole chart is a few kilobytes, renders on the server so the tab is readable before script, and
// needs no canvas. Lines live in an SVG stretched to the plot (viewBox + width 100 %, strokes that
// do not scale); tick labels are HTML so text never stretches with the width.
import { useState, type PointerEvent, type ReactNode } from "react";
import { formatNumber, roundTo, type ChartMemoryUnit } from "../../core/units";

/** 40 points, seeded 3 s apart, 250 px high, y from 0. */
export const CHART_POINTS = 40;
export const CHART_SEED_SPACING_MS = 3000;
export const CHART_HEIGHT = 250;
/** The memory axis tops out here until the data needs more. */
export const MEMORY_Y_MAX: Record<ChartMemoryUnit, number> = { MB: 1000, MiB: 1025 };
/** The CPU axis never tops out below 100 %; several busy cores push it higher. */
export const CPU_Y_MAX = 100;

const X_LABELS = 5;
/** Keeps a value and its unit on one line. */
const NBSP = "\u00a0";

/** `count` timestamps `spacing` ms apart, the last one at `end`. */
export function seedTimes(end: number, count = CHART_POINTS, spacing = CHART_SEED_SPACING_MS): number[] {
  return Array.from({ length: count }, (_, i) => end - (count - 1 - i) * spacing);
}

/** The smallest "round" step (1, 2, 2.5 or 5 times a power of ten) at least `raw`. */
export function niceStep(raw: number): number {
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= raw * (1 - 1e-12)) return roundTo(m * power, 12);
  return 10 * power;
}

/** The top of the y axis: `floor` while the data fits under it, else the data's maximum rounded
 * up to a step of about a fifth of it (1001 MB → 1250, 150.5 % → 200). */
export function axisMax(points: readonly number[], floor: number): number {
  let top = 0;
  for (const p of points) if (Number.isFinite(p) && p > top) top = p;
  if (top <= floor) return floor;
  const step = niceStep(top / 5);
  return roundTo(Math.ceil(top / step - 1e-9) * step, 10);
}

/** Grid lines: 0 and round steps up to `max` (1025 gets 0…1000 by 250; the top is the edge). */
export function axisTicks(max: number): number[] {
  const step = niceStep(max / 5);
  const ticks: number[] = [];
  for (let i = 0; i * step <= max * (1 + 1e-9); i++) ticks.push(roundTo(i * step, 10));
  return ticks;
}

/** Which points get a time label: the latest and then every (count / 5)th going back. */
export function xLabelIndices(count: number): number[] {
  const step = Math.max(1, Math.ceil(count / X_LABELS));
  const out: number[] = [];
  for (let i = count - 1; i >= 0; i -= step) out.unshift(i);
  return out;
}

/**
 * The clock time, HH:MM:SS on a 24-hour clock in the browser's local time: the axis says when,
 * not only how long ago (minutes and seconds alone repeat every hour). Compact enough for five
 * labels under a phone-wide chart.
 */
export function timeLabel(ms: number): string {
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/**
 * With a limit, the axis is sized to it (a tenth above, rounded up to a round step) instead of
 * the chart's usual floor: a 48 MiB limit gets an axis to 60, not to 1 GB where both the line
 * and the limit would lie flat at the bottom. Data above the limit still grows the axis.
 */
export function limitAxisFloor(limit: number): number {
  const step = niceStep((limit * 1.1) / 5);
  return roundTo(Math.ceil((limit * 1.1) / step - 1e-9) * step, 10);
}

export function valueText(value: number, unit: string): string {
  return `${formatNumber(value)}${NBSP}${unit}`;
}

export interface LineChartProps {
  title: string;
  /** The values to plot, oldest first. */
  points: readonly number[];
  /** When each point was taken (ms since the epoch), same length as `points`. */
  times: readonly number[];
  /** The axis top while the data stays under it; the axis grows to fit larger values. */
  yMax: number;
  /** Unit suffix for ticks' tooltip and the latest value: "%", "MB", "MiB". */
  unit: string;
  /** Plot height in px, x labels included. */
  height?: number;
  /** The accessible name given the latest value's text; default "title: value". */
  describe?: (latest: string) => string;
  /** Shown in the header instead of the latest point's value (for example scaled bytes). */
  latestText?: string;
  /** Controls placed in the header, outside the image role (a unit toggle). */
  actions?: ReactNode;
  /** Colour: the theme's primary colour or its info colour. */
  tone?: "primary" | "info";
  /** A limit drawn across the plot (the memory limit), in the points' unit, with its label. */
  limit?: { value: number; label: string };
}

const pct = (n: number) => `${roundTo(n, 3)}%`;

export function LineChart({ title, points, times, yMax, unit, height = CHART_HEIGHT, describe, latestText, actions, tone = "primary", limit }: LineChartProps) {
  const [hover, setHover] = useState<number | null>(null);
  const n = points.length;
  // The axis is sized to the limit, so the line that marks it is always on the plot and the data
  // is drawn at a scale it can reach.
  const max = axisMax(limit ? [...points, limit.value] : points, limit && limit.value > 0 ? limitAxisFloor(limit.value) : yMax);
  const ticks = axisTicks(max);
  const x = (i: number) => (n > 1 ? (i / (n - 1)) * 100 : 100);
  const y = (v: number) => 100 - (Math.min(Math.max(Number.isFinite(v) ? v : 0, 0), max) / max) * 100;
  const coords = points.map((v, i) => `${roundTo(x(i), 3)},${roundTo(y(v), 3)}`).join(" ");
  const latest = n > 0 ? points[n - 1]! : 0;
  const latestShown = latestText ?? valueText(latest, unit);
  const focus = hover !== null && hover < n ? hover : n - 1;

  function track(event: PointerEvent<HTMLDivElement>) {
    const rect = event.currentTarget.getBoundingClientRect();
    if (n === 0 || rect.width <= 0) return;
    const f = (event.clientX - rect.left) / rect.width;
    setHover(Math.min(n - 1, Math.max(0, Math.round(f * (n - 1)))));
  }

  return (
    <figure className={`stats-chart stats-chart-${tone}`}>
      <figcaption className="stats-chart-head">
        <span className="stats-chart-title">{title}</span>
        <span className="stats-chart-latest">{latestShown}</span>
        {actions}
      </figcaption>
      <div className="stats-chart-body" role="img" aria-label={describe ? describe(latestShown) : `${title}: ${latestShown}`} style={{ height }}>
        <div className="stats-chart-y" aria-hidden="true">
          {/* In flow but invisible: gives the column the width of its widest label. */}
          <span className="stats-chart-y-size">{formatNumber(max)}</span>
          {ticks.map((tick) => (
            <span key={tick} style={{ top: pct(y(tick)) }}>
              {formatNumber(tick)}
            </span>
          ))}
        </div>
        <div className="stats-chart-plot" data-points={n} data-max={max} onPointerMove={track} onPointerLeave={() => setHover(null)}>
          <svg viewBox="0 0 100 100" preserveAspectRatio="none" width="100%" height="100%" focusable="false" aria-hidden="true">
            {ticks.map((tick) => (
              <line key={tick} className="stats-chart-grid" x1="0" x2="100" y1={roundTo(y(tick), 3)} y2={roundTo(y(tick), 3)} vectorEffect="non-scaling-stroke" />
            ))}
            {n > 1 ? <polygon className="stats-chart-area" points={`0,100 ${coords} 100,100`} /> : null}
            <polyline className="stats-chart-line" points={coords} vectorEffect="non-scaling-stroke" />
            {limit ? <line className="stats-chart-limit" x1="0" x2="100" y1={roundTo(y(limit.value), 3)} y2={roundTo(y(limit.value), 3)} vectorEffect="non-scaling-stroke" /> : null}
            {hover !== null ? <line className="stats-chart-cursor" x1={roundTo(x(focus), 3)} x2={roundTo(x(focus), 3)} y1="0" y2="100" vectorEffect="non-scaling-stroke" /> : null}
          </svg>
          {limit ? (
            <span className="stats-chart-limit-label" style={{ top: pct(y(limit.value)) }}>
              {limit.label}
            </span>
          ) : null}
          {n > 0 ? <span className="stats-chart-dot" style={{ left: pct(x(focus)), top: pct(y(points[focus]!)) }} /> : null}
          {hover !== null && n > 0 ? (
            <span className={x(focus) > 60 ? "stats-chart-tip stats-chart-tip-left" : "stats-chart-tip"} style={{ left: pct(x(focus)), top: pct(y(points[focus]!)) }}>
              <strong>{valueText(points[focus]!, unit)}</strong> <span>{timeLabel(times[focus] ?? 0)}</span>
            </span>
          ) : null}
        </div>
        <div className="stats-chart-x" aria-hidden="true">
          {xLabelIndices(n).map((i) => (
            <span key={i} className={i === n - 1 ? "stats-chart-x-end" : undefined} style={{ left: pct(x(i)) }} suppressHydrationWarning>
              {timeLabel(times[i] ?? 0)}
            </span>
          ))}
        </div>
      </div>
    </figure>
  );
}
