// Which variables hold several arguments (a variable's `splitWords`, ./template): the names a node
// splits when it puts a command line together (./command-line commandArgv), and PufferPanel's
// reading of them on import.
//
// PufferPanel (2.x and v3) substitutes every value into the command line first and splits the
// line after (its SplitArguments, at spaces, keeping double-quoted stretches), so any value with a
// space becomes several arguments. Kiln splits first, so a value stays one argument: what a server
// name ("Valheim Server" after `-name`) means, and what PufferPanel's own splitting breaks (the
// game reads "Valheim" and a stray "Server"). A template whose variable is meant to hold several
// options ("JVM Arguments": `-XX:+UseG1GC -XX:+AlwaysPreTouch`) needs PufferPanel's splitting, or
// Java is handed one argument it refuses. So the importer marks exactly those: a variable that
// stands alone as an unquoted word of a command line, and whose meaning is a list of options:
// its name or label speaks of arguments or flags, or its value (or one of its options) is two or
// more words that each start with - or +. Every mark is noted, for the administrator to see.
import { wholeWordVariables } from "./command-line";
import type { ImportNote } from "./import-notes";
import type { Template } from "./template";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value);

/** The variables a node splits into words: those whose template says `splitWords: true`. */
export function splitWordNames(definition: Pick<Template, "data">): ReadonlySet<string> {
  return new Set(Object.entries(definition.data).flatMap(([name, v]) => (v.splitWords === true ? [name] : [])));
}

/** "jvmArgs", "Extra launch arguments", "server_flags": a name or label that speaks of a list of options. */
const SPEAKS_OF_ARGUMENTS = /\b(args?|arguments|flags)\b/i;
/** Two or more words, each an option: "-Xms1G -XX:+UseG1GC", "+map de_dust2 -tickrate 128" is not. */
const OPTION_WORDS = /^\s*[-+]\S+(\s+[-+]\S+)+\s*$/;

function meansSeveralArguments(name: string, variable: Json): boolean {
  const label = `${name} ${typeof variable.display === "string" ? variable.display : ""}`.replace(/([a-z])([A-Z])/g, "$1 $2").replace(/[_-]+/g, " ");
  if (SPEAKS_OF_ARGUMENTS.test(label)) return true;
  const values = [variable.value, ...(Array.isArray(variable.options) ? variable.options.map((o) => (isObject(o) ? o.value : undefined)) : [])];
  return values.some((value) => typeof value === "string" && OPTION_WORDS.test(value));
}

/** Every command line of a template as written (run command and its entries, command steps). */
function commandLines(template: Json): string[] {
  const run = isObject(template.run) ? template.run : {};
  const lines: string[] = [];
  for (const entry of Array.isArray(run.command) ? run.command : [run.command]) {
    if (typeof entry === "string") lines.push(entry);
    else if (isObject(entry) && typeof entry.command === "string") lines.push(entry.command);
  }
  for (const steps of [template.install, run.pre, run.post]) {
    for (const step of Array.isArray(steps) ? steps : []) {
      if (!isObject(step) || step.type !== "command") continue;
      const commands = Array.isArray(step.commands) ? step.commands : [step.commands];
      lines.push(...commands.filter((c): c is string => typeof c === "string"));
    }
  }
  return lines;
}

/**
 * PufferPanel's reading of a 2.x or v3 template, written out: `splitWords: true` on each variable
 * that holds a list of options and stands alone as a word of a command line (above). A variable
 * that says `splitWords` itself is left as it says. Changes the template in place.
 */
export function markSplitWords(template: Json, notes: ImportNote[]): void {
  if (!isObject(template.data)) return;
  const standing = new Set(commandLines(template).flatMap(wholeWordVariables));
  for (const [name, variable] of Object.entries(template.data)) {
    if (!isObject(variable) || "splitWords" in variable || !standing.has(name) || !meansSeveralArguments(name, variable)) continue;
    variable.splitWords = true;
    notes.push({ rule: "splitWords", field: `data.${name}.splitWords` });
  }
}
