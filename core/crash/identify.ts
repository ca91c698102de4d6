// Names the cause of a crash from the lines the node gathered (daemon/servers/crash-evidence):
// each row of the table (./causes) in order, each of its patterns in order (the specific ones,
// which carry the detail, first), each source in the order given, the LAST line of a source that
// matches (the failure is near the end; an earlier warning of the same kind is not it). What matched is pointed at by source and line; an unrecognised crash names what was read.
import { RE2JS } from "re2js";
import type { CrashPhase } from "../activity/property-values";
import { CRASH_CAUSES, type CrashCauseId, type CrashCauseName, type CrashDetail } from "./causes";

/** Lines read from one place: the console ("console") or a file, named by its path in the server's folder. */
export interface CrashSource {
  name: string;
  lines: readonly string[];
  /** The whole file was read, so line numbers count from its top; else from the end of what was read. */
  whole: boolean;
}

/** Where a line is: its number from the top of a file read whole, else counted back from the end (1: the last line). */
export interface CrashPlace {
  source: string;
  line?: number;
  fromEnd?: number;
}

/** What a crash was, kept in the server's state until its next start. */
export interface CrashState {
  cause: CrashCauseName;
  detail?: CrashDetail;
  /** Epoch milliseconds of the exit. */
  at: number;
  /** The server's process ("run") or its install steps ("install"). */
  phase: CrashPhase;
  /** The line that named the cause. */
  where?: CrashPlace;
  /** Unrecognised: every source read, and how many lines of it. */
  looked?: { source: string; lines: number }[];
  /** The crash ended the first run after a change to the server's mods or plugins, which can be undone. */
  afterChange?: { changeId: string; note: string };
}

/** A line longer than this is looked at up to here: a failure's words are near its start. */
export const MAX_LINE = 2000;

interface Compiled {
  id: CrashCauseId;
  tests: ((line: string) => Record<string, string> | null)[];
  detail?: (captures: Record<string, string>) => CrashDetail;
}

function compileTest(pattern: RegExp | string): (line: string) => Record<string, string> | null {
  if (typeof pattern === "string") return (line) => (line.includes(pattern) ? {} : null);
  const re = RE2JS.compile(pattern.source);
  const names = Object.keys(re.namedGroups());
  return (line) => {
    const m = re.matcher(line);
    if (!m.find()) return null;
    const captures: Record<string, string> = {};
    for (const name of names) {
      const value = m.group(name);
      if (value) captures[name] = value;
    }
    return captures;
  };
}

let compiled: Compiled[] | null = null;
function table(): Compiled[] {
  compiled ??= CRASH_CAUSES.map((row) => ({ id: row.id, tests: row.patterns.map(compileTest), detail: row.detail }));
  return compiled;
}

export interface Identified {
  cause: CrashCauseName;
  detail?: CrashDetail;
  where?: CrashPlace;
  /** The matched line, or (unrecognised) the last lines of the first source with any. */
  excerpt: string[];
  /** The source the excerpt is from. */
  excerptFrom?: string;
}

/** The cause the sources show, or "unrecognised" with the last lines read. */
export function identify(sources: readonly CrashSource[]): Identified {
  const cut = sources.map((source) => ({ ...source, lines: source.lines.map((line) => (line.length > MAX_LINE ? line.slice(0, MAX_LINE) : line)) }));
  for (const row of table()) {
    for (const test of row.tests) {
      for (const source of cut) {
        for (let i = source.lines.length - 1; i >= 0; i--) {
          const line = source.lines[i]!;
          const captures = test(line);
          if (!captures) continue;
          const detail = row.detail ? row.detail(captures) : captures;
          const where: CrashPlace = source.whole ? { source: source.name, line: i + 1 } : { source: source.name, fromEnd: source.lines.length - i };
          return { cause: row.id, ...(Object.keys(detail).length > 0 ? { detail } : {}), where, excerpt: [line.trim()], excerptFrom: source.name };
        }
      }
    }
  }
  const last = cut.find((source) => source.lines.some((line) => line.trim() !== ""));
  if (!last) return { cause: "unrecognised", excerpt: [] };
  const excerpt = last.lines.filter((line) => line.trim() !== "").slice(-EXCERPT_LINES).map((line) => line.trim().slice(0, EXCERPT_LINE));
  return { cause: "unrecognised", excerpt, excerptFrom: last.name };
}

/** An unrecognised crash shows this many of the last lines read. */
export const EXCERPT_LINES = 5;
/** …each up to this long. */
export const EXCERPT_LINE = 300;
