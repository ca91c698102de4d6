// How a folder listing is shown: folders first then by name (numbers in names counted as
// numbers), times in the reader's locale (Intl), permission bits. The page address of a folder
// is core/files/page-urls (the panel's routes redirect there too).
import type { FileEntry } from "../../core/files";

// A fixed locale: the server and the browser must sort alike, or hydration would not match.
const collator = new Intl.Collator("en", { numeric: true, sensitivity: "base" });

export function sortEntries(files: readonly FileEntry[]): FileEntry[] {
  return [...files].sort((a, b) => (a.isFile === b.isFile ? collator.compare(a.name, b.name) || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0) : a.isFile ? 1 : -1));
}

const timeFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * A modification time in the reader's locale ("Nov 14, 2023, 10:13 PM", "2023年11月14日 22:13").
 * The server renders UTC (it cannot know the browser's zone) and says so; the browser, once
 * hydrated, shows local time.
 */
export function formatTime(epochSeconds: number, utc: boolean, locale = "en"): string {
  if (!Number.isFinite(epochSeconds) || epochSeconds <= 0) return "";
  const id = `${locale}/${utc}`;
  let format = timeFormats.get(id);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZone: utc ? "UTC" : undefined });
    timeFormats.set(id, format);
  }
  return `${format.format(new Date(epochSeconds * 1000))}${utc ? " UTC" : ""}`;
}

/** Permission bits as "755", or as "rwxr-xr-x" (`symbolic`), setuid, setgid and sticky shown as ls does. */
export function formatMode(mode: number, symbolic: boolean): string {
  if (!symbolic) return (mode & 0o7777).toString(8).padStart(3, "0");
  let text = "";
  for (let shift = 6; shift >= 0; shift -= 3) {
    const bits = (mode >> shift) & 7;
    text += (bits & 4 ? "r" : "-") + (bits & 2 ? "w" : "-") + (bits & 1 ? "x" : "-");
  }
  const special = (index: number, bit: number, on: string, off: string) => {
    if (mode & bit) text = text.slice(0, index) + (text[index] === "x" ? on : off) + text.slice(index + 1);
  };
  special(2, 0o4000, "s", "S");
  special(5, 0o2000, "s", "S");
  special(8, 0o1000, "t", "T");
  return text;
}
