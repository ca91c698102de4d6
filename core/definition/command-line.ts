// Splits a command line into argv the way a POSIX shell splits words (single quotes, double
// quotes with \" \\ \$ escapes, backslash escapes), without running a shell: templates write
// `sh -c '…'` when they want one. Variables are substituted after the split (commandArgv), so a
// value is always inside one word and can never add a quote or shell syntax. The one exception is
// a variable its template marks `splitWords` (PufferPanel's JVM arguments): standing alone as an
// unquoted word, its value becomes several words, split by the same rules, each still data.
import { KilnError } from "../errors";
import { BUILTIN_VALUES, substitute, referencedNames, type Values } from "./substitute";
import { INTERPRETERS, interpreterSpan, isJvm, jvmOptionWords, runsCodeInJvm, type OptionTable } from "./interpreters";

interface Word {
  text: string;
  /** Whether any part of it was quoted or escaped: an empty quoted word is still a word. */
  quoted: boolean;
}

function splitWords(line: string): Word[] {
  const words: Word[] = [];
  let word = "";
  let inWord = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated single quote");
      word += line.slice(i + 1, end);
      i = end;
      inWord = quoted = true;
    } else if (ch === '"') {
      i++;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i++;
        word += line[i];
      }
      if (i >= line.length) throw new Error("unterminated double quote");
      inWord = quoted = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = quoted = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push({ text: word, quoted });
      word = "";
      inWord = quoted = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push({ text: word, quoted });
  return words;
}

export function splitCommandLine(line: string): string[] {
  return splitWords(line).map((w) => w.text);
}

/** A word that is exactly one `${name}`, unquoted: where a value may stand for several words. */
const WHOLE_VARIABLE = /^\$\{([A-Za-z0-9_.-]+)\}$/;

/**
 * The variables that stand alone as an unquoted word of `line` outside any program text: those a
 * `splitWords` mark can turn into several words. Empty for a line whose quotes do not close.
 */
export function wholeWordVariables(line: string): string[] {
  let words: Word[];
  try {
    words = splitWords(line);
  } catch {
    return [];
  }
  const code = codeWordIndexes(words.map((w) => w.text));
  return words.flatMap((w, i) => (!w.quoted && !code.has(i) ? (WHOLE_VARIABLE.exec(w.text)?.[1] ?? []) : []));
}

/**
 * The words of a `splitWords` variable's value: split at whitespace, quotes grouping and a
 * backslash escaping, as a command line is, and nothing else (no expansion of any kind). A quote
 * that does not close is ErrFieldPatternMismatch naming the variable: the value cannot be read.
 */
export function valueWords(name: string, value: string): string[] {
  try {
    return splitCommandLine(value);
  } catch {
    throw new KilnError("ErrFieldPatternMismatch", { field: name, pattern: "words with every quote closed" }, `the value of ${name} has a quote that does not close`);
  }
}

export interface ArgvOptions {
  /** Variables whose value may stand for several words (their template marks them `splitWords`). */
  split?: ReadonlySet<string>;
  /** Where the line sits ("run.command", "install.0.commands.1"), for the refusal. */
  field?: string;
}

/**
 * A command line as the argv a node runs: split first, then `${name}` substituted inside each
 * word, so a value with spaces, quotes, `;` or `$(…)` stays data in its one word. An unquoted word
 * made only of variables that all came out empty is left out, as a shell leaves out an unquoted
 * empty expansion (an optional flag such as `${crossplay}`); a quoted one stays as "". The code
 * word of a shell or interpreter (`sh -c SCRIPT`, see codeWordIndexes) is never substituted: a
 * script reads variables from its environment (variableEnvironment), where they stay data.
 */
export function commandArgv(line: string, values: Values, { split, field = "command" }: ArgvOptions = {}): string[] {
  const words = splitWords(line);
  const raw = words.map((w) => w.text);
  // Looked for in the line as written and as it would read substituted, so a value cannot turn
  // the line into a shell call (`${program} -c …` with program = "sh") and get into its script.
  const code = new Set([...codeWordIndexes(raw), ...codeWordIndexes(raw.map((w) => substitute(w, values)))]);
  const argv: string[] = [];
  /** Per word of argv: the variable whose value is in it, or "" (the template's own text). */
  const origin: string[] = [];
  /** Per word of argv: the template's text before its first value (all of it for the template's own words). */
  const written: string[] = [];
  /** Variables whose unquoted word came out empty and was left out. */
  const leftOut: string[] = [];
  const push = (text: string, from: string, before = text) => {
    argv.push(text);
    origin.push(from);
    written.push(before);
  };
  for (const [i, word] of words.entries()) {
    if (code.has(i)) {
      push(word.text, "");
      continue;
    }
    const whole = word.quoted ? undefined : WHOLE_VARIABLE.exec(word.text)?.[1];
    if (whole !== undefined && split?.has(whole) && Object.hasOwn(values, whole)) {
      const pieces = valueWords(whole, String(values[whole]));
      for (const piece of pieces) push(piece, whole, "");
      if (pieces.length === 0) leftOut.push(whole);
      continue;
    }
    const text = substitute(word.text, values);
    // The node's own values (the server's folder) are the template's text, not a value anyone set.
    const from = referencedNames(word.text).find((name) => Object.hasOwn(values, name) && !(BUILTIN_VALUES as readonly string[]).includes(name)) ?? "";
    if (text === "" && word.text !== "" && !word.quoted) {
      if (from) leftOut.push(from);
      continue;
    }
    push(text, from, from ? word.text.slice(0, word.text.indexOf("${")) : text);
  }
  const refuse = (variable: string) => {
    throw new KilnError("ErrValueIsCode", { field, variable }, `the value of ${variable} would be program text in ${field}`);
  };
  // The words as they will run: a value must not stand where a shell or interpreter reads program
  // text, whichever way it got there (split into words, or moved by an empty word left out).
  for (const i of codeWordIndexes(argv)) if (origin[i]) refuse(origin[i]);
  for (const [p, word] of argv.entries()) {
    const name = programName(word);
    const table = INTERPRETERS[name];
    if (table) {
      // Nor be an interpreter's own option, nor name its script outside the server's folder
      // (`/usr/lib/python3/code.py` reads program text from the console), nor take its script
      // away (it would read one from standard input): a value may only name the script.
      const span = interpreterSpan(argv, p, table);
      for (let i = span.from; i <= span.to; i++) {
        const variable = origin[i];
        if (!variable) continue;
        const script = i === span.to && span.program && span.code === undefined && span.attached === undefined;
        if (script ? !isFolderPath(argv[i]!) : !isWrittenLongOption(written[i]!, table)) refuse(variable);
      }
      const taken = span.program ? undefined : (origin.slice(span.from).find(Boolean) ?? leftOut[0]);
      if (taken) refuse(taken);
    } else if (isJvm(name)) {
      // A JVM's options may be tuned by a value, but not to run a command or load code.
      // An argument file the template names (`@libraries/${version}/unix_args.txt`) is its own choice.
      for (const i of jvmOptionWords(argv, p)) if (origin[i] && runsCodeInJvm(argv[i]!) && !written[i]!.startsWith("@")) refuse(origin[i]);
      const jar = argv.indexOf("-jar", p + 1);
      if (jar > 0 && origin[jar + 1] && !isFolderPath(argv[jar + 1]!)) refuse(origin[jar + 1]!);
    }
  }
  return argv;
}

/** A path that stays inside the folder it is read from: relative, no `..`, not an option. */
const isFolderPath = (path: string) => path !== "" && !/^[-/~]/.test(path) && !path.split("/").includes("..");

/**
 * Whether the template itself wrote the option a value sits in: a long option named before its
 * `=` (`--max-old-space-size=${memory}`) whose argument is neither program text nor code to load.
 */
function isWrittenLongOption(before: string, table: OptionTable): boolean {
  const name = /^(--[A-Za-z0-9][A-Za-z0-9-]*)=/.exec(before)?.[1];
  return name !== undefined && !table.longCode?.includes(name) && !table.longArgument?.includes(name);
}

/** Shells: their `-c` option (alone or in a cluster such as `-ec`) makes the first operand the script. */
const SHELLS = new Set(["sh", "bash", "dash", "ash", "ksh", "mksh", "zsh"]);
/** Shell options that take the next word as their argument (`bash -c -o pipefail '…'`). */
const SHELL_OPTION_ARGUMENT = new Set(["-o", "+o", "-O", "+O", "--rcfile", "--init-file"]);
/** Programs that hand the word after `-c`/`--command` to a shell, wherever it stands. */
const COMMAND_RUNNERS = new Set(["su", "runuser", "flock", "script"]);
/** awk's program is its first operand; -v and -F take an argument, -f names a program file instead. */
const AWKS = new Set(["awk", "gawk", "mawk", "nawk"]);

const programName = (word: string) => word.slice(word.lastIndexOf("/") + 1).replace(/^(python[23])\.\d+$/, "$1");

/**
 * The indexes of the words of `argv` that are program text: a shell's `-c` script, the code
 * after an interpreter's `-c`/`-e`, an awk program. The program may stand anywhere in the line
 * (`env X=1 sh -c …`, `timeout 60 bash -c …`, `busybox sh -c …`), so every word is looked at.
 * Variables are never put into these words: a value there would become code.
 */
export function codeWordIndexes(argv: readonly string[]): Set<number> {
  return new Set(codeWords(argv).keys());
}

/**
 * The code words of `argv` (codeWordIndexes) with what reads them: a shell ("shell": `sh -c`,
 * `su -c`), or another interpreter ("program": python, node, awk, …). Only a shell script can read
 * an exported variable as `$name` (the template importer rewrites those, core/definition/script-rewrite).
 */
export function codeWords(argv: readonly string[]): Map<number, "shell" | "program"> {
  const code = new Map<number, "shell" | "program">();
  /** The first word from `from` on that is not an option (nor an option's argument), or -1. */
  const operand = (from: number, takesArgument: (word: string) => boolean) => {
    for (let i = from; i < argv.length; i++) {
      if (takesArgument(argv[i]!)) i++;
      else if (!/^[-+]./.test(argv[i]!)) return i;
    }
    return -1;
  };
  for (let p = 0; p < argv.length; p++) {
    const name = programName(argv[p]!);
    const at = (i: number, kind: "shell" | "program" = "program") => i >= 0 && i < argv.length && code.set(i, kind);
    if (SHELLS.has(name)) {
      // A shell reads options only before its first operand (`bash [options] [file] [arguments]`):
      // a -c cluster after the script file is the script's argument (`bash start.sh -steamvac
      // ${vac}`, as PufferPanel templates write), not a script.
      for (let i = p + 1; i < argv.length && /^[-+]./.test(argv[i]!) && argv[i] !== "--"; i++) {
        if (SHELL_OPTION_ARGUMENT.has(argv[i]!)) i++;
        else if (/^-[A-Za-z]*c[A-Za-z]*$/.test(argv[i]!)) {
          at(operand(i + 1, (w) => SHELL_OPTION_ARGUMENT.has(w)), "shell");
          break;
        }
      }
    } else if (COMMAND_RUNNERS.has(name)) {
      for (let i = p + 1; i < argv.length; i++) if (argv[i] === "-c" || argv[i] === "--command") at(i + 1, "shell");
    } else if (INTERPRETERS[name]) {
      const table = INTERPRETERS[name];
      const span = interpreterSpan(argv, p, table);
      if (span.code !== undefined) at(span.code);
      // And every later code option standing alone, not only those before the script: erring
      // towards "code" only leaves a word unsubstituted, never the other way round.
      const alone = [...table.code].map((letter) => `-${letter}`).concat(table.longCode ?? []);
      for (let i = span.to + 1; i < argv.length; i++) if (alone.includes(argv[i]!)) at(++i);
    } else if (AWKS.has(name)) {
      if (!argv.slice(p + 1).includes("-f")) at(operand(p + 1, (w) => w === "-v" || w === "-F"));
    }
  }
  return code;
}

/**
 * The inverse of splitCommandLine: words are joined with spaces, quoted only when they need it.
 * A word holding a `${variable}` is put in double quotes: the node substitutes after splitting,
 * so this is not needed for safety, but the line then reads as one argument there even to a
 * reader that substitutes first. Other words that are empty or hold whitespace,
 * quotes or backslashes go in single quotes, an embedded ' written as '\'' (close, escaped, reopen).
 */
export function joinCommandLine(argv: string[]): string {
  return argv.map(quoteWord).join(" ");
}

function quoteWord(word: string): string {
  if (/\$\{[A-Za-z0-9_.-]+\}/.test(word)) return `"${word.replace(/["\\`]/g, "\\$&").replace(/\$(?!\{)/g, "\\$")}"`;
  if (word !== "" && !/[\s'"\\]/.test(word)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}
