// What a trigger reads: a console line's values, joins and leaves from two players answers, and
// a task's time window by the node's clock.
import { describe, expect, test } from "bun:test";
import { lineMatcher } from "./line-match";
import { playersChange } from "./players-change";
import { withinWindow } from "./conditions";
import type { PlayersState } from "../../../core/players/players-state";

describe("line matching", () => {
  test("plain text is found anywhere, as written (no pattern syntax)", () => {
    const match = lineMatcher({ pattern: "a.b (", regex: false });
    expect(match("see a.b ( here")).toEqual({ "trigger.0": "a.b (", "trigger.line": "see a.b ( here" });
    expect(match("axb (")).toBeNull();
  });

  test("a regular expression gives its match, groups by number and name, and the line", () => {
    const match = lineMatcher({ pattern: "(?P<who>\\w+) joined( the game)?", regex: true });
    expect(match("[12:00] bob joined")).toEqual({ "trigger.line": "[12:00] bob joined", "trigger.0": "bob joined", "trigger.1": "bob", "trigger.2": "", "trigger.who": "bob" });
    expect(match("nobody left")).toBeNull();
  });
});

const answer = (online: number, names: string[]): PlayersState => ({ online, max: 20, players: names.map((name) => ({ name })), latencyMs: 1, queriedAt: 0 });

describe("players change", () => {
  test("names when both answers list everyone; counts otherwise", () => {
    expect(playersChange(answer(2, ["a", "b"]), answer(2, ["b", "c"]))).toEqual({ joined: { count: 1, names: ["c"] }, left: { count: 1, names: ["a"] } });
    expect(playersChange(answer(15, []), answer(17, []))).toEqual({ joined: { count: 2, names: [] }, left: { count: 0, names: [] } });
    expect(playersChange(answer(3, ["a"]), answer(1, ["a"]))).toEqual({ joined: { count: 0, names: [] }, left: { count: 2, names: [] } });
  });

  test("nothing to compare: players already on when the first answer comes are not joins", () => {
    expect(playersChange(null, answer(5, ["a"]))).toBeNull();
    expect(playersChange({ error: "ErrQueryUnavailable", reason: "notQueriedYet", queriedAt: 0 }, answer(5, []))).toBeNull();
    expect(playersChange(answer(5, []), null)).toBeNull();
  });
});

describe("time window", () => {
  const at = (hour: number, minute: number) => new Date(2026, 0, 5, hour, minute).getTime();
  test("from inclusive, to exclusive, in the node's local time; past midnight wraps", () => {
    expect(withinWindow(at(9, 0), "09:00", "17:00")).toBe(true);
    expect(withinWindow(at(17, 0), "09:00", "17:00")).toBe(false);
    expect(withinWindow(at(8, 59), "09:00", "17:00")).toBe(false);
    expect(withinWindow(at(23, 30), "22:00", "06:00")).toBe(true);
    expect(withinWindow(at(5, 59), "22:00", "06:00")).toBe(true);
    expect(withinWindow(at(6, 0), "22:00", "06:00")).toBe(false);
  });
});
