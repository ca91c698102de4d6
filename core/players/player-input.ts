// What else a player command carries besides a name: a kick or ban reason (one line of printable
// text, capped) and an IP address for an IP ban (parsed, then written in its canonical form). Each
// refusal is a catalogue error naming the field; nothing unchecked reaches a console.
import { KilnError } from "../errors";

export const MAX_REASON_LENGTH = 200;

/** A reason: trimmed; "" when none. Control characters (line breaks included) and `§` codes are refused. */
export function playerReason(value: unknown, field = "reason"): string {
  if (value === undefined || value === null) return "";
  if (typeof value !== "string") throw new KilnError("ErrFieldRequired", { field });
  const reason = value.trim();
  // \p{Cc} covers line breaks and every other control; U+2028/2029 end lines too; § starts a format code.
  if (/[\p{Cc}\u2028\u2029\u00a7]/u.test(reason)) throw new KilnError("ErrFieldHasControlCharacters", { field });
  if (reason.length > MAX_REASON_LENGTH) throw new KilnError("ErrFieldTooLarge", { field, max: MAX_REASON_LENGTH });
  return reason;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 or IPv6 address in canonical form, else ErrFieldIsInvalidIP. */
export function playerIp(value: unknown, field = "ip"): string {
  if (typeof value !== "string" || value === "") throw new KilnError("ErrFieldRequired", { field });
  if (IPV4.test(value)) return value;
  if (/^[0-9A-Fa-f:.]{2,45}$/.test(value) && value.includes(":")) {
    try {
      // The URL parser knows IPv6 in every spelling and answers its canonical (compressed) form.
      const host = new URL(`http://[${value}]/`).hostname;
      return host.slice(1, -1);
    } catch {
      // not an address
    }
  }
  throw new KilnError("ErrFieldIsInvalidIP", { field });
}
