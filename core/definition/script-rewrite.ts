// PufferPanel substitutes `${name}` into the text of a command before a shell reads it, so its
// templates write variables into `sh -c '…'` scripts. Kiln refuses that (./script-check: the
// value would become code); a script reads the exported environment variable instead. The
// importer therefore rewrites such a reference into a read of that variable, where one exists
// under the same name, with the same meaning for every value that is not shell syntax:
//   - outside quotes `${name}` becomes `$name` (still split into words, as substituted text was);
//   - inside double quotes `$name`;
//   - inside single quotes `'"$name"'` (the text stays one literal piece, as it was).
// A `""` follows when a letter, digit or `_` would otherwise extend the name. References in the
// code of other interpreters (python -c, awk) are left alone: the template is then refused.
import { codeWords, joinCommandLine, splitCommandLine } from "./command-line";
import { isExportedName } from "./invocation";
import { BUILTIN_VALUES } from "./substitute";
import type { ImportNote } from "./import-notes";

/** The names a script may read as `$name`: the template's variables exported under their own names. */
export interface ScriptNames {
  /** names that the node fills into commands (the template's variables, rootDir, serverId) */
  known: ReadonlySet<string>;
  /** names the template's environmentVars set: they would shadow the variable */
  shadowed: ReadonlySet<string>;
}

const REFERENCE = /\$\{([A-Za-z0-9_.-]+)\}/y;

function readable(name: string, names: ScriptNames): boolean {
  return names.known.has(name) && isExportedName(name) && !names.shadowed.has(name);
}

/** One shell script with every readable `${name}` rewritten; `rewritten` lists the names. */
export function rewriteShellScript(script: string, names: ScriptNames): { script: string; rewritten: string[] } {
  let out = "";
  let quote: "" | "'" | '"' = "";
  const rewritten: string[] = [];
  for (let i = 0; i < script.length; i++) {
    const ch = script[i]!;
    if (quote !== "'" && ch === "\\" && i + 1 < script.length) {
      out += ch + script[++i];
      continue;
    }
    if (ch === "'" && quote !== '"') quote = quote === "'" ? "" : "'";
    else if (ch === '"' && quote !== "'") quote = quote === '"' ? "" : '"';
    REFERENCE.lastIndex = i;
    const m = ch === "$" ? REFERENCE.exec(script) : null;
    if (m && readable(m[1]!, names)) {
      const next = script[i + m[0].length] ?? "";
      const read = `$${m[1]}${/[A-Za-z0-9_]/.test(next) ? '""' : ""}`;
      out += quote === "'" ? `'"$${m[1]}"'` : read;
      rewritten.push(m[1]!);
      i += m[0].length - 1;
      continue;
    }
    out += ch;
  }
  return { script: out, rewritten };
}

/**
 * A command line with the `${name}` references inside its shell scripts rewritten (the rest of
 * the line is untouched in meaning; it is re-quoted only when something changed). Adds a note
 * per rewritten reference under `field`.
 */
export function rewriteCommandLine(line: string, names: ScriptNames, field: string, notes: ImportNote[]): string {
  let argv: string[];
  try {
    argv = splitCommandLine(line);
  } catch {
    return line; // not a command line: the template check names the field
  }
  let changed = false;
  for (const [i, kind] of codeWords(argv)) {
    if (kind !== "shell") continue;
    const { script, rewritten } = rewriteShellScript(argv[i]!, names);
    if (!rewritten.length) continue;
    argv[i] = script;
    changed = true;
    for (const name of rewritten) notes.push({ rule: "scriptVariable", field, detail: name });
  }
  return changed ? joinCommandLine(argv) : line;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Rewrites the scripts of every command line of a template as JSON (before the schema reads it):
 * run.command (a line, a list of lines or v3's entries), and the command steps of install,
 * run.pre and run.post. Mutates and returns `template`.
 */
export function rewriteTemplateScripts(template: Json, notes: ImportNote[]): Json {
  const run = isObject(template.run) ? template.run : {};
  const data = isObject(template.data) ? template.data : {};
  const names: ScriptNames = {
    known: new Set([...Object.keys(data), ...BUILTIN_VALUES]),
    shadowed: new Set(isObject(run.environmentVars) ? Object.keys(run.environmentVars) : []),
  };
  const line = (text: unknown, field: string) => (typeof text === "string" ? rewriteCommandLine(text, names, field, notes) : text);
  if (typeof run.command === "string") run.command = line(run.command, "run.command");
  else if (Array.isArray(run.command)) {
    run.command = run.command.map((entry, i) =>
      isObject(entry) ? { ...entry, command: line(entry.command, `run.command.${i}.command`) } : line(entry, `run.command.${i}`),
    );
  }
  const sections: Array<[string, unknown]> = [["install", template.install], ["run.pre", run.pre], ["run.post", run.post]];
  for (const [section, steps] of sections) {
    if (!Array.isArray(steps)) continue;
    steps.forEach((step, i) => {
      if (!isObject(step) || step.type !== "command") return;
      const field = `${section}.${i}.commands`;
      if (typeof step.commands === "string") step.commands = line(step.commands, `${field}.0`);
      else if (Array.isArray(step.commands)) step.commands = step.commands.map((c, j) => line(c, `${field}.${j}`));
    });
  }
  return template;
}
