// Whether a console line is the one a trigger or a waitForConsole step waits for, and what it
// gives the task's steps. Plain text is found anywhere in the line, as written; a regular
// expression runs on RE2's linear-time engine (core/patterns), so no pattern can hold the node for
// longer than a pass over the (bounded) line. Its whole match is ${trigger.0}, its groups
// ${trigger.1}…, a named group ${trigger.<name>}, and the line itself ${trigger.line}.
//
// What reaches a step is text and nothing more: every control character (line breaks, CR, ESC,
// NUL…) is removed from a value, so a captured group can never end a console command and begin
// another, nor send a terminal sequence.
import { compilePattern } from "../../../core/patterns";

/** Values a fired trigger gives the task's steps, by name (trigger.0, trigger.line, …). */
export type TriggerValues = Record<string, string>;

/** The longest value a step receives. */
export const MAX_VALUE_LENGTH = 1000;
/** C0 and C1 controls, DEL, and the Unicode line and paragraph separators. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** A value as steps receive it: one line of text, no control characters, bounded. */
export function plainValue(value: string): string {
  const text = value.replace(CONTROL, "");
  return text.length > MAX_VALUE_LENGTH ? text.slice(0, MAX_VALUE_LENGTH) : text;
}

/**
 * A value as a console command receives it: without ";", which Source engine consoles (and RCON
 * consoles built like them) read as the end of one command and the start of another, so a player
 * named "x;quit" greeted by `say Welcome ${trigger.player}` cannot type a second command. (A
 * Minecraft name cannot hold one; chat text loses its semicolons.)
 */
export function commandValue(value: string): string {
  return value.replaceAll(";", "");
}

export interface LinePattern {
  pattern: string;
  regex: boolean;
}

/** A matcher for lines: their values when the line matches, else null. The pattern was checked on save. */
export function lineMatcher(spec: LinePattern): (line: string) => TriggerValues | null {
  if (!spec.regex) {
    return (line) => (line.includes(spec.pattern) ? { "trigger.0": plainValue(spec.pattern), "trigger.line": plainValue(line) } : null);
  }
  const compiled = compilePattern(spec.pattern);
  return (line) => {
    // The cheaper test first: most lines do not match, and those need no groups.
    if (!compiled.test(line)) return null;
    const match = compiled.exec(line);
    if (!match) return null;
    const values: TriggerValues = { "trigger.line": plainValue(line) };
    match.groups.forEach((group, i) => (values[`trigger.${i}`] = plainValue(group)));
    for (const [name, group] of Object.entries(match.named)) values[`trigger.${name}`] = plainValue(group);
    return values;
  };
}
