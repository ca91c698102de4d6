// Writes the Prometheus exposition text by hand: OpenMetrics 1.0 (what Prometheus asks for, and
// the default), or the classic text format 0.0.4 for a client that asks for text/plain only
// (`promtool check metrics`, older scrapers). The two differ in three places: a counter's family
// name (OpenMetrics drops `_total`, which only its samples carry), UNIT lines and the closing
// `# EOF`, which only OpenMetrics has. Label values are escaped here and only here, so a name
// with quotes, backslashes or newlines (a server's, or a node's word) cannot break a line.
export type Flavor = "openmetrics" | "text";
export type MetricType = "gauge" | "counter" | "histogram";
/** Units as OpenMetrics names them: a family with one ends in `_<unit>`. */
export type MetricUnit = "bytes" | "seconds" | "percent";

export const OPENMETRICS_CONTENT_TYPE = "application/openmetrics-text; version=1.0.0; charset=utf-8";
export const TEXT_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** What a metric or label name may be (Prometheus's data model). */
export const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;

export interface Family {
  /** The family's name; a counter's without `_total` (its sample adds it). */
  name: string;
  type: MetricType;
  help: string;
  unit?: MetricUnit;
}

/** OpenMetrics unless the client asks for text/plain and not for OpenMetrics. */
export function flavorFor(accept: string | undefined): Flavor {
  if (!accept) return "openmetrics";
  if (accept.includes("application/openmetrics-text")) return "openmetrics";
  return accept.includes("text/plain") ? "text" : "openmetrics";
}

/** A label value as both formats write it between quotes: \ " and newline escaped, lone surrogates made whole. */
export function escapeLabelValue(value: string): string {
  return value.toWellFormed().replace(/[\\"\n]/g, (c) => (c === "\n" ? "\\n" : `\\${c}`));
}

/** A sample value: Go's ParseFloat reads JavaScript's number text; the infinities are spelt Prometheus's way. */
export function formatValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Infinity) return "+Inf";
  if (value === -Infinity) return "-Inf";
  return String(value);
}

/** `{a="x",b="y"}` (empty for no labels); values escaped. */
export function labelText(labels: readonly (readonly [string, string])[]): string {
  if (labels.length === 0) return "";
  return `{${labels.map(([name, value]) => `${name}="${escapeLabelValue(value)}"`).join(",")}}`;
}

export class Exposition {
  private readonly lines: string[] = [];

  constructor(readonly flavor: Flavor) {}

  /** HELP, TYPE (and UNIT) lines; every sample of the family must follow before the next family. */
  family({ name, type, help, unit }: Family): void {
    const shown = type === "counter" && this.flavor === "text" ? `${name}_total` : name;
    // HELP text escapes \ and newline in both formats (and " in OpenMetrics); ours are fixed sentences.
    const escaped = help.replace(/[\\\n]/g, (c) => (c === "\n" ? "\\n" : "\\\\")).replace(/"/g, this.flavor === "openmetrics" ? '\\"' : '"');
    this.lines.push(`# HELP ${shown} ${escaped}`, `# TYPE ${shown} ${type}`);
    if (unit && this.flavor === "openmetrics") this.lines.push(`# UNIT ${name} ${unit}`);
  }

  /** One sample; `labels` is already labelText (so a label set shared by many families is escaped once). */
  sample(name: string, labels: string, value: number): void {
    this.lines.push(`${name}${labels} ${formatValue(value)}`);
  }

  text(): string {
    if (this.flavor === "openmetrics") this.lines.push("# EOF");
    return `${this.lines.join("\n")}\n`;
  }
}
