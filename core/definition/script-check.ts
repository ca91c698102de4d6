// A template check: no `${variable}` inside the text of a shell or interpreter
// script. The node never substitutes there (commandArgv leaves code words alone), so such a
// reference would silently mean the shell's own ${…} instead; the template must say "$name"
// and read the exported environment variable, which keeps the value data. Refused rather than
// converted, so the template reads as what runs.
import { KilnError } from "../errors";
import { codeWordIndexes, splitCommandLine } from "./command-line";
import { BUILTIN_VALUES, referencedNames } from "./substitute";
import { runCommandLines } from "./run-command";
import type { Template } from "./template";

/** Every command line of a template with the field it sits in ("run.command", "install.2.commands.0", …). */
function commandLines(template: Pick<Template, "install" | "run">): Array<[field: string, line: string]> {
  const lines: Array<[string, string]> = runCommandLines(template.run);
  const sections = { install: template.install, "run.pre": template.run.pre, "run.post": template.run.post };
  for (const [section, steps] of Object.entries(sections)) {
    for (const [i, step] of steps.entries()) {
      if (step.type === "command") step.commands.forEach((line, j) => lines.push([`${section}.${i}.commands.${j}`, line]));
    }
  }
  return lines;
}

/** Throws ErrVariableInScript (field, variable) for the first script that has a variable written into it. */
export function checkTemplateScripts(template: Pick<Template, "install" | "run" | "data">): void {
  const known = new Set<string>([...Object.keys(template.data), ...BUILTIN_VALUES]);
  for (const [field, line] of commandLines(template)) {
    let argv: string[];
    try {
      argv = splitCommandLine(line);
    } catch {
      throw new KilnError("ErrInvalidJson", { field }, `${field} is not a command line: a quote is not closed`);
    }
    for (const i of codeWordIndexes(argv)) {
      const variable = referencedNames(argv[i]!).find((name) => known.has(name));
      if (variable) throw new KilnError("ErrVariableInScript", { field, variable });
    }
  }
}
