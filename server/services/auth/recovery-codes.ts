// Two-factor recovery codes: ten per account, made when two-factor is switched on and
// again on request, shown once, each good for one login in place of a TOTP code.
//
// Stored as SHA-256, not argon2id like passwords: a slow hash protects secrets a person chose and
// could guess; these are 16 characters Kiln draws from a 32-letter alphabet (80 random bits), far
// beyond any offline search of a fast hash, while online guesses go through the login throttle.
// A fast hash also lets a code be found by its hash in one indexed read, where argon2id would cost
// ten slow verifications (one per stored code) on every login attempt.
import { createHash } from "node:crypto";
import { and, count, eq, isNull } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";

export const RECOVERY_CODE_COUNT = 10;
const CODE_LENGTH = 16;
// Crockford's base32: no i, l, o or u, so nothing reads as another character.
const ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";

/** One new code, shown as four groups of four ("7k2m-…"). */
function newCode(): string {
  // 256 is a multiple of 32, so masking a random byte picks each letter evenly.
  const letters = Array.from(crypto.getRandomValues(new Uint8Array(CODE_LENGTH)), (b) => ALPHABET[b & 31]).join("");
  return letters.match(/.{4}/g)!.join("-");
}

/** The code as typed, in the one spelling that is hashed (case, spaces and dashes ignored; i/l read as 1, o as 0), or null when it cannot be a code. */
export function normaliseRecoveryCode(input: unknown): string | null {
  if (typeof input !== "string" || input.length > 64) return null;
  const letters = input.toLowerCase().replace(/[\s-]/g, "").replace(/[il]/g, "1").replace(/o/g, "0");
  return letters.length === CODE_LENGTH && [...letters].every((ch) => ALPHABET.includes(ch)) ? letters : null;
}

const hashOf = (normalised: string) => createHash("sha256").update(normalised).digest("hex");

/** Replaces the account's codes with a new set and answers them (the only time they are readable). */
export async function generateRecoveryCodes(db: Db, userId: number): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newCode);
  await db.transaction(async (tx) => {
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId)).run();
    await tx.insert(schema.recoveryCodes).values(codes.map((code) => ({ userId, codeHash: hashOf(normaliseRecoveryCode(code)!) }))).run();
  });
  return codes;
}

export async function recoveryCodesLeft(db: Db, userId: number): Promise<number> {
  return (await db.select({ n: count() }).from(schema.recoveryCodes).where(and(eq(schema.recoveryCodes.userId, userId), isNull(schema.recoveryCodes.usedAt))).get())!.n;
}

/**
 * Spends one of this account's codes: "ok" once, "used" for a code already spent, "wrong" for
 * anything else (another account's code included: the lookup is by account and hash).
 */
export async function spendRecoveryCode(db: Db, userId: number, input: unknown, now = new Date()): Promise<"ok" | "used" | "wrong"> {
  const normalised = normaliseRecoveryCode(input);
  if (normalised === null) return "wrong";
  const match = and(eq(schema.recoveryCodes.userId, userId), eq(schema.recoveryCodes.codeHash, hashOf(normalised)));
  // Marking it used only while unused makes two simultaneous logins with one code spend it once.
  const spent = await db.update(schema.recoveryCodes).set({ usedAt: now }).where(and(match, isNull(schema.recoveryCodes.usedAt))).returning({ userId: schema.recoveryCodes.userId }).all();
  if (spent.length === 1) return "ok";
  return await db.select({ usedAt: schema.recoveryCodes.usedAt }).from(schema.recoveryCodes).where(match).get() ? "used" : "wrong";
}
