// Variables substituted into one install, pre/post-run or task step, by what each field is:
// a command line word by word (a value stays one argument, never code), an alterfile pattern as
// literal text, an alterfile replacement as literal text on the line it replaces (a value can
// never add a line there, nor use $& or $' to copy the file into it), anything else as text.
import { commandArgv, joinCommandLine } from "./command-line";
import type { Step } from "./steps";
import { substitute, substituteDeep, type Values } from "./substitute";

/** `split`: the variables whose value may stand for several words of a command line (their `splitWords`). */
export function substituteStep(step: Step, values: Values, split?: ReadonlySet<string>): Step {
  switch (step.type) {
    case "command":
      // Joined again with quoting that splitCommandLine reads back word for word, so the
      // command processor runs exactly these words.
      return { ...step, commands: step.commands.map((line) => joinCommandLine(commandArgv(line, values, { split, field: "commands" }))) };
    case "alterfile":
      return {
        ...step,
        file: substitute(step.file, values),
        search: substitute(step.search, values, step.regex ? escapeRegExp : undefined),
        replace: substitute(step.replace, values, (value, name) => {
          if (/[\r\n\u2028\u2029]/.test(value)) throw new Error(`the value of ${name} holds a line break, which alterfile cannot write`);
          return step.regex ? value.replaceAll("$", "$$$$") : value;
        }),
      };
    case "configfile":
      // Kept as written: the step resolves ${…} and the egg's {{…}} placeholders itself, in one
      // pass, so a value is never read again as a placeholder (daemon/processors/configfile).
      return step;
    case "containerscript":
      // Kept as written: the script reads the variables from its environment, never from its
      // text, and the image is the template's (a value cannot choose what runs).
      return step;
    case "dockerpull":
      // Kept as written: the server substitutes it under the image rules (./docker-values), which
      // need to know which variables users may edit.
      return step;
    default:
      return substituteDeep(step, values);
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
