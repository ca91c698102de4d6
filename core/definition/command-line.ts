// Splits a command line into argv the way a POSIX shell splits words (single quotes, double
// quotes with \" \\ \$ escapes, backslash escapes), without running a shell: templates write
// `sh -c '…'` when they want one.

export function splitCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === "'") {
      const end = line.indexOf("'", i + 1);
      if (end < 0) throw new Error("unterminated single quote");
      word += line.slice(i + 1, end);
      i = end;
      inWord = true;
    } else if (ch === '"') {
      i++;
      for (; i < line.length && line[i] !== '"'; i++) {
        if (line[i] === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) i++;
        word += line[i];
      }
      if (i >= line.length) throw new Error("unterminated double quote");
      inWord = true;
    } else if (ch === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(ch)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += ch;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/**
 * The inverse of splitCommandLine: words are joined with spaces, quoted only when they need it.
 * A word holding a `${variable}` is put in double quotes, because the node substitutes values
 * before it splits the line: quoted, a value with spaces (a server name) stays one argument, and
 * an apostrophe in it (Bob's Hall) does no harm. Other words that are empty or hold whitespace,
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
