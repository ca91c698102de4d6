// Recovery codes against a real migrated database: their shape, one use each, another account's
// code refused, only hashes at rest, and a new set replacing the old.
import { beforeEach, describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import type { Db } from "../../../db";
import { openTestDatabase } from "../../../test/helpers/database";
import { createUser } from "../users";
import { RECOVERY_CODE_COUNT, generateRecoveryCodes, normaliseRecoveryCode, recoveryCodesLeft, spendRecoveryCode } from "./recovery-codes";

let db: Db;
let alice: number;
let bob: number;
beforeEach(async () => {
  db = await openTestDatabase();
  alice = (await createUser(db, { username: "alice", email: "alice@example.com", password: "password123" })).id;
  bob = (await createUser(db, { username: "bobby", email: "bob@example.com", password: "password123" })).id;
});

describe("recovery codes", () => {
  test("ten distinct codes of 16 Crockford letters in groups of four", async () => {
    const codes = await generateRecoveryCodes(db, alice);
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    expect(await recoveryCodesLeft(db, alice)).toBe(10);
  });

  test("only SHA-256 hashes are stored, never the code", async () => {
    const codes = await generateRecoveryCodes(db, alice);
    const rows = (await db.$kiln.raw("select code_hash from recovery_codes where user_id = ?", [alice])) as { code_hash: string }[];
    const stored = rows.map((r) => r.code_hash).sort();
    expect(stored).toEqual(codes.map((c) => createHash("sha256").update(c.replace(/-/g, "")).digest("hex")).sort());
    const dump = JSON.stringify((await db.$kiln.raw("select * from recovery_codes")));
    for (const code of codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replace(/-/g, ""));
    }
  });

  test("each code works once, typed in any case, with spaces or without dashes", async () => {
    const [first, second] = await generateRecoveryCodes(db, alice);
    expect(await spendRecoveryCode(db, alice, ` ${first!.toUpperCase().replace(/-/g, " ")} `)).toBe("ok");
    expect(await spendRecoveryCode(db, alice, first)).toBe("used");
    expect(await spendRecoveryCode(db, alice, second!.replace(/-/g, ""))).toBe("ok");
    expect(await recoveryCodesLeft(db, alice)).toBe(8);
  });

  test("another account's code, a made-up code and junk are wrong", async () => {
    const [aliceCode] = await generateRecoveryCodes(db, alice);
    await generateRecoveryCodes(db, bob);
    expect(await spendRecoveryCode(db, bob, aliceCode)).toBe("wrong");
    expect(await spendRecoveryCode(db, alice, "0000-0000-0000-0000")).toBe("wrong");
    for (const junk of [undefined, 123456, "", "123456", "x".repeat(10_000), "$(reboot)", "abcd-efgh-jkmn-pqr'", "abcd\nefgh\njkmn\npqrs"]) expect(await spendRecoveryCode(db, alice, junk)).toBe("wrong");
    // Bob's attempt spent nothing of Alice's.
    expect(await spendRecoveryCode(db, alice, aliceCode)).toBe("ok");
  });

  test("a new set replaces the old one: old codes, used or not, stop working", async () => {
    const old = await generateRecoveryCodes(db, alice);
    await spendRecoveryCode(db, alice, old[0]);
    const fresh = await generateRecoveryCodes(db, alice);
    expect(await spendRecoveryCode(db, alice, old[0])).toBe("wrong");
    expect(await spendRecoveryCode(db, alice, old[1])).toBe("wrong");
    expect(await spendRecoveryCode(db, alice, fresh[0])).toBe("ok");
    expect(await recoveryCodesLeft(db, alice)).toBe(9);
  });

  test("ambiguous letters read as the digits they look like", () => {
    expect(normaliseRecoveryCode("1111-0000-1111-0000")).toBe(normaliseRecoveryCode("iIlL-oOoO-ilIL-OoOo"));
    expect(normaliseRecoveryCode("uuuu-uuuu-uuuu-uuuu")).toBeNull();
  });
});
