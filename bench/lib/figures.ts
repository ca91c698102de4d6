// Small helpers the benchmarks use to summarise and print what they measured.
import { cpus } from "node:os";

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0..100) of the values; NaN when there are none. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export const max = (values: number[]) => (values.length ? Math.max(...values) : NaN);

export const MB = 1024 * 1024;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
export const ms = (value: number) => `${value.toFixed(1)} ms`;
export const pct = (value: number) => `${value.toFixed(0)} %`;

/** Prints a Markdown table. */
export function table(header: string[], rows: (string | number)[][]): void {
  console.log(`| ${header.join(" | ")} |`);
  console.log(`|${header.map(() => "---").join("|")}|`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

/** The columns of a memory table after its first (what state the process was in). */
export const RSS_COLUMNS = ["RSS", "anonymous", "file-backed"];

/** A row of a memory table: the state, then its reading in RSS_COLUMNS' order. */
export const rssRow = (state: string, reading: { rss: number; anon: number; file: number }) => [state, mb(reading.rss), mb(reading.anon), mb(reading.file)];

/** One line on where the figures come from, so a reader can compare runs across machines. */
export function machine(): string {
  const cpu = cpus();
  return `machine: ${cpu.length} × ${cpu[0]?.model.trim() ?? "unknown CPU"}, bun ${Bun.version}, ${process.platform}/${process.arch}`;
}

/** "met", "met (aim … missed)" or "EXCEEDED" for a figure against a budget and an aim (lower is better). */
export function verdict(value: number, budget: number, aim: number): string {
  if (!(value <= budget)) return "EXCEEDED";
  return value <= aim ? "met (within aim)" : "met (aim missed)";
}
