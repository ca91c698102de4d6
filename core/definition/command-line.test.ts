import { describe, expect, test } from "bun:test";
import { joinCommandLine, splitCommandLine } from "./command-line";
import { substitute } from "./substitute";

const roundTrip = (argv: string[]) => expect(splitCommandLine(joinCommandLine(argv))).toEqual(argv);

describe("joinCommandLine", () => {
  test("plain words are left bare", () => {
    expect(joinCommandLine(["java", "-Xmx1024M", "-jar", "server.jar"])).toBe("java -Xmx1024M -jar server.jar");
    expect(joinCommandLine(["./factorio/bin/x64/factorio", "--port", "$HOME", "a=b;c|d&e"])).toBe("./factorio/bin/x64/factorio --port $HOME a=b;c|d&e");
    expect(joinCommandLine([])).toBe("");
  });

  test("only words that need it are quoted, in single quotes", () => {
    expect(joinCommandLine(["srcds_run", "-game tf", "", "+map ${map}"])).toBe(`srcds_run '-game tf' '' "+map \${map}"`);
    expect(joinCommandLine(["say", `"hi"`, "a\\b", "tab\there", "line\nbreak"])).toBe(`say '"hi"' 'a\\b' 'tab\there' 'line\nbreak'`);
    expect(joinCommandLine(["it's"])).toBe(`'it'\\''s'`);
  });

  test("round trips through splitCommandLine", () => {
    const cases: string[][] = [
      ["java", "-Xmx1024M", "-jar", "server.jar", "nogui"],
      [""],
      ["", "", ""],
      ["'"],
      ["''"],
      ["\\"],
      ["\\'"],
      [`'\\"`],
      ["a b", "c\td", "e\nf", "g\r\nh"],
      ["  leading and trailing  "],
      [`mixed 'single' and "double" and \\back\\slash`],
      ["$HOME", "${rootDir}/saves", "$(whoami)", "`id`", "*", "~", "#comment"],
      ["sh", "-c", `cat motd.txt; while read l; do echo "got $l"; done`],
      ["non\u00a0breaking", "ideographic\u3000space", "emoji 🎮", "tab\u000bvertical"],
      ["/c game.server_save() \u0003"],
    ];
    for (const argv of cases) roundTrip(argv);
  });

  test("round trips random words", () => {
    // A small deterministic generator, so a failure is reproducible.
    let seed = 12345;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const alphabet = ["a", "Z", "0", " ", "\t", "\n", "'", '"', "\\", "$", "{", "}", "-", "=", "\u00a0", "é"];
    for (let n = 0; n < 500; n++) {
      const argv = Array.from({ length: Math.floor(next() * 5) }, () =>
        Array.from({ length: Math.floor(next() * 8) }, () => alphabet[Math.floor(next() * alphabet.length)]!).join(""),
      );
      roundTrip(argv);
    }
  });
});

describe("joinCommandLine and variables", () => {
  test("a word with a ${variable} is double-quoted, so a substituted value with spaces or an apostrophe stays one word", () => {
    const line = joinCommandLine(["./valheim", "-name", "${serverName}", "-Xmx${memory}M", 'say "${msg}" for $5']);
    expect(line).toBe('./valheim -name "${serverName}" "-Xmx${memory}M" "say \\"${msg}\\" for \\$5"');
    expect(splitCommandLine(line)).toEqual(["./valheim", "-name", "${serverName}", "-Xmx${memory}M", 'say "${msg}" for $5']);
    const substituted = substitute(line, { serverName: "Bob's Hall", memory: 1024, msg: "hi there" });
    expect(splitCommandLine(substituted)).toEqual(["./valheim", "-name", "Bob's Hall", "-Xmx1024M", 'say "hi there" for $5']);
  });
});
