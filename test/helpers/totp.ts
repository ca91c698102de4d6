// Real TOTP codes for a secret, as an authenticator app would show them.
import * as OTPAuth from "otpauth";

export function totpCode(secret: string, at = Date.now()): string {
  return new OTPAuth.TOTP({ algorithm: "SHA1", digits: 6, period: 30, secret: OTPAuth.Secret.fromBase32(secret) }).generate({ timestamp: at });
}
