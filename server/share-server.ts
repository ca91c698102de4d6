// Giving someone access to a server by email: an existing account gets the flags at once; an
// unknown email is invited first. The flags follow the server-user rule either
// way, and the invitation follows its own (see invitations.ts: the link reaches the caller only
// when they may create accounts).
//
// Adding an account that has signed up to a server it is not on costs a caller who may not
// create accounts one of their invitations (invite-quota), as an unknown address does: the
// answers differ (the account's name shows in the list), so without a bound any server user could
// test address after address for an account. An account still invited shows no name, and sharing
// it again sends nothing, unless its link has expired: then a fresh one goes. An account whose
// address is unconfirmed gets nothing by it (assertGrantableByAddress).
import type { Context } from "hono";
import type { KilnEnv } from "./context";
import type { Deps } from "./deps";
import { inviteAddress, type InviteResult } from "./invitations";
import { assertGrantableByAddress, findUserByEmail, grantableFlags, isServerUser, putServerUser, type ServerAccess } from "./services/servers";
import { countInvitation } from "./services/users/invite-quota";
import { isDeadInvitation } from "./services/users/unconfirmed-hold";
import { SCOPES, hasScope } from "../core/scopes";

export async function shareServer(c: Context<KilnEnv>, deps: Deps, access: ServerAccess, serverId: string, email: string, requested: Record<string, unknown>): Promise<InviteResult | null> {
  const existing = await findUserByEmail(deps.db, email);
  // An invitation whose link has expired is invited again (a fresh link to the address), keeping
  // what was shared with it: shared again, it was otherwise granted to nobody and told nobody.
  if (existing && !isDeadInvitation(existing)) {
    if (existing.status === "active" && !(await isServerUser(deps.db, serverId, existing.id)) && !hasScope(c.get("user")!.scopes, SCOPES.usersEdit)) {
      // Checked first, so a refused grant costs nothing.
      grantableFlags(access, [], requested);
      await countInvitation(deps.db, c.get("user")!.id);
    }
    // After the count: the refusal, like a grant, tells that the address has an account.
    await assertGrantableByAddress(deps.db, existing, email, serverId);
    await putServerUser(deps.db, access, serverId, existing.id, requested);
    return null;
  }
  // Checked before anyone is invited, so a refused grant leaves no invitation (nor a renewed link) behind.
  grantableFlags(access, [], requested);
  const invited = await inviteAddress(c, deps, email);
  // Another share renewed the expired invitation first: this one is a share of a live invitation now.
  if (invited === null) return await shareServer(c, deps, access, serverId, email, requested);
  await putServerUser(deps.db, access, serverId, invited.id, requested);
  return invited;
}
