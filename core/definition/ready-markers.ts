// A template's ready markers (run.readyMarkers, an egg's config.startup done lines), as Wings
// reads them: a marker is found in a console line as a plain text, unless it starts with
// "regex:" and more follows, when the rest is a regular expression tried against the line. The
// expression runs on RE2's linear-time engine (core/patterns), as Wings runs it on Go's: a line
// the server prints, which its players may write part of, cannot stall the node.
import { compilePattern, patternProblem } from "../patterns";

const REGEX_PREFIX = "regex:";

export type ReadyMatcher = (line: string) => boolean;

function regexOf(marker: string): string | null {
  return marker.startsWith(REGEX_PREFIX) && marker.length > REGEX_PREFIX.length ? marker.slice(REGEX_PREFIX.length) : null;
}

/** Why a "regex:" marker cannot be read (told when the template is saved); null when it can. */
export function regexProblem(marker: string): string | null {
  const source = regexOf(marker);
  return source === null ? null : patternProblem(source);
}

/**
 * One matcher for a list of markers: true when a line holds any of them. A regular expression
 * that does not compile is matched as plain text, as Wings does.
 */
export function readyMatcher(markers: readonly string[]): ReadyMatcher {
  const tests = markers.map((marker): ReadyMatcher => {
    const source = regexOf(marker);
    if (source !== null && patternProblem(source) === null) {
      const pattern = compilePattern(source);
      return (line) => pattern.test(line);
    }
    return (line) => line.includes(marker);
  });
  return (line) => tests.some((test) => test(line));
}
