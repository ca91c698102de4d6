// The one place a regular expression written by a user or a template is compiled and run: a
// variable's `rules.pattern`, a "regex:" ready marker, an alterfile search, a configfile "regex:"
// ifValue. JavaScript's own engine backtracks, so a pattern such as ^\w*\w*\w*\w*$ holds the event
// loop for hours on a 4 KB value; RE2's engine (re2js, a pure-JavaScript port, so it runs inside
// the single executable and needs no native addon) runs in time linear in the text: no pattern can
// make it backtrack. The price is RE2's syntax, which is Go's (what PufferPanel and Wings run these
// patterns with): no back-references and no look-around, which is what linear time costs.
//
// Linear is in the text times the compiled program: a short pattern with counted repeats
// (`(.*a){250}`) compiles to a thousand instructions, each of which may be stepped per character.
// So the program is bounded too (MAX_PROGRAM_SIZE); the eggs' largest, ^[0-9]{1,100}$, needs 203.
// bench/user-patterns.ts measures the worst shapes at the bound (figures in docs/security.md).
import { RE2JS } from "re2js";

/** Longest pattern accepted: far above any egg's or template's. */
export const MAX_PATTERN_LENGTH = 512;
/** Most instructions a compiled pattern may have (the cost of each character of text). */
export const MAX_PROGRAM_SIZE = 256;

/** A pattern that compiled, ready to run on any text in linear time. */
export interface UserPattern {
  readonly source: string;
  /** Whether the pattern matches anywhere in `text` (anchored only where it says ^ or $). */
  test(text: string): boolean;
  /** Every match replaced, the replacement read as String.prototype.replace reads it ($1, $&, $$). */
  replaceAll(text: string, replacement: string): string;
  /** The first match: the whole match and each group by number ("" for a group that took no part), named groups by name; null when none. */
  exec(text: string): PatternMatch | null;
}

export interface PatternMatch {
  groups: string[];
  named: Record<string, string>;
}

/** Why a pattern cannot be used; `reason` is short English for a schema message or a log line. */
export class PatternError extends Error {
  constructor(readonly source: string, readonly reason: string) {
    super(`cannot use the regular expression ${source}: ${reason}`);
  }
}

/** RE2's refusals said in the terms a template author knows, the rest as RE2 says them. */
function reasonOf(source: string, message: string): string {
  const said = message.replace(/^error parsing regexp: /, "");
  if (/\(\?<?[=!]/.test(source) && /Perl syntax|named capture/.test(said)) return "look-ahead and look-behind are not supported (RE2 syntax)";
  if (/invalid escape sequence: `\\[1-9k]/.test(said)) return "back-references are not supported (RE2 syntax)";
  return said;
}

function compileNow(source: string): UserPattern {
  if (source.length > MAX_PATTERN_LENGTH) throw new PatternError(source, `longer than ${MAX_PATTERN_LENGTH} characters`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(source);
  } catch (error) {
    throw new PatternError(source, reasonOf(source, (error as Error).message));
  }
  const size = (compiled.re2Input.prog as { numInst(): number }).numInst();
  if (size > MAX_PROGRAM_SIZE) throw new PatternError(source, `too large once compiled (${size} steps, at most ${MAX_PROGRAM_SIZE}): use fewer or smaller counted repeats`);
  return {
    source,
    test: (text) => compiled.test(text),
    replaceAll: (text, replacement) => compiled.matcher(text).replaceAll(replacement),
    exec: (text) => {
      const matcher = compiled.matcher(text);
      if (!matcher.find()) return null;
      const groups: string[] = [];
      for (let i = 0; i <= compiled.groupCount(); i++) groups.push(matcher.group(i) ?? "");
      const named: Record<string, string> = {};
      for (const [name, index] of Object.entries(compiled.namedGroups())) named[name] = groups[index] ?? "";
      return { groups, named };
    },
  };
}

// Compiled patterns are kept a while: a variable's pattern is checked on every save, a marker on
// every console line of a start. Bounded, oldest first out, as a pattern may come from anywhere.
const CACHE_SIZE = 64;
const cache = new Map<string, UserPattern | PatternError>();

/** `source` compiled, or a PatternError saying why it cannot be. */
export function compilePattern(source: string): UserPattern {
  let entry = cache.get(source);
  if (entry === undefined) {
    try {
      entry = compileNow(source);
    } catch (error) {
      if (!(error instanceof PatternError)) throw error;
      entry = error;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
    cache.set(source, entry);
  }
  if (entry instanceof PatternError) throw entry;
  return entry;
}

/** Why `source` cannot be used (short English), or null when it compiles. */
export function patternProblem(source: string): string | null {
  try {
    compilePattern(source);
    return null;
  } catch (error) {
    if (error instanceof PatternError) return error.reason;
    throw error;
  }
}
