// The second factor where a TOTP code is asked for at login or to switch two-factor off: a code
// from the app, or one of the account's recovery codes. Each refusal says which case it was, so
// the person knows whether to retype, wait for the next code, or take another recovery code.
import { recordEvent } from "../activity/record";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { requireOtp } from "./totp";
import { generateRecoveryCodes, spendRecoveryCode } from "./recovery-codes";
import { requirePassword } from "./credentials";

/** Accepts a current TOTP code (six digits) or an unused recovery code of this account, else throws. */
export async function verifySecondFactor(db: Db, userId: number, token: unknown, now = Date.now()): Promise<void> {
  const text = typeof token === "string" ? token.trim() : "";
  if (/^\d{6}$/.test(text)) return await requireOtp(db, userId, text, now);
  const outcome = await spendRecoveryCode(db, userId, text, new Date(now));
  if (outcome === "used") throw new KilnError("ErrRecoveryCodeUsed");
  if (outcome === "wrong") throw new KilnError("ErrTokenInvalid");
}

/** A refusal of verifySecondFactor: counted by the login throttle as a failed guess. */
export const isSecondFactorFailure = (error: unknown): boolean =>
  error instanceof KilnError && (error.code === "ErrTokenInvalid" || error.code === "ErrOtpCodeUsed" || error.code === "ErrRecoveryCodeUsed");

/** DELETE /api/self/otp/{token}: a current code or a recovery code switches two-factor off, and the recovery codes go with it. */
export async function disableOtp(db: Db, userId: number, token: unknown, now = Date.now()): Promise<void> {
  const row = await db.select({ otpEnabled: schema.users.otpEnabled }).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!row) throw new KilnError("ErrUserNotFound");
  if (!row.otpEnabled) throw new KilnError("ErrInvalidTokenState");
  await verifySecondFactor(db, userId, token, now);
  await db.transaction(async (tx) => {
    await tx.update(schema.users).set({ otpEnabled: false, otpSecret: null, otpLastStep: 0 }).where(eq(schema.users.id, userId)).run();
    await tx.delete(schema.recoveryCodes).where(eq(schema.recoveryCodes.userId, userId)).run();
    await recordEvent(tx, "user.totp.disabled", { subject: userId });
  });
}

/**
 * A new set of recovery codes (the old ones stop working), for someone who proves again that they
 * hold the account: its current password, or a current TOTP code. A session alone is not enough.
 */
export async function regenerateRecoveryCodes(db: Db, userId: number, proof: { password?: unknown; token?: unknown }, now = Date.now()): Promise<string[]> {
  const row = await db.select({ otpEnabled: schema.users.otpEnabled }).from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!row) throw new KilnError("ErrUserNotFound");
  if (!row.otpEnabled) throw new KilnError("ErrInvalidTokenState");
  if (typeof proof.password === "string" && proof.password !== "") {
    await requirePassword(db, userId, proof.password);
  } else if (typeof proof.token === "string" && proof.token.trim() !== "") {
    await requireOtp(db, userId, proof.token, now);
  } else {
    throw new KilnError("ErrFieldRequired", { field: "password" });
  }
  await recordEvent(db, "user.recoveryCodes.generated", { subject: userId });
  return await generateRecoveryCodes(db, userId);
}
