// The activity log as CSV (RFC 4180): one line per event. A cell that a spreadsheet would run as a
// formula (starting with = + - @, a tab or a carriage return) is prefixed with an apostrophe: a
// user's file name or console command must not become a formula in an administrator's sheet.
import type { ActivityView } from "./list";

const COLUMNS = ["id", "at", "event", "actorType", "actorId", "actorName", "serverId", "subject", "ip", "properties"] as const;

export function activityCsvHeader(): string {
  return `${COLUMNS.join(",")}\r\n`;
}

export function activityCsvRow(row: ActivityView): string {
  const cells = [row.id, row.at, row.event, row.actor.type, row.actor.id ?? "", row.actor.name ?? "", row.serverId ?? "", row.subject ?? "", row.ip ?? "", JSON.stringify(row.properties)];
  return `${cells.map((cell) => csvCell(String(cell))).join(",")}\r\n`;
}

function csvCell(text: string): string {
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}
