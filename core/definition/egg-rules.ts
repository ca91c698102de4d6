// An egg variable's Laravel validation rules ("required|string|max:20", or the same as a list)
// read into a Kiln variable's type, options, required flag and checks (./variable-rules), as
// Pelican validates a value with them:
// - `required` makes the variable required; without it (or with `nullable`) it may stay empty;
// - `in:a,b` makes an option variable (the list read as Laravel reads it, CSV with quotes);
// - `integer`/`int` an integer one; `numeric` a text that must be a number (decimals allowed);
// - `boolean`, which Laravel passes for 1/0 (and true/false values), a choice of "1" and "0"
//   (or "true" and "false" when the default is written so): the value reaches the egg's
//   scripts as the same text Pelican hands them;
// - `min`/`max`/`between`/`size` bound the number when the rules say numeric or integer, else
//   the length; `gt` a number; `digits`, `digits_between`, `alpha`, `alpha_num`, `alpha_dash`,
//   `url` and `regex` become the pattern (several are joined, each must match);
// - `string`, `nullable`, `sometimes`, `present`, `bail` need nothing more.
// A rule Kiln cannot enforce is left out with a note, and so is a pattern written with PCRE's own
// syntax that RE2's linear-time engine lacks (look-around, back-references: ./variable-rules);
// several patterns are joined in the one form of look-ahead the rules read.
// This runs in the template editor too, which does not ship the engine: the schema, when the
// template is saved, is what compiles each pattern.
import type { ImportNote } from "./import-notes";
import type { VariableRules } from "./variable-rules";

export interface RuleReading {
  type: "string" | "integer" | "option";
  required: boolean;
  options?: Array<{ value: string; display: string }>;
  rules?: VariableRules;
}

/** The rules as a list of texts, whichever way the egg writes them. */
export function ruleList(rules: unknown): string[] {
  const list = Array.isArray(rules) ? rules : typeof rules === "string" ? rules.split("|") : [];
  return list.filter((r): r is string => typeof r === "string").map((r) => r.trim()).filter(Boolean);
}

/** Laravel's reading of a parameter list (str_getcsv): commas split, double quotes group. */
export function csvParameters(text: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '"' && quoted && text[i + 1] === '"') {
      current += '"';
      i++;
    } else if (ch === '"' && (quoted || current === "")) quoted = !quoted;
    else if (ch === "," && !quoted) {
      out.push(current);
      current = "";
    } else current += ch;
  }
  out.push(current);
  return out;
}

const CLOSING: Record<string, string> = { "(": ")", "{": "}", "[": "]", "<": ">" };

/**
 * PCRE's syntax that RE2 has no linear-time form of, and why: back-references (\1, \k<name>,
 * \g1), look-around, atomic groups, possessive quantifiers, conditionals, recursion, branch reset
 * and \G. Tried on the pattern with its escaped characters taken out (an escaped "+" or "(" is a
 * letter), back-references before that.
 */
const BACK_REFERENCE = /\\(?:[1-9]|k[<{']|g\{?-?\d)/;
const PCRE_ONLY: Array<[RegExp, string]> = [
  [/\(\?<?[=!]/, "look-ahead and look-behind are not supported (RE2 syntax)"],
  [/\(\?(?:>|\(|R\)|\d|&|P>|\|)|[*+?}]\+/, "atomic groups, possessive quantifiers, conditionals and recursion are not supported (RE2 syntax)"],
];

/**
 * A PHP (PCRE) pattern as RE2 source: the delimiters removed (any non-alphanumeric character, or
 * a bracket pair), `\A` and `\z`/`\Z` read as ^ and $. `problem` says why it cannot be when the
 * flags or the syntax have no RE2 meaning.
 */
export function phpPatternSource(text: string): { source: string } | { problem: string } {
  const open = text[0];
  if (open === undefined || /[A-Za-z0-9\\\s]/.test(open)) return { problem: "no delimiters" };
  const close = CLOSING[open] ?? open;
  const end = text.lastIndexOf(close);
  if (end <= 0) return { problem: "no closing delimiter" };
  const flags = text.slice(end + 1);
  // u (Unicode) and D (dollar only at the very end) change nothing RE2 needs to know.
  if (!/^[uD]*$/.test(flags)) return { problem: `the flags ${flags}` };
  const source = text.slice(1, end).replace(/\\A/g, "^").replace(/\\[zZ]/g, "$");
  // An escaped backslash first, so "\\1" (a backslash, then 1) is no back-reference.
  const unescaped = source.replace(/\\\\/g, "");
  if (BACK_REFERENCE.test(unescaped)) return { problem: "back-references are not supported (RE2 syntax)" };
  if (/\\G/.test(unescaped)) return { problem: "\\G is not supported (RE2 syntax)" };
  const bare = unescaped.replace(/\\./g, "");
  for (const [shape, problem] of PCRE_ONLY) if (shape.test(bare)) return { problem };
  return { source };
}

/**
 * `patterns` as one: each must match (look-aheads from the start; an anchored one as it is), or
 * the one alone. RE2 has no look-ahead; the rules read this one form as "each part must match"
 * (./variable-rules patternParts).
 */
function joinPatterns(patterns: string[]): string | undefined {
  if (patterns.length <= 1) return patterns[0];
  return patterns.map((p) => (p.startsWith("^") ? `(?=${p})` : `(?=[\\s\\S]*?(?:${p}))`)).join("");
}

const LETTERS = "\\p{L}\\p{M}";
const NAMED_PATTERNS: Record<string, string> = {
  alpha: `^[${LETTERS}]+$`,
  alpha_num: `^[${LETTERS}\\p{N}]+$`,
  alpha_dash: `^[${LETTERS}\\p{N}_-]+$`,
  url: "^[A-Za-z][A-Za-z0-9+.-]*://\\S+$",
};

/** Rules that add nothing Kiln must check (`nullable` is read with `required`). */
const NOTHING_TO_CHECK = new Set(["string", "nullable", "sometimes", "present", "bail", "filled"]);

/** Reads the rules of the variable at `field` ("data.SERVER_JARFILE"); notes what is left out. */
export function readLaravelRules(rules: unknown, defaultValue: string, field: string, notes: ImportNote[]): RuleReading {
  const list = ruleList(rules);
  const parsed = list.map((rule) => {
    const colon = rule.indexOf(":");
    return colon < 0 ? { name: rule.toLowerCase(), param: "" } : { name: rule.slice(0, colon).trim().toLowerCase(), param: rule.slice(colon + 1) };
  });
  const has = (name: string) => parsed.some((r) => r.name === name);
  const integer = has("integer") || has("int");
  const numeric = integer || has("numeric");
  const reading: RuleReading = { type: integer ? "integer" : "string", required: has("required") };
  const checks: VariableRules = {};
  const patterns: string[] = [];
  const bound = (min: number | undefined, max: number | undefined) => {
    if (numeric) {
      if (min !== undefined) checks.min = min;
      if (max !== undefined) checks.max = max;
    } else {
      if (min !== undefined) checks.minLength = min;
      if (max !== undefined) checks.maxLength = max;
    }
  };
  const skipped = (rule: string) => notes.push({ rule: "eggRule", field: `${field}.rules`, detail: rule });
  for (const [i, { name, param }] of parsed.entries()) {
    const rule = list[i]!;
    const numbers = param.split(",").map((p) => Number(p.trim()));
    const wholeNumbers = param !== "" && numbers.every((n) => Number.isFinite(n));
    switch (name) {
      case "required":
      case "integer":
      case "int":
      case "numeric":
        break;
      case "in": {
        reading.type = "option";
        reading.options = csvParameters(param).map((value) => ({ value, display: "" }));
        break;
      }
      case "boolean": {
        if (has("in")) break;
        reading.type = "option";
        const words = /^(true|false)$/i.test(defaultValue) ? (defaultValue === defaultValue.toLowerCase() ? ["true", "false"] : ["True", "False"]) : ["1", "0"];
        reading.options = words.map((value) => ({ value, display: "" }));
        break;
      }
      case "min":
      case "max":
      case "size":
        if (!wholeNumbers || numbers.length !== 1) skipped(rule);
        else bound(name === "max" ? undefined : numbers[0], name === "min" ? undefined : numbers[0]);
        break;
      case "between":
        if (!wholeNumbers || numbers.length !== 2) skipped(rule);
        else bound(numbers[0], numbers[1]);
        break;
      case "gt":
      case "gte":
        // Laravel compares with another field's value unless the parameter is a number.
        if (!wholeNumbers || numbers.length !== 1) skipped(rule);
        else checks.min = name === "gt" && integer ? numbers[0]! + 1 : numbers[0]!;
        if (name === "gt" && !integer && wholeNumbers) skipped(`${rule} (read as gte:${param})`);
        break;
      case "digits":
      case "digits_between":
        if (!wholeNumbers || numbers.length !== (name === "digits" ? 1 : 2)) skipped(rule);
        else patterns.push(`^[0-9]{${numbers.join(",")}}$`);
        break;
      case "regex": {
        const read = phpPatternSource(param);
        if ("source" in read) patterns.push(read.source);
        else notes.push({ rule: "eggPattern", field: `${field}.rules`, detail: `${rule}: ${read.problem}` });
        break;
      }
      default:
        if (NAMED_PATTERNS[name]) patterns.push(NAMED_PATTERNS[name]);
        else if (!NOTHING_TO_CHECK.has(name)) skipped(rule);
    }
  }
  // A number as PHP's is_numeric reads it (surrounding spaces aside).
  if (numeric && !integer) patterns.unshift("^[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:[eE][+-]?\\d+)?$");
  const pattern = joinPatterns(patterns);
  if (pattern !== undefined) checks.pattern = pattern;
  if (Object.keys(checks).length > 0) reading.rules = checks;
  return reading;
}
