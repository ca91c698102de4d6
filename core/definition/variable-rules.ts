// A variable's checks beside its type (issue 18; an egg's Laravel rules read into Kiln's terms by
// ./egg-rules, and open to Kiln's own templates): `min`/`max` bound the value as a number,
// `minLength`/`maxLength` its length in characters, `pattern` is a regular expression the text
// must match (as Laravel's regex rule: anchored only where it says ^ and $). Zod-free, for the panel, the node and the template editor alike.
//
// A pattern is written by whoever may edit templates, the value by any user, and JavaScript's
// regular expressions backtrack: a pattern such as `(a+)+$` takes exponential time on a crafted
// value. So a pattern is accepted only when it cannot backtrack badly (patternProblem below: no
// quantified group holding a quantifier or an alternation, no back-references, no look-behind,
// few unbounded quantifiers) and values are at most MAX_LINE_VALUE long; the schema refuses any
// other pattern when the template is saved, and the egg importer leaves it out with a note.
import { KilnError } from "../errors";

export interface VariableRules {
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** Longest pattern accepted: far above any egg's. */
export const MAX_PATTERN_LENGTH = 512;
/** Unbounded quantifiers a pattern may hold: two adjacent ones already cost n² steps on n characters. */
const MAX_UNBOUNDED = 4;

/** A number as the rules read it: a JSON number, or text that is one ("12", "-1.5", "1e3"). */
function numberOf(value: string | number | boolean): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return NaN;
  return Number(value);
}

/**
 * Why `pattern` is refused (a short English reason for the schema's message), or null when it is
 * a regular expression that runs in bounded time. The test is structural: it looks at the pattern
 * as written, group by group, not at sample inputs.
 */
export function patternProblem(pattern: string): string | null {
  if (pattern.length > MAX_PATTERN_LENGTH) return `longer than ${MAX_PATTERN_LENGTH} characters`;
  try {
    new RegExp(pattern, "u");
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: /, "");
  }
  // Group stack: per open group, whether it holds a quantifier or an alternation so far.
  const groups: Array<{ quantified: boolean; alternation: boolean }> = [{ quantified: false, alternation: false }];
  let unbounded = 0;
  let lastClosed: { quantified: boolean; alternation: boolean } | null = null;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    const top = groups[groups.length - 1]!;
    if (ch === "\\") {
      const next = pattern[i + 1] ?? "";
      if (/[1-9k]/.test(next)) return "back-references are not allowed";
      i++;
      lastClosed = null;
      continue;
    }
    if (ch === "[") {
      // A character class is one atom: skip to its closing bracket.
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
      lastClosed = null;
      continue;
    }
    if (ch === "(") {
      if (pattern.startsWith("(?<=", i) || pattern.startsWith("(?<!", i)) return "look-behind is not allowed";
      groups.push({ quantified: false, alternation: false });
      lastClosed = null;
      continue;
    }
    if (ch === ")") {
      lastClosed = groups.pop() ?? null;
      const parent = groups[groups.length - 1]!;
      if (lastClosed) parent.quantified ||= lastClosed.quantified;
      continue;
    }
    if (ch === "|") {
      top.alternation = true;
      lastClosed = null;
      continue;
    }
    const quantifier = ch === "*" || ch === "+" || ch === "?" ? ch : ch === "{" ? /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i))?.[0] : undefined;
    if (quantifier === undefined) {
      lastClosed = null;
      continue;
    }
    const open = quantifier === "*" || quantifier === "+" || /^\{\d+,\}$/.test(quantifier);
    // At most once: `?`, {0}, {1}, {0,1}. Anything more repeats what precedes it.
    const repeats = quantifier !== "?" && !/^\{[01](,[01])?\}$/.test(quantifier);
    if (open) unbounded++;
    // A repeated group that itself repeats or chooses: the classic catastrophic shapes ((a+)+,
    // (a|a)*, and (.*a){20}, whose fixed count still multiplies the ways to match).
    if (lastClosed && repeats && (lastClosed.quantified || lastClosed.alternation)) {
      return "a repeated group holds a quantifier or an alternation";
    }
    top.quantified = true;
    if (quantifier.startsWith("{")) i += quantifier.length - 1;
    // A lazy or possessive mark after the quantifier is part of it.
    if (pattern[i + 1] === "?") i++;
    lastClosed = null;
  }
  if (unbounded > MAX_UNBOUNDED) return `more than ${MAX_UNBOUNDED} unbounded quantifiers`;
  return null;
}

/** Why `rules` cannot be used (for the schema), or null. */
export function rulesProblem(rules: VariableRules): string | null {
  if (rules.min !== undefined && rules.max !== undefined && rules.min > rules.max) return "min is larger than max";
  if (rules.minLength !== undefined && rules.maxLength !== undefined && rules.minLength > rules.maxLength) return "minLength is larger than maxLength";
  return rules.pattern === undefined ? null : patternProblem(rules.pattern);
}

/**
 * Throws the catalogue error for the first rule `value` breaks: ErrFieldTooSmall / ErrFieldTooLarge
 * (min, max, and maxLength), ErrFieldLength (minLength), ErrFieldPatternMismatch (pattern, or not
 * a number where min or max asks for one). An empty value is left to `required`.
 */
export function checkVariableRules(name: string, rules: VariableRules | undefined, value: string | number | boolean): void {
  if (!rules || value === "" || typeof value === "boolean") return;
  const text = String(value);
  if (rules.min !== undefined || rules.max !== undefined) {
    const n = numberOf(value);
    if (!Number.isFinite(n)) throw new KilnError("ErrFieldPatternMismatch", { field: name, pattern: "a number" });
    if (rules.min !== undefined && n < rules.min) throw new KilnError("ErrFieldTooSmall", { field: name, min: rules.min });
    if (rules.max !== undefined && n > rules.max) throw new KilnError("ErrFieldTooLarge", { field: name, max: rules.max });
  }
  const length = [...text].length;
  if (rules.minLength !== undefined && length < rules.minLength) throw new KilnError("ErrFieldLength", { field: name, length: rules.minLength });
  if (rules.maxLength !== undefined && length > rules.maxLength) throw new KilnError("ErrFieldTooLarge", { field: name, max: rules.maxLength });
  // A pattern the schema would refuse is never run (a stored definition is checked again on the node).
  if (rules.pattern !== undefined && (patternProblem(rules.pattern) !== null || !new RegExp(rules.pattern, "u").test(text))) {
    throw new KilnError("ErrFieldPatternMismatch", { field: name, pattern: rules.pattern });
  }
}
