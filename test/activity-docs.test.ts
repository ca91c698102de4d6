// docs/activity.md lists the event catalogue for readers; this keeps it the catalogue's list.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { EVENT_NAMES } from "../core/activity";

test("every event in core/activity is in docs/activity.md's table, and the table names no other", () => {
  const doc = readFileSync(join(import.meta.dir, "..", "docs", "activity.md"), "utf8");
  const table = doc.slice(doc.indexOf("## The event catalogue"), doc.indexOf("## Where it is written"));
  const named = new Set<string>();
  for (const row of table.split("\n").filter((line) => line.startsWith("| `"))) {
    const cell = row.split("|")[1]!;
    const names = [...cell.matchAll(/`([a-zA-Z0-9.]+)`/g)].map((m) => m[1]!);
    // `server.power.start` / `.stop`: a suffix continues the first name's prefix.
    const first = names[0]!;
    for (const name of names) named.add(name.startsWith(".") ? `${first.slice(0, first.lastIndexOf("."))}${name}` : name);
  }
  expect([...named].sort()).toEqual([...EVENT_NAMES].sort());
});
