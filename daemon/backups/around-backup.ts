// What goes into a backup besides the server's files: the console commands sent around it while
// the server runs, and the ignore patterns as restic reads them; and a path as a restic pattern.
import { MAX_BACKUP_COMMANDS, MAX_COMMAND_LENGTH, MAX_GLOBSTARS, collapseGlobstars, globstars, type BackupPolicy } from "../../core/backups";

/** How long a running server gets to act on the commands sent before its backup (a save). */
export const BEFORE_PAUSE_MS = 2000;

/**
 * The console commands around a backup of a running server: the administrator's (the policy),
 * else the template's own `backup: {before, after}` (a Minecraft template's save-off, save-all and
 * save-on), each kept only when it is a list of one-line commands.
 */
export function consoleCommands(policy: BackupPolicy, definition: unknown): { before: string[]; after: string[] } {
  if (policy.before.length > 0 || policy.after.length > 0) return { before: policy.before, after: policy.after };
  const own = (definition as { backup?: { before?: unknown; after?: unknown } } | null)?.backup;
  const lines = (value: unknown) =>
    Array.isArray(value) && value.length <= MAX_BACKUP_COMMANDS && value.every((c) => typeof c === "string" && c.length <= MAX_COMMAND_LENGTH && !/[\u0000-\u001f\u007f]/.test(c)) ? (value as string[]).filter((c) => c.trim()) : [];
  return { before: lines(own?.before), after: lines(own?.after) };
}

/**
 * Ignore patterns as restic's exclude lines. A pattern starting with "/" is anchored at the
 * server's folder (as in .gitignore), so it is written as the folder's absolute path plus it;
 * any other matches at every depth, as restic does. A pattern saved before `**` was bounded
 * (core/backups parseIgnore) is collapsed, and left out when it still holds too many: restic's
 * matching of it would never end, and leaving it out only backs up more.
 */
export function excludeLines(patterns: string[], root: string): string {
  const kept = patterns.map(collapseGlobstars).filter((p) => globstars(p) <= MAX_GLOBSTARS);
  return kept.map((p) => (p.startsWith("/") ? `${root}${p}` : p)).join("\n") + "\n";
}

/** A path as a restic pattern that matches only itself: glob characters escaped. */
export function globEscape(path: string): string {
  return path.replace(/[\\*?[\]]/g, "\\$&");
}
