// "3 minutes ago" in the reader's language (Intl.RelativeTimeFormat), with the exact time on hover:
// how long ago a node last answered, which says more at a glance than a date.
import { usePage } from "../context";

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 365],
  ["year", Infinity],
];

export function relativeTime(at: number, now: number, locale: string): string {
  let value = Math.round((at - now) / 1000);
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(value, unit);
    value = Math.round(value / size);
  }
  return "";
}

export function RelativeTime({ at, now = Date.now() }: { at: number; now?: number }) {
  const { locale } = usePage();
  const tag = locale.replace("_", "-");
  const exact = new Date(at).toLocaleString(tag, { dateStyle: "medium", timeStyle: "medium" });
  return <time dateTime={new Date(at).toISOString()} title={exact}>{relativeTime(at, now, tag)}</time>;
}
