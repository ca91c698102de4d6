// Inviting someone by email: the account is created as invited and the link is emailed to the
// invited address. Only a caller who may create accounts anyway (users.edit) also gets the link
// back, so an administrator without email can pass it on. Anyone else (a server user adding a
// friend) never sees it: without working email, or without the master URL for the link to name
// (linkOrigin), their invitation is refused and nothing is made, or they could mint an account
// under anyone's address and log in as it; and they send at most a few a day (invite-quota).
import type { Context } from "hono";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import { inviteUser, withdrawInvite } from "./services/users";
import { countInvitation } from "./services/users/invite-quota";
import { emailProvider, readEmailSettings, sendEmail } from "./services/email";
import { masterOrigin, publicOrigin } from "./relying-party";
import { brandName } from "./render";
import { translatorFor } from "../locales/tables";
import { KilnError } from "../core/errors";
import { SCOPES, hasScope } from "../core/scopes";

export interface InviteResult {
  id: number;
  emailSent: boolean;
  /** only for a caller who may create accounts */
  inviteUrl?: string;
}

/** Errors that mean "no email can go out from this panel", as opposed to a bad address. */
const EMAIL_UNAVAILABLE = new Set(["ErrEmailNotConfigured", "ErrServiceNotAvailable", "ErrSettingNotConfigured"]);

/** Invites `email` for a caller who may create accounts (the Users screens): the link is always renewed. */
export async function invite(c: Context<KilnEnv>, deps: Deps, email: string): Promise<InviteResult> {
  const result = await inviteAddress(c, deps, email);
  // inviteAddress leaves a live link as it is only for a caller who may not create accounts.
  if (result === null) throw new KilnError("ErrNoPermission");
  return result;
}

/**
 * Invites `email`; null when a caller who may not create accounts finds the address's invitation
 * live (another renewed it since it was read as expired): its link is at the address, nothing is mailed.
 */
export async function inviteAddress(c: Context<KilnEnv>, deps: Deps, email: string): Promise<InviteResult | null> {
  const actor = c.get("user")!;
  const mayCreateAccounts = hasScope(actor.scopes, SCOPES.usersEdit);
  // Counted before anything can refuse it: an unknown address costs what a known one does (share-server.ts).
  if (!mayCreateAccounts) await countInvitation(deps.db, actor.id);
  const origin = await linkOrigin(c, deps, mayCreateAccounts, hasScope(actor.scopes, SCOPES.admin));
  // Only a caller who may create accounts gets the link back (below).
  const { id, token, created } = await inviteUser(deps.db, actor, email, Date.now(), !mayCreateAccounts);
  if (token === null) return null;
  const inviteUrl = `${origin}/auth/invite?token=${encodeURIComponent(token)}`;
  const t = translatorFor(c.get("locale"));
  const brand = await brandName(deps);
  try {
    await sendEmail(
      { db: deps.db, mailgunBaseUrl: deps.config.mailgunBaseUrl, mailjetBaseUrl: deps.config.mailjetBaseUrl },
      { to: email, subject: t("email.invite.subject", { brand }), text: t("email.invite.text", { brand, url: inviteUrl }) },
    );
    return mayCreateAccounts ? { id, emailSent: true, inviteUrl } : { id, emailSent: true };
  } catch (error) {
    if (mayCreateAccounts && error instanceof KilnError && EMAIL_UNAVAILABLE.has(error.code)) return { id, inviteUrl, emailSent: false };
    // The invitation went nowhere: the account made for it goes again.
    if (created) await withdrawInvite(deps.db, id);
    throw error;
  }
}

/**
 * Where the link points: the master URL, else the address the request came to. That address is
 * its sender's to write (any client sends any Host), so it serves a link that goes back to its
 * sender only, or one the panel mails for an administrator, whose the master URL is to set anyway.
 * Anyone else's emailed link would lead the invited person, token and all, wherever the caller
 * chose, in a genuine email of the panel: a server user would take the account made for the
 * address, a users.edit holder read the password its holder chooses on a copy of the form. Without
 * the master URL their emailed invitation is refused before anything is made (no email at all is
 * said first to a server user: it is what to set up first; a users.edit holder without email gets
 * the link back to pass on, which leads nobody astray but its sender).
 */
async function linkOrigin(c: Context<KilnEnv>, deps: Deps, mayCreateAccounts: boolean, isAdmin: boolean): Promise<string> {
  const master = await masterOrigin(deps.db);
  if (master) return master;
  const mailing = emailProvider(await readEmailSettings(deps.db)) !== "none";
  if (isAdmin || (mayCreateAccounts && !mailing)) return await publicOrigin(c, deps);
  if (!mailing) throw new KilnError("ErrEmailNotConfigured");
  throw new KilnError("ErrInviteNeedsMasterUrl");
}
