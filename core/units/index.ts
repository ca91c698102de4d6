// Unit formatting shared by panel and islands: bytes in decimal
// (B, KB, MB, GB, TB; steps of 1000) or binary (B, KiB, MiB, GiB, TiB; steps of 1024) units, the
// memory chart's MB/MiB values, and CPU percentages rounded to 2 decimals. Pure, no I/O.

export const DECIMAL_UNITS = ["B", "KB", "MB", "GB", "TB"] as const;
export const BINARY_UNITS = ["B", "KiB", "MiB", "GiB", "TiB"] as const;

/** "decimal" counts in 1000s (KB, MB, ...), "binary" in 1024s (KiB, MiB, ...). */
export type UnitFamily = "decimal" | "binary";
export type ByteUnit = (typeof DECIMAL_UNITS)[number] | (typeof BINARY_UNITS)[number];

/** The two units the memory chart can show; MB is decimal, MiB binary. */
export const CHART_MEMORY_UNITS = ["MB", "MiB"] as const;
export type ChartMemoryUnit = (typeof CHART_MEMORY_UNITS)[number];

export function isChartMemoryUnit(value: unknown): value is ChartMemoryUnit {
  return value === "MB" || value === "MiB";
}

const BASE: Record<UnitFamily, number> = { decimal: 1000, binary: 1024 };

export function unitsOf(family: UnitFamily): readonly ByteUnit[] {
  return family === "decimal" ? DECIMAL_UNITS : BINARY_UNITS;
}

export function familyOf(unit: ChartMemoryUnit): UnitFamily {
  return unit === "MB" ? "decimal" : "binary";
}

/** Rounds half away from zero to `decimals` places; never returns -0 or a float artefact. */
export function roundTo(value: number, decimals = 2): number {
  if (!Number.isFinite(value)) return 0;
  const factor = 10 ** decimals;
  // Number.EPSILON nudges values like 1.005, stored as 1.00499…, to the side a person expects.
  const rounded = (Math.sign(value) * Math.round(Math.abs(value) * factor * (1 + Number.EPSILON))) / factor;
  return rounded === 0 ? 0 : rounded;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/**
 * A number with at most `decimals` places and no trailing zeros: 12.5, 3, 0.25; in a locale's
 * digits and separators when one is given  ("12,5" in German, "١٢٫٥" in Arabic), without grouping: scaled sizes and percentages stay short.
 */
export function formatNumber(value: number, decimals = 2, locale?: string): string {
  const rounded = roundTo(value, decimals);
  if (!locale) return String(rounded);
  const id = `${locale}/${decimals}`;
  let format = numberFormats.get(id);
  if (!format) numberFormats.set(id, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: decimals, useGrouping: false })));
  return format.format(rounded);
}

/** Splits bytes into a value and the largest unit of the family that keeps the value at least 1. */
export function scaleBytes(bytes: number, family: UnitFamily): { value: number; unit: ByteUnit } {
  const units = unitsOf(family);
  const base = BASE[family];
  let value = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
  let index = 0;
  while (value >= base && index < units.length - 1) {
    value /= base;
    index++;
  }
  return { value, unit: units[index]! };
}

/** Bytes for a person: "0 B", "512 B", "1.5 KB", "2.25 GiB" (at most `decimals` places). */
export function formatBytes(bytes: number, family: UnitFamily, decimals = 2, locale?: string): string {
  const { value, unit } = scaleBytes(bytes, family);
  return `${formatNumber(value, decimals, locale)} ${unit}`;
}

/** Bytes as the memory chart plots them: megabytes (10^6) or mebibytes (2^20), unrounded. */
export function bytesToChartUnit(bytes: number, unit: ChartMemoryUnit): number {
  if (!Number.isFinite(bytes) || bytes <= 0) return 0;
  return bytes / (unit === "MB" ? 1000 ** 2 : 1024 ** 2);
}

/** A CPU percentage as the chart shows it: rounded to 2 decimals, never negative. Above 100 is
 * kept: a process using several cores reports more than 100 %. */
export function roundCpu(percent: number): number {
  return Number.isFinite(percent) && percent > 0 ? roundTo(percent, 2) : 0;
}
