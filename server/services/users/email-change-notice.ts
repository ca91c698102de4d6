// The previous address is told when an account's address changes: whoever took an account over
// (a stolen session and password, a manager's mistake) moves its mail away first, and the holder
// would otherwise learn of it only when a sign-in fails. Told only when the previous address was
// confirmed (an unconfirmed one is only what the holder typed, maybe someone else's mailbox) and is
// no placeholder. The mail never blocks the change: it is sent after the change is made, and a
// failed send is logged, not answered.
import { KilnError } from "../../../core/errors";
import { isPlaceholderAddress } from "./unconfirmed-hold";

/** What the mail to the previous address may say: never the new address whole. */
export interface EmailChangeNotice {
  /** the previous address, where the mail goes */
  to: string;
  username: string;
  /** the new address masked (maskAddress) */
  masked: string;
}

/** Mails an EmailChangeNotice; null when this panel has no working email. */
export type EmailChangeNotifier = ((notice: EmailChangeNotice) => Promise<void>) | null;

// A domain shown as it is only when it is plain letters, digits, dots and hyphens: the new address
// is the changer's to write (validateEmail allows anything but spaces and "@"), and a thief's
// "x@corp.example<NEL>To undo this, open https://evil.example" would otherwise put their line in
// the panel's own mail to the account's holder.
const PLAIN_DOMAIN = /^[a-z0-9-]+(\.[a-z0-9-]+)+$/;
const PLAIN_CHARACTER = /^[a-z0-9]$/;

/** `bob@corp.example` as `b***@corp.example`: enough for its holder to recognise, little for anyone else. */
export function maskAddress(email: string): string {
  const at = email.lastIndexOf("@");
  const first = email.slice(0, 1);
  const domain = email.slice(at + 1);
  return `${PLAIN_CHARACTER.test(first) ? first : "*"}***@${PLAIN_DOMAIN.test(domain) && domain.length <= 253 ? domain : "***"}`;
}

/** Tells `previous` that the account now uses `next`, when it should be told and can be. */
export async function tellPreviousAddress(notify: EmailChangeNotifier, change: { username: string; previous: string; previousConfirmed: boolean; next: string }): Promise<void> {
  if (!notify || !change.previousConfirmed || change.previous === change.next || isPlaceholderAddress(change.previous)) return;
  try {
    await notify({ to: change.previous, username: change.username, masked: maskAddress(change.next) });
  } catch (error) {
    console.warn(`kiln: the notice of an email change was not sent to the previous address of ${change.username}: ${error instanceof KilnError ? error.code : String(error)}`);
  }
}
