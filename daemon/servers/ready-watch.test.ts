import { describe, expect, test } from "bun:test";
import { ReadyWatch } from "./ready-watch";

describe("ReadyWatch", () => {
  test("a marker in a line split across chunks is found once the line is whole", () => {
    const watch = new ReadyWatch([")! For help, type "]);
    expect(watch.push("[12:00:01 INFO]: Done (3.2s)! For he")).toBe(false);
    expect(watch.push("lp, type \"help\"\n")).toBe(true);
  });

  test("regex: markers are regular expressions; colour codes do not hide a line", () => {
    const watch = new ReadyWatch(["regex:^\\[\\d+:\\d+:\\d+ INFO\\]: Done"]);
    expect(watch.push("[12:00:01 INFO]: Loading\n")).toBe(false);
    expect(watch.push("\u001b[32m[12:00:02 INFO]: Done\u001b[0m\r\n")).toBe(true);
  });

  test("a regex that does not compile is matched as text, as Wings does", () => {
    const watch = new ReadyWatch(["regex:([unclosed"]);
    expect(watch.push("nothing\n")).toBe(false);
    expect(watch.push("got regex:([unclosed here\n")).toBe(true);
  });

  test("a line without its end does not count yet", () => {
    const watch = new ReadyWatch(["ready"]);
    expect(watch.push("ready")).toBe(false);
    expect(watch.push("\n")).toBe(true);
  });
});
