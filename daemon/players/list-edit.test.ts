// The stopped server's list files: entries added in vanilla's shape, fields Kiln does not know
// kept, files that are links out, not JSON or too large refused, and every write whole.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import { Jail } from "../files/jail";
import { MAX_PLAYER_FILE_BYTES, readJsonList, writeJsonList } from "./json-file";
import { addEntry, offlineUuid, removeEntry } from "./list-edit";

const NOW = new Date("2026-01-02T03:04:05Z");
const STEVE = { name: "Steve", uuid: "8667ba71-b85a-4004-af54-457a9734eed7" };

describe("list entries", () => {
  test("adding keeps every field of the entries there, known or not", () => {
    const before = [{ uuid: "1", name: "Alex", level: 4, bypassesPlayerLimit: true, pluginNote: { x: 1 } }];
    const { entries, changed } = addEntry(before, "ops", STEVE, "", NOW);
    expect(changed).toBe(true);
    expect(entries[0]).toEqual(before[0]!);
    expect(entries[1]).toEqual({ ...STEVE, level: 4, bypassesPlayerLimit: false });
  });

  test("a ban is written as vanilla writes it; an IP ban by its address", () => {
    expect(addEntry([], "bans", STEVE, "griefing", NOW).entries[0]).toEqual({ ...STEVE, created: "2026-01-02 03:04:05 +0000", source: "Kiln", expires: "forever", reason: "griefing" });
    expect(addEntry([], "ip-bans", { ip: "10.0.0.1" }, "", NOW).entries[0]).toEqual({ ip: "10.0.0.1", created: "2026-01-02 03:04:05 +0000", source: "Kiln", expires: "forever", reason: "Banned by an operator." });
  });

  test("adding what is there or removing what is not changes nothing; names match case-blind, UUIDs too", () => {
    const list = [{ ...STEVE, extra: true }];
    expect(addEntry(list, "whitelist", { name: "steve", uuid: STEVE.uuid }, "", NOW).changed).toBe(false);
    expect(removeEntry(list, "whitelist", "Alex").changed).toBe(false);
    expect(removeEntry(list, "whitelist", "STEVE")).toEqual({ entries: [], changed: true });
    expect(removeEntry(list, "whitelist", STEVE.uuid.replace(/-/g, "").toUpperCase()).changed).toBe(true);
  });

  test("an offline-mode UUID is Java's nameUUIDFromBytes of OfflinePlayer:<name>", () => {
    // Known value: UUID.nameUUIDFromBytes("OfflinePlayer:Notch".getBytes(UTF_8)).
    expect(offlineUuid("Notch")).toBe("b50ad385-829d-3141-a216-7e7d7539ba7f");
  });
});

describe("list files through the jail", () => {
  let root: string;
  let jail: Jail;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), "kiln-players-"));
    jail = new Jail(root);
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));
  const refusal = (fn: () => unknown) => {
    try {
      fn();
    } catch (error) {
      return (error as KilnError).code;
    }
    return "read";
  };

  test("a missing file is an empty list; a written one reads back with unknown fields, and no temporary file stays", async () => {
    expect(readJsonList(jail, "ops.json")).toEqual([]);
    await writeJsonList(jail, "ops.json", [{ name: "Alex", uuid: "1", future: [1, 2] }]);
    expect(readJsonList(jail, "ops.json")).toEqual([{ name: "Alex", uuid: "1", future: [1, 2] }]);
    expect(readdirSync(root)).toEqual(["ops.json"]);
  });

  test("a link out of the folder, a file that is not a JSON list and a huge file are refused, and left as they were", () => {
    const outside = mkdtempSync(join(tmpdir(), "kiln-outside-"));
    writeFileSync(join(outside, "secret.json"), '[{"name":"root"}]');
    symlinkSync(join(outside, "secret.json"), join(root, "whitelist.json"));
    expect(refusal(() => readJsonList(jail, "whitelist.json"))).toBe("ErrPathOutside");
    writeFileSync(join(root, "ops.json"), "not json");
    expect(refusal(() => readJsonList(jail, "ops.json"))).toBe("ErrPlayerFileInvalid");
    writeFileSync(join(root, "banned-ips.json"), '{"ip":"1.2.3.4"}');
    expect(refusal(() => readJsonList(jail, "banned-ips.json"))).toBe("ErrPlayerFileInvalid");
    writeFileSync(join(root, "banned-players.json"), `[${" ".repeat(MAX_PLAYER_FILE_BYTES)}]`);
    expect(refusal(() => readJsonList(jail, "banned-players.json"))).toBe("ErrPlayerFileInvalid");
    expect(readFileSync(join(outside, "secret.json"), "utf8")).toBe('[{"name":"root"}]');
    rmSync(outside, { recursive: true, force: true });
  });
});
