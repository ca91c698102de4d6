import { expect, test } from "bun:test";
import { excludeLines } from "./around-backup";

test("exclude lines: anchored patterns under the folder, runs of ** as one, a pattern saved with too many ** left out", () => {
  expect(excludeLines(["/logs", "**/**/cache", `${"**/a/".repeat(30)}x`, "*.tmp"], "/srv/s/1")).toBe("/srv/s/1/logs\n**/cache\n*.tmp\n");
});
