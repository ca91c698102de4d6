// The node's record of where placed add-on files came from: entries for files no longer in the
// folder go at the next write; a record that cannot be read is no record; forgetting removes it.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { tempDir } from "../../test/helpers/process";
import { AddonOrigins } from "./addon-origins";

const origin = (versionId: string) => ({ source: "spiget" as const, projectId: "9089", versionId });

test("kept to the folder's files, written whole, forgotten with the server", () => {
  const root = join(tempDir(), "mod-origins");
  const origins = new AddonOrigins(root);
  expect(origins.get("s1")).toEqual({});
  origins.record("s1", [{ sha512: "a", origin: origin("9089.1") }, { sha512: "b", origin: origin("9089.2") }], new Set(["a", "b"]));
  expect(origins.get("s1")).toEqual({ a: origin("9089.1"), b: origin("9089.2") });
  // "a" was replaced by "c"; "b" is still there; "d" was placed and removed again before this write.
  origins.record("s1", [{ sha512: "c", origin: origin("9089.3") }, { sha512: "d", origin: origin("9089.4") }], new Set(["b", "c"]));
  expect(origins.get("s1")).toEqual({ b: origin("9089.2"), c: origin("9089.3") });
  writeFileSync(join(root, "s2.json"), "{not json");
  expect(origins.get("s2")).toEqual({});
  origins.forget("s1");
  expect(origins.get("s1")).toEqual({});
});
