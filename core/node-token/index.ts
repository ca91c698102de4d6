// Short-lived tokens that prove a caller knows a node's secret, without ever sending it:
// "v1.<expiry>.<nonce>.<HMAC-SHA256 of the rest>". The panel signs one per call to a node; the
// node signs one when it asks the panel to check an SFTP login.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a token is valid. Short, because one is made per call. */
export const NODE_TOKEN_TTL_S = 60;

export function signNodeToken(secret: string, now = Date.now()): string {
  const expiry = Math.floor(now / 1000) + NODE_TOKEN_TTL_S;
  const body = `v1.${expiry}.${randomBytes(9).toString("base64url")}`;
  return `${body}.${mac(secret, body)}`;
}

/** True for a well-formed token signed with `secret` that has not expired (nor lives too long). */
export function verifyNodeToken(secret: string, token: string | undefined | null, now = Date.now()): boolean {
  if (!token) return false;
  const parts = token.split(".");
  if (parts.length !== 4 || parts[0] !== "v1") return false;
  const expiry = Number(parts[1]);
  const nowS = Math.floor(now / 1000);
  // A token valid for longer than the TTL was not made by us: refuse it (clock skew allowed).
  if (!Number.isInteger(expiry) || expiry < nowS || expiry > nowS + NODE_TOKEN_TTL_S + 30) return false;
  const expected = Buffer.from(mac(secret, parts.slice(0, 3).join(".")));
  const given = Buffer.from(parts[3]!);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function mac(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("base64url");
}
