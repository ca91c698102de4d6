// What a server's backups are set to: its ignore patterns (users with `backups` set
// them, like a .gitignore), and its policy, set by an administrator: which of the node's targets
// holds them, the retention applied after each backup, the most backups it may keep, and the
// console commands sent before and after a backup of a running server. Checked the same way on
// the panel and the node.
import { z } from "../zod";
import { KilnError } from "../errors";

export const MAX_IGNORE_PATTERNS = 100;
export const MAX_PATTERN_LENGTH = 256;
/**
 * The most `**` one ignore pattern may hold. restic matches each `**` against every number of
 * folders, trying each in turn: a pattern of k of them costs about depth^k per path, so 30 of
 * them held the backup for good on the first deep folder. Two cover every pattern a .gitignore
 * needs (`**` then a name, `a/**` then a name).
 */
export const MAX_GLOBSTARS = 2;
export const MAX_BACKUP_COMMANDS = 10;
export const MAX_COMMAND_LENGTH = 256;
/** A retention count past this is a typing mistake, not a policy. */
export const MAX_KEEP = 10_000;

export const RETENTION_KEYS = ["last", "hourly", "daily", "weekly", "monthly"] as const;
export type RetentionKey = (typeof RETENTION_KEYS)[number];
/** How many of each to keep; a key left out (or 0) keeps none by that rule. All out: keep everything. */
export type Retention = Partial<Record<RetentionKey, number>>;

export interface BackupPolicy {
  /** The node's target holding this server's backups ("local" unless an administrator chose another). */
  target: string;
  retention: Retention;
  /** The most backups the server keeps; the oldest unlocked one makes room for a new one. 0: no maximum. */
  maxBackups: number;
  /** Console lines sent before a backup of a running server (e.g. save-off, save-all) and after it (save-on). */
  before: string[];
  after: string[];
}

/**
 * The most backups a server keeps unless an administrator set another number (0 lifts it): a
 * server's users make backups, and each stays in the node's repository until deleted, so without
 * a maximum one user's loop filled the node's disk. Pterodactyl's is set per server; 20 covers
 * daily backups for a few weeks beside the ones made by hand. At the maximum the oldest unlocked
 * backup makes room; with every one locked, a new one is refused (ErrBackupLimit).
 */
export const DEFAULT_MAX_BACKUPS = 20;

export const DEFAULT_POLICY: BackupPolicy = { target: "local", retention: {}, maxBackups: DEFAULT_MAX_BACKUPS, before: [], after: [] };

/** Target ids: "local" or one an administrator named; safe as a file name. */
export const TARGET_ID = /^[a-z][a-z0-9-]{0,31}$/;

const count = z.coerce.number().check(z.int(), z.gte(0), z.lte(MAX_KEEP));
const line = (field: string) =>
  z.string().check(
    z.maxLength(MAX_COMMAND_LENGTH),
    z.refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { params: { code: "ErrFieldHasControlCharacters", field } }),
  );
/** At most MAX_BACKUP_COMMANDS console lines, none when left out. */
const lines = (field: string) => z._default(z.array(line(field)).check(z.maxLength(MAX_BACKUP_COMMANDS)), []);

export const policySchema = z.strictObject({
  target: z._default(z.string().check(z.regex(TARGET_ID)), "local"),
  retention: z._default(z.strictObject(Object.fromEntries(RETENTION_KEYS.map((k) => [k, z.optional(count)])) as Record<RetentionKey, z.ZodMiniOptional<typeof count>>), {}),
  maxBackups: z._default(count, DEFAULT_MAX_BACKUPS),
  before: lines("before"),
  after: lines("after"),
});

/** A policy from a request body: ErrFieldHasControlCharacters or ErrInvalidJson naming the field. */
export function parsePolicy(raw: unknown): BackupPolicy {
  const parsed = policySchema.safeParse(raw);
  if (!parsed.success) throw fieldError(parsed.error.issues[0]!);
  const policy = parsed.data;
  // Zeros are "no rule": left out, so restic is never told to keep 0 of something.
  const retention = Object.fromEntries(Object.entries(policy.retention).filter(([, n]) => n)) as Retention;
  return { ...policy, retention, before: policy.before.filter((c) => c.trim()), after: policy.after.filter((c) => c.trim()) };
}

function fieldError(issue: z.core.$ZodIssue): KilnError {
  const field = issue.path.join(".");
  const params = (issue as { params?: { code?: string } }).params;
  if (params?.code === "ErrFieldHasControlCharacters") return new KilnError("ErrFieldHasControlCharacters", { field });
  return new KilnError("ErrInvalidJson", { field }, `invalid backup policy: ${field}: ${issue.message}`);
}

/** How many runs of `**` a pattern holds (in a folder's name too: `a**`). */
export function globstars(pattern: string): number {
  return pattern.match(/\*\*+/g)?.length ?? 0;
}

/** A pattern with each run of `**` segments one after another kept as one `**`: it matches the same paths. */
export function collapseGlobstars(pattern: string): string {
  return pattern
    .split("/")
    .filter((part, i, all) => !(part === "**" && all[i - 1] === "**"))
    .join("/");
}

/**
 * Ignore patterns as one text (a line each, as in .gitignore): blank lines and `#` comments are
 * dropped. A pattern must be printable, and may not hold `$`: restic expands environment
 * variables in exclude files, so `$…` would read the node's environment into a pattern. A
 * pattern with more than MAX_GLOBSTARS `**` is refused (a list of them, even one after another,
 * is a mistake or an attack, and saying so beats storing something else); runs of `**` segments
 * in the rest are stored as one.
 */
export function parseIgnore(text: string): string[] {
  const patterns = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith("#"));
  if (patterns.length > MAX_IGNORE_PATTERNS) throw new KilnError("ErrFieldTooLarge", { field: "ignore", max: MAX_IGNORE_PATTERNS });
  for (const pattern of patterns) {
    if (pattern.length > MAX_PATTERN_LENGTH) throw new KilnError("ErrFieldTooLarge", { field: "ignore", max: MAX_PATTERN_LENGTH });
    if (/[\u0000-\u001f\u007f]/.test(pattern)) throw new KilnError("ErrFieldHasControlCharacters", { field: "ignore" });
    if (pattern.includes("$")) throw new KilnError("ErrFieldMustBePrintable", { field: "ignore" }, "a pattern may not hold $");
    if (globstars(pattern) > MAX_GLOBSTARS) throw new KilnError("ErrFieldTooLarge", { field: "ignore", max: MAX_GLOBSTARS }, `a pattern may hold at most ${MAX_GLOBSTARS} **`);
  }
  return patterns.map(collapseGlobstars);
}
