import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openDatabase, type Db } from "../../../db";
import { getSetting, SETTING_KEYS, setSetting, writeSettings } from ".";
import { OTHER_WRITERS_MS } from "./stored";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function twoConnections(): [Db, Db] {
  const dir = mkdtempSync(join(tmpdir(), "kiln-settings-"));
  dirs.push(dir);
  return [openDatabase(join(dir, "kiln.db")), openDatabase(join(dir, "kiln.db"))];
}

describe("settings kept in memory", () => {
  test("a write through this process shows at once", () => {
    const [db] = twoConnections();
    expect(getSetting(db, SETTING_KEYS.companyName)).toBeUndefined();
    setSetting(db, SETTING_KEYS.companyName, "Acme");
    expect(getSetting(db, SETTING_KEYS.companyName)).toBe("Acme");
    writeSettings(db, { [SETTING_KEYS.companyName]: "Acme 2" }, { themes: [] });
    expect(getSetting(db, SETTING_KEYS.companyName)).toBe("Acme 2");
  });

  test("a refused write leaves the value as stored", () => {
    const [db] = twoConnections();
    setSetting(db, SETTING_KEYS.companyName, "Kept");
    expect(() => writeSettings(db, { [SETTING_KEYS.companyName]: "Lost", [SETTING_KEYS.defaultTheme]: "no-such-theme" }, { themes: ["kiln"] })).toThrow();
    expect(getSetting(db, SETTING_KEYS.companyName)).toBe("Kept");
  });

  test("another connection's commit (a kiln command, another process) shows within the re-check time", async () => {
    const [db, other] = twoConnections();
    expect(getSetting(db, SETTING_KEYS.registrationEnabled)).toBeUndefined();
    // Written by hand, as another process would: nothing in this process is told.
    other.$client.run("INSERT INTO settings (key, value) VALUES (?, ?)", [SETTING_KEYS.registrationEnabled, "true"]);
    await Bun.sleep(OTHER_WRITERS_MS + 20);
    expect(getSetting(db, SETTING_KEYS.registrationEnabled)).toBe("true");
  });
});
