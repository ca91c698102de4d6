// A variable's checks beside its type (an egg's Laravel rules read into Kiln's terms by
// ./egg-rules, and open to Kiln's own templates): `min`/`max` bound the value as a number,
// `minLength`/`maxLength` its length in characters, `pattern` is a regular expression the text
// must match (as Laravel's regex rule: anchored only where it says ^ and $).
//
// A pattern is written by whoever may edit templates, the value by any user: it runs on RE2's
// linear-time engine (core/patterns), so no pattern can make a value cost more than a pass over
// it; a pattern the engine refuses (look-around, back-references, too large) is refused by the
// schema when the template is saved and never matches a value on the node. Server and node only.
//
// One form of look-ahead is read: a pattern made only of look-aheads from the start, each a whole
// pattern, (?=^[0-9]+$)(?=^.{1,3}$), means each must match. That is how the egg importer joins
// several Laravel rules (./egg-rules), and definitions stored so keep their checks.
import { KilnError } from "../errors";
import { compilePattern, patternProblem, PatternError } from "../patterns";

export interface VariableRules {
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
}

/** A number as the rules read it: a JSON number, or text that is one ("12", "-1.5", "1e3"). */
function numberOf(value: string | number | boolean): number {
  if (typeof value === "number") return value;
  if (typeof value !== "string" || !/^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/.test(value)) return NaN;
  return Number(value);
}

/** What `(?=…)` holds for each part of a joined pattern: anchored as it is, or found anywhere. */
const ANYWHERE = /^\[\\s\\S\]\*\?\(\?:([\s\S]*)\)$/;

/**
 * The patterns a rules pattern stands for: the parts of a pattern made only of look-aheads from
 * the start ((?=^a$)(?=[\s\S]*?(?:b))), else the pattern itself.
 */
export function patternParts(pattern: string): string[] {
  if (!pattern.startsWith("(?=")) return [pattern];
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i]!;
    if (ch === "\\") i++;
    else if (ch === "[") {
      // A class is one atom: its brackets and parentheses are letters.
      for (i++; i < pattern.length && pattern[i] !== "]"; i++) if (pattern[i] === "\\") i++;
    } else if (ch === "(") {
      if (depth === 0) {
        if (!pattern.startsWith("(?=", i)) return [pattern];
        start = i + 3;
      }
      depth++;
    } else if (ch === ")") {
      depth--;
      if (depth < 0) return [pattern];
      if (depth === 0) parts.push(pattern.slice(start, i));
    } else if (depth === 0) return [pattern];
  }
  if (depth !== 0) return [pattern];
  return parts.map((part) => ANYWHERE.exec(part)?.[1] ?? part);
}

/** Why `rules` cannot be used (for the schema), or null. */
export function rulesProblem(rules: VariableRules): string | null {
  if (rules.min !== undefined && rules.max !== undefined && rules.min > rules.max) return "min is larger than max";
  if (rules.minLength !== undefined && rules.maxLength !== undefined && rules.minLength > rules.maxLength) return "minLength is larger than maxLength";
  if (rules.pattern === undefined) return null;
  for (const part of patternParts(rules.pattern)) {
    const problem = patternProblem(part);
    if (problem !== null) return problem;
  }
  return null;
}

/**
 * Throws the catalogue error for the first rule `value` breaks: ErrFieldTooSmall / ErrFieldTooLarge
 * (min, max, and maxLength), ErrFieldLength (minLength), ErrFieldPatternMismatch (pattern, or not
 * a number where min or max asks for one). An empty value is left to `required`.
 */
export function checkVariableRules(name: string, rules: VariableRules | undefined, value: string | number | boolean): void {
  checkVariableBounds(name, rules, value);
  checkVariablePattern(name, rules, value);
}

/** The rules but the pattern: what code that does not ship the engine (the browser's egg import) can check. */
export function checkVariableBounds(name: string, rules: VariableRules | undefined, value: string | number | boolean): void {
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
}

function checkVariablePattern(name: string, rules: VariableRules | undefined, value: string | number | boolean): void {
  if (!rules || value === "" || typeof value === "boolean") return;
  // A pattern the schema would refuse (a definition written around it) matches nothing.
  if (rules.pattern !== undefined && !matches(rules.pattern, String(value))) {
    throw new KilnError("ErrFieldPatternMismatch", { field: name, pattern: rules.pattern });
  }
}

function matches(pattern: string, text: string): boolean {
  try {
    return patternParts(pattern).every((part) => compilePattern(part).test(text));
  } catch (error) {
    if (error instanceof PatternError) return false;
    throw error;
  }
}
