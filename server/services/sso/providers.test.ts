import { afterEach, describe, expect, test } from "bun:test";
import { removeSqliteFolders, twoSqliteConnections } from "../../../test/helpers/database";
import { OTHER_WRITERS_MS } from "../../../db/kept";
import { createProvider, deleteProvider, loginProviders, updateProvider } from "./providers";

afterEach(removeSqliteFolders);

const admin = { scopes: ["admin"] };
const discord = (id: string, name: string) => ({ id, name, type: "discord", clientId: "client", clientSecret: "secret" });

describe("the providers a login page offers, kept in memory", () => {
  test("a change through this process shows at once: added, disabled, renamed, deleted", async () => {
    const [db] = await twoSqliteConnections();
    expect(await loginProviders(db)).toEqual([]);
    await createProvider(db, admin, discord("b", "Beta"));
    await createProvider(db, admin, discord("a", "Alpha"));
    expect(await loginProviders(db)).toEqual([{ id: "a", name: "Alpha", type: "discord" }, { id: "b", name: "Beta", type: "discord" }]);
    await updateProvider(db, admin, "a", { enabled: false });
    expect((await loginProviders(db)).map((p) => p.id)).toEqual(["b"]);
    await updateProvider(db, admin, "b", { name: "Zeta" });
    expect(await loginProviders(db)).toEqual([{ id: "b", name: "Zeta", type: "discord" }]);
    await deleteProvider(db, "b");
    expect(await loginProviders(db)).toEqual([]);
  });

  test("a refused change leaves the offered providers as they were", async () => {
    const [db] = await twoSqliteConnections();
    await createProvider(db, admin, discord("a", "Alpha"));
    await expect(createProvider(db, admin, discord("a", "Again"))).rejects.toThrow();
    await expect(updateProvider(db, admin, "a", { enabled: "maybe" })).rejects.toThrow();
    expect(await loginProviders(db)).toEqual([{ id: "a", name: "Alpha", type: "discord" }]);
  });

  test("another connection's commit (a kiln command, another process) shows within the re-check time", async () => {
    const [db, other] = await twoSqliteConnections();
    expect(await loginProviders(db)).toEqual([]);
    // Written by hand, as another process would: nothing in this process is told.
    await other.$kiln.raw("INSERT INTO auth_providers (id, name, type, issuer, client_id, client_secret, scopes, enabled, rules, created_at) VALUES ('x', 'Elsewhere', 'discord', '', 'c', 's', '', 1, '[]', 0)", []);
    await Bun.sleep(OTHER_WRITERS_MS + 20);
    expect(await loginProviders(db)).toEqual([{ id: "x", name: "Elsewhere", type: "discord" }]);
  });
});
