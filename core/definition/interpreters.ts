// How interpreters read their own options, so that a command line's values can be kept out of
// them. An interpreter's options reach further than its `-c`/`-e` code word: `python3 -cCODE`,
// `node --eval=CODE` and `perl -ne CODE` carry program text in other forms, `python3 -` and
// `node -i` read it from standard input (a server's console), and a JVM option can run a command
// (`-XX:OnOutOfMemoryError=…`) or load an agent. A value may name an interpreter's script or
// tune a JVM; it may not be one of these options.

/** One interpreter's options: the letters whose argument is program text, the letters that take an argument (attached, else the next word), and the long options of each kind. */
export interface OptionTable {
  code: string;
  argument: string;
  longCode?: readonly string[];
  longArgument?: readonly string[];
}

const PYTHON: OptionTable = { code: "c", argument: "mWXQ", longArgument: ["--check-hash-based-pycs"] };
const NODE: OptionTable = {
  code: "ep",
  argument: "rC",
  longCode: ["--eval", "--print"],
  longArgument: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--input-type", "--title", "--env-file", "--inspect-port", "--redirect-warnings"],
};
// perl's and ruby's single-letter options mostly take their argument attached (`-i.bak`,
// `-Mstrict`); counting every one that may take one as taking the next word when none is
// attached only makes the options reach further, which is the safe way to be wrong here.
const PERL: OptionTable = { code: "eE", argument: "0CdDFiIlmMx" };
const RUBY: OptionTable = { code: "e", argument: "0CEFiIKrTWx" };
const PHP: OptionTable = { code: "rBRE", argument: "cdfztF" };
const LUA: OptionTable = { code: "e", argument: "l" };

export const INTERPRETERS: Record<string, OptionTable> = {
  python: PYTHON, python2: PYTHON, python3: PYTHON,
  node: NODE, nodejs: NODE, bun: NODE,
  perl: PERL, ruby: RUBY, php: PHP, lua: LUA,
};

/** What one word does among an interpreter's options. */
type OptionWord = "code-next" | "code-here" | "argument-next" | "option" | "end-of-options" | "operand";

export function readOptionWord(word: string, table: OptionTable): OptionWord {
  if (word === "--") return "end-of-options";
  // `-` alone is the script read from standard input: an operand.
  if (!/^-./.test(word)) return "operand";
  if (word.startsWith("--")) {
    const [name, attached] = [word.split("=", 1)[0]!, word.includes("=")];
    if (table.longCode?.includes(name)) return attached ? "code-here" : "code-next";
    if (table.longArgument?.includes(name)) return attached ? "option" : "argument-next";
    return "option";
  }
  for (let at = 1; at < word.length; at++) {
    const letter = word[at]!;
    const rest = word.slice(at + 1);
    // `-pe` (node) and `-ne` (perl, via n then e): code options clustered, the code comes next.
    if (table.code.includes(letter)) return [...rest].every((l) => table.code.includes(l)) ? "code-next" : "code-here";
    if (table.argument.includes(letter)) return rest ? "option" : "argument-next";
  }
  return "option";
}

/** Where one interpreter in an argv reads its options: words `from`…`to`, its script (or program text) included; `program` is false when it has neither and reads its program from standard input. */
export interface OptionSpan {
  from: number;
  to: number;
  program: boolean;
}

/**
 * The option span of the interpreter at `at`, and the word of its program text if any: `code`
 * when it is a word of its own (after `-c`), `attached` when it sits in its option's word (`-cCODE`).
 */
export function interpreterSpan(argv: readonly string[], at: number, table: OptionTable): OptionSpan & { code?: number; attached?: number } {
  for (let i = at + 1; i < argv.length; i++) {
    switch (readOptionWord(argv[i]!, table)) {
      case "operand":
        return { from: at + 1, to: i, program: true };
      case "end-of-options":
        return { from: at + 1, to: Math.min(i + 1, argv.length - 1), program: i + 1 < argv.length };
      case "code-here":
        return { from: at + 1, to: i, program: true, attached: i };
      case "code-next":
        return { from: at + 1, to: Math.min(i + 1, argv.length - 1), program: i + 1 < argv.length, code: i + 1 < argv.length ? i + 1 : undefined };
      case "argument-next":
        i++;
    }
  }
  return { from: at + 1, to: argv.length - 1, program: false };
}

/** A JVM's own options end at its main class or at the jar after `-jar`; these take the next word. */
const JVM_ARGUMENT = new Set(["-cp", "-classpath", "--class-path", "-p", "--module-path", "--upgrade-module-path", "--add-modules", "--add-reads", "--add-exports", "--add-opens", "--limit-modules", "--patch-module", "--enable-native-access"]);

/**
 * JVM options that run a command or load code of their choosing (an agent, a debugger, a remote
 * management port, an options file, a class loader, a logging configuration): a value may set
 * memory, the collector and properties, never these.
 */
const JVM_CODE_OPTION = /^(@|-XX:(On[A-Za-z]+|Flags|VMOptionsFile)=|-(javaagent|agentlib|agentpath|Xrun|Xdebug|Xbootclasspath)|-D(com\.sun\.management|java\.system\.class\.loader|java\.security|java\.rmi|jdk\.attach|log4j2?\.configuration))/i;

export const isJvm = (name: string) => /^java\d*$/.test(name);

/** The words of a JVM's own options in argv, from the word after `java` at `at`. */
export function jvmOptionWords(argv: readonly string[], at: number): number[] {
  const words: number[] = [];
  for (let i = at + 1; i < argv.length; i++) {
    const word = argv[i]!;
    if (!word.startsWith("-") && !word.startsWith("@")) break;
    words.push(i);
    if (word === "-jar" || word === "-m" || word === "--module") break;
    if (JVM_ARGUMENT.has(word)) i++;
  }
  return words;
}

export const runsCodeInJvm = (word: string) => JVM_CODE_OPTION.test(word);
