// The error-details dump must never show a password or secret, whatever shape the payload has.
const SECRET_KEY = /pass(word)?|secret|token|session|otp|authorization|cookie|key$/i;
export const MASK = "********";

export function maskSecrets(value: unknown, depth = 0): unknown {
  if (depth > 20) return MASK;
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, depth + 1));
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) && v !== null && v !== undefined && v !== "" ? MASK : maskSecrets(v, depth + 1);
    }
    return out;
  }
  return value;
}
