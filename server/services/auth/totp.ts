// Two-factor codes (TOTP: SHA-1, 6 digits, 30 s) with otpauth. A code is accepted at most once:
// the last accepted time step is stored and only later steps pass.
import * as OTPAuth from "otpauth";
import QRCode from "qrcode";
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";

const PERIOD = 30;

function totpFor(secret: string, label: string, issuer: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: OTPAuth.Secret.fromBase32(secret) });
}

function userRow(db: Db, userId: number) {
  const row = db.select().from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!row) throw new KilnError("ErrUserNotFound");
  return row;
}

/** The time step a code belongs to, or null when it is not valid now (±1 step for clock drift). */
function acceptedStep(secret: string, token: unknown, now: number): number | null {
  if (typeof token !== "string" || !/^\d{6}$/.test(token.trim())) return null;
  const delta = totpFor(secret, "", "").validate({ token: token.trim(), timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/** Verifies a code for an account with two-factor on, and burns its time step. */
export function verifyOtp(db: Db, userId: number, token: unknown, now = Date.now()): boolean {
  const row = userRow(db, userId);
  if (!row.otpSecret) return false;
  const step = acceptedStep(row.otpSecret, token, now);
  if (step === null || step <= row.otpLastStep) return false;
  db.update(schema.users).set({ otpLastStep: step }).where(eq(schema.users.id, userId)).run();
  return true;
}

export function otpEnabled(db: Db, userId: number): boolean {
  return userRow(db, userId).otpEnabled;
}

/** POST /api/self/otp: a new secret (not active until confirmed) and its QR code. */
export async function startOtpEnrolment(db: Db, userId: number, issuer: string): Promise<{ secret: string; img: string }> {
  const row = userRow(db, userId);
  if (row.otpEnabled) throw new KilnError("ErrInvalidTokenState");
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  db.update(schema.users).set({ otpSecret: secret, otpLastStep: 0 }).where(eq(schema.users.id, userId)).run();
  const uri = totpFor(secret, row.email, issuer).toString();
  return { secret, img: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

/** An enrolment started but not yet confirmed, shown again (e.g. after a mistyped code). */
export async function pendingOtpEnrolment(db: Db, userId: number, issuer: string): Promise<{ secret: string; img: string } | null> {
  const row = userRow(db, userId);
  if (row.otpEnabled || !row.otpSecret) return null;
  const uri = totpFor(row.otpSecret, row.email, issuer).toString();
  return { secret: row.otpSecret, img: await QRCode.toDataURL(uri, { margin: 1, width: 220 }) };
}

/** PUT /api/self/otp: a code from the new secret switches two-factor on. */
export function confirmOtpEnrolment(db: Db, userId: number, token: unknown, now = Date.now()): void {
  const row = userRow(db, userId);
  if (row.otpEnabled || !row.otpSecret) throw new KilnError("ErrInvalidTokenState");
  if (!verifyOtp(db, userId, token, now)) throw new KilnError("ErrTokenInvalid");
  db.update(schema.users).set({ otpEnabled: true }).where(eq(schema.users.id, userId)).run();
}

/** DELETE /api/self/otp/{token}: a current code switches two-factor off. */
export function disableOtp(db: Db, userId: number, token: unknown, now = Date.now()): void {
  const row = userRow(db, userId);
  if (!row.otpEnabled) throw new KilnError("ErrInvalidTokenState");
  if (!verifyOtp(db, userId, token, now)) throw new KilnError("ErrTokenInvalid");
  db.update(schema.users).set({ otpEnabled: false, otpSecret: null, otpLastStep: 0 }).where(eq(schema.users.id, userId)).run();
}
