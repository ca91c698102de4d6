// Which events a webhook wants: catalogue names, or a wildcard that ends a dotted prefix
// ("server.*" is every event whose name begins "server."; "*" is every event).
import { EVENT_NAMES, type EventName } from "./events";

/** A pattern is good when it is a catalogue name or a wildcard that matches at least one. */
export function isEventPattern(pattern: string): boolean {
  if (pattern === "*") return true;
  if (!pattern.endsWith(".*")) return (EVENT_NAMES as string[]).includes(pattern);
  return EVENT_NAMES.some((name) => eventMatches(pattern, name));
}

export function eventMatches(pattern: string, event: EventName | string): boolean {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return event.startsWith(pattern.slice(0, -1));
  return pattern === event;
}

export function matchesAny(patterns: readonly string[], event: string): boolean {
  return patterns.some((pattern) => eventMatches(pattern, event));
}
