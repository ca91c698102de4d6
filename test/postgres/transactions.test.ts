// Transactions hold on both engines as services rely on them: concurrent read-modify-write
// transactions lose no update (SQLite's one writer at a time; PostgreSQL's serializable
// transactions, run again when they race), a rolled-back transaction leaves nothing, and a write
// made outside a transaction while one is open is kept when that one rolls back.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { openDatabase, schema, type Db } from "../../db";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";

const engines: [string, () => Promise<Db>][] = [["SQLite", () => openDatabase(":memory:")]];
if (hasPostgres()) engines.push(["PostgreSQL", async () => openDatabase(await freshPostgresDatabase())]);

const counter = async (db: Db) => Number((await db.select().from(schema.settings).where(eq(schema.settings.key, "counter")).get())?.value ?? 0);

describe.each(engines)("%s", (_, open) => {
  test("40 transactions reading and raising one counter at once: none is lost", async () => {
    const db = await open();
    try {
      await Promise.all(
        Array.from({ length: 40 }, () =>
          db.transaction(async (tx) => {
            const now = await counter(tx);
            await tx.insert(schema.settings).values({ key: "counter", value: String(now + 1) }).onConflictDoUpdate({ target: schema.settings.key, set: { value: String(now + 1) } }).run();
          }),
        ),
      );
      expect(await counter(db)).toBe(40);
    } finally {
      await db.$kiln.close();
    }
  });

  test("a transaction that throws leaves nothing; a write outside it meanwhile stays", async () => {
    const db = await open();
    try {
      // Another request, begun outside the transaction, writes while it is open.
      const outside = Bun.sleep(5).then(() => db.insert(schema.settings).values({ key: "outside", value: "1" }).run());
      await expect(
        db.transaction(async (tx) => {
          await tx.insert(schema.settings).values({ key: "inside", value: "1" }).run();
          await Bun.sleep(20);
          throw new Error("refused");
        }),
      ).rejects.toThrow("refused");
      await outside;
      const keys = (await db.select().from(schema.settings).all()).map((row) => row.key);
      expect(keys).toEqual(["outside"]);
    } finally {
      await db.$kiln.close();
    }
  });

  test("a transaction begun inside another joins it: both roll back together", async () => {
    const db = await open();
    try {
      await expect(
        db.transaction(async () => {
          await db.transaction(async (inner) => void (await inner.insert(schema.settings).values({ key: "nested", value: "1" }).run()));
          throw new Error("outer refused");
        }),
      ).rejects.toThrow("outer refused");
      expect(await db.select().from(schema.settings).all()).toEqual([]);
    } finally {
      await db.$kiln.close();
    }
  });
});
