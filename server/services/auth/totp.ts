// Two-factor codes (TOTP: SHA-1, 6 digits, 30 s) with otpauth, and enrolment. A code is accepted
// at most once: the last accepted time step is stored and only later steps pass. Switching it off
// is in ./second-factor.ts, as it also takes a recovery code.
import { recordEvent } from "../activity/record";
import * as OTPAuth from "otpauth";
import { and, eq, lt } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { generateRecoveryCodes } from "./recovery-codes";
import { requireHolderProof } from "./credentials";

const PERIOD = 30;

function totpFor(secret: string, label: string, issuer: string): OTPAuth.TOTP {
  return new OTPAuth.TOTP({ issuer, label, algorithm: "SHA1", digits: 6, period: PERIOD, secret: OTPAuth.Secret.fromBase32(secret) });
}

async function userRow(db: Db, userId: number) {
  const row = await db.select().from(schema.users).where(eq(schema.users.id, userId)).get();
  if (!row) throw new KilnError("ErrUserNotFound");
  return row;
}

/** The time step a code belongs to, or null when it is not valid now (±1 step for clock drift). */
function acceptedStep(secret: string, token: unknown, now: number): number | null {
  if (typeof token !== "string" || !/^\d{6}$/.test(token.trim())) return null;
  const delta = totpFor(secret, "", "").validate({ token: token.trim(), timestamp: now, window: 1 });
  return delta === null ? null : Math.floor(now / 1000 / PERIOD) + delta;
}

/**
 * Checks a code for an account with a secret and burns its time step: "ok", "replayed" for a code
 * of a step already accepted (the same code again within its window, or an older one), or "wrong".
 */
export async function checkOtp(db: Db, userId: number, token: unknown, now = Date.now()): Promise<"ok" | "replayed" | "wrong"> {
  const row = await userRow(db, userId);
  if (!row.otpSecret) return "wrong";
  const step = acceptedStep(row.otpSecret, token, now);
  if (step === null) return "wrong";
  if (step <= row.otpLastStep) return "replayed";
  // Burnt only if no other request burnt it since the read: two logins with one code, at once, get one "ok".
  const burnt = await db.update(schema.users).set({ otpLastStep: step }).where(and(eq(schema.users.id, userId), lt(schema.users.otpLastStep, step))).returning({ id: schema.users.id }).get();
  return burnt ? "ok" : "replayed";
}

/** checkOtp, with a refusal that says which: a wrong code, or one already used. */
export async function requireOtp(db: Db, userId: number, token: unknown, now = Date.now()): Promise<void> {
  const outcome = await checkOtp(db, userId, token, now);
  if (outcome === "replayed") throw new KilnError("ErrOtpCodeUsed");
  if (outcome === "wrong") throw new KilnError("ErrTokenInvalid");
}

export async function otpEnabled(db: Db, userId: number): Promise<boolean> {
  return (await userRow(db, userId)).otpEnabled;
}

/** The enrolment's QR code as a data URL; the qrcode package loads on the first enrolment, so an idle panel does not hold it. */
async function qrCode(uri: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toDataURL(uri, { margin: 1, width: 220 });
}

/** POST /api/self/otp: a new secret (not active until confirmed) and its QR code. */
export async function startOtpEnrolment(db: Db, userId: number, issuer: string): Promise<{ secret: string; img: string }> {
  const row = await userRow(db, userId);
  if (row.otpEnabled) throw new KilnError("ErrInvalidTokenState");
  const secret = new OTPAuth.Secret({ size: 20 }).base32;
  await db.update(schema.users).set({ otpSecret: secret, otpLastStep: 0 }).where(eq(schema.users.id, userId)).run();
  const uri = totpFor(secret, row.email, issuer).toString();
  return { secret, img: await qrCode(uri) };
}

/**
 * An enrolment started but not yet confirmed, shown again (e.g. after a mistyped code): to the
 * holder's own login only. An OAuth2 client's token reads its account's page too, and the secret
 * becomes the account's second factor once the holder confirms it: a leaked bot secret read the
 * seed and made the account's codes from then on.
 */
export async function pendingOtpEnrolment(db: Db, caller: { id: number; clientId?: string }, issuer: string): Promise<{ secret: string; img: string } | null> {
  if (caller.clientId) return null;
  const row = await userRow(db, caller.id);
  if (row.otpEnabled || !row.otpSecret) return null;
  const uri = totpFor(row.otpSecret, row.email, issuer).toString();
  return { secret: row.otpSecret, img: await qrCode(uri) };
}

/**
 * PUT /api/self/otp: a code from the new secret, and the account's current password, switch
 * two-factor on; answers the first recovery codes. The password because a session alone (a stolen
 * cookie, an unlocked computer) switched it on with the thief's secret, and the holder was asked at
 * the next login for a code they never had. An account without a password (a provider made it)
 * gives a fresh sign-in through its provider instead (requireHolderProof; `sessionToken` is the
 * caller's login). Checked before the code, so a refused proof burns no time step.
 */
export async function confirmOtpEnrolment(db: Db, userId: number, token: unknown, password: unknown, sessionToken: string | null | undefined, now = Date.now()): Promise<string[]> {
  const row = await userRow(db, userId);
  if (row.otpEnabled || !row.otpSecret) throw new KilnError("ErrInvalidTokenState");
  await requireHolderProof(db, userId, password, sessionToken);
  const step = acceptedStep(row.otpSecret, token, now);
  if (step === null) throw new KilnError("ErrTokenInvalid");
  if (step <= row.otpLastStep) throw new KilnError("ErrOtpCodeUsed");
  // The code burnt and two-factor switched on in one write, and only while the secret the code was
  // checked against is still the pending one: checked and switched apart, a second enrolment started
  // in between (the session alone starts one) put its own secret in place, and this switched it on.
  const switched = await db
    .update(schema.users)
    .set({ otpEnabled: true, otpLastStep: step })
    .where(and(eq(schema.users.id, userId), eq(schema.users.otpSecret, row.otpSecret), eq(schema.users.otpEnabled, false), lt(schema.users.otpLastStep, step)))
    .returning({ id: schema.users.id })
    .get();
  if (!switched) throw new KilnError("ErrInvalidTokenState");
  await recordEvent(db, "user.totp.enabled", { subject: userId });
  return await generateRecoveryCodes(db, userId);
}

/** DELETE /api/self/otp: an enrolment started but not confirmed is dropped with its secret. */
export async function cancelOtpEnrolment(db: Db, userId: number): Promise<void> {
  const row = await userRow(db, userId);
  if (row.otpEnabled) throw new KilnError("ErrInvalidTokenState");
  await db.update(schema.users).set({ otpSecret: null, otpLastStep: 0 }).where(eq(schema.users.id, userId)).run();
}
