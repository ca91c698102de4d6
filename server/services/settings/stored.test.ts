import { afterEach, describe, expect, test } from "bun:test";
import { removeSqliteFolders, twoSqliteConnections } from "../../../test/helpers/database";
import { getSetting, SETTING_KEYS, setSetting, writeSettings } from ".";
import { OTHER_WRITERS_MS } from "../../../db/kept";

afterEach(removeSqliteFolders);

describe("settings kept in memory", () => {
  test("a write through this process shows at once", async () => {
    const [db] = await twoSqliteConnections();
    expect(await getSetting(db, SETTING_KEYS.companyName)).toBeUndefined();
    await setSetting(db, SETTING_KEYS.companyName, "Acme");
    expect(await getSetting(db, SETTING_KEYS.companyName)).toBe("Acme");
    await writeSettings(db, { scopes: ["servers.admin"] }, { [SETTING_KEYS.companyName]: "Acme 2" }, { themes: [] });
    expect(await getSetting(db, SETTING_KEYS.companyName)).toBe("Acme 2");
  });

  test("a refused write leaves the value as stored", async () => {
    const [db] = await twoSqliteConnections();
    await setSetting(db, SETTING_KEYS.companyName, "Kept");
    await expect(writeSettings(db, { scopes: ["servers.admin"] }, { [SETTING_KEYS.companyName]: "Lost", [SETTING_KEYS.defaultTheme]: "no-such-theme" }, { themes: ["kiln"] })).rejects.toThrow();
    expect(await getSetting(db, SETTING_KEYS.companyName)).toBe("Kept");
  });

  test("another connection's commit (a kiln command, another process) shows within the re-check time", async () => {
    const [db, other] = await twoSqliteConnections();
    expect(await getSetting(db, SETTING_KEYS.registrationEnabled)).toBeUndefined();
    // Written by hand, as another process would: nothing in this process is told.
    await other.$kiln.raw("INSERT INTO settings (key, value) VALUES (?, ?)", [SETTING_KEYS.registrationEnabled, "true"]);
    await Bun.sleep(OTHER_WRITERS_MS + 20);
    expect(await getSetting(db, SETTING_KEYS.registrationEnabled)).toBe("true");
  });
});
