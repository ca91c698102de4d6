// The body of PUT /api/users/{id}/perms in either form: Kiln's `{scopes: [...]}`, or
// PufferPanel's flat flags (`{admin: false, viewServers: true, …}`). PufferPanel's browser client
// sends the whole user object it shows: the account's fields, the flags it edited, and whatever
// else its GET answers held, here Kiln's `scopes` list beside the flags. So both may come
// together: a flag sent decides its scope; a scope no flag names (and a flag left out, when a
// `scopes` list is there) follows the list; without a list, a flag left out is false, as in
// PufferPanel, so the flags sent are the whole new set. Nothing is dropped unseen: a key that is
// neither a flag, `scopes`, nor a field of the account (PufferPanel's or Kiln's own answer) is
// refused (ErrUnknownField). Either way setScopes then applies the same rules (who may change
// whom, only scopes the caller holds, never the last admin).
import { KilnError } from "../../core/errors";
import { API_SCHEMAS } from "../../core/api/schemas";
import { PUFFERPANEL_ACCOUNT_FIELDS, PUFFERPANEL_FLAGS } from "../../core/scopes/pufferpanel-flags";
import { parseWith } from "../validate";

const FLAG_NAMES = Object.keys(PUFFERPANEL_FLAGS);
const ACCEPTED = ["scopes", ...FLAG_NAMES, ...PUFFERPANEL_ACCOUNT_FIELDS];
const FLAGGED_SCOPES = new Set<string>(Object.values(PUFFERPANEL_FLAGS));

/** The scopes a perms PUT asks for (checked by setScopes afterwards, as any other request). */
export function requestedScopes(body: Record<string, unknown>): unknown {
  const flags = Object.keys(body).filter((key) => Object.hasOwn(PUFFERPANEL_FLAGS, key));
  for (const key of Object.keys(body)) {
    if (!ACCEPTED.includes(key)) throw new KilnError("ErrUnknownField", { field: key, accepted: ACCEPTED });
  }
  // Nothing at all is Kiln's form without its list: refused (scopes is required), never "no scopes".
  const listed = "scopes" in body || Object.keys(body).length === 0 ? parseWith(API_SCHEMAS.perms, { scopes: body.scopes }).scopes : undefined;
  // An account's fields alone are PufferPanel's form with every flag left out: none.
  if (flags.length === 0) return listed ?? [];
  const scopes = new Set((listed ?? []).filter((scope) => !FLAGGED_SCOPES.has(scope)));
  for (const [flag, scope] of Object.entries(PUFFERPANEL_FLAGS)) {
    const value = Object.hasOwn(body, flag) ? body[flag] : (listed?.includes(scope) ?? false);
    if (typeof value !== "boolean") throw new KilnError("ErrFieldNotBoolean", { field: flag });
    if (value) scopes.add(scope);
  }
  return [...scopes];
}
