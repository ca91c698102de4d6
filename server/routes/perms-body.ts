// The body of PUT /api/users/{id}/perms in either form: Kiln's `{scopes: [...]}`, or
// PufferPanel's flat flags (`{admin: false, viewServers: true, …}`), where, as in PufferPanel, a
// flag left out is false, so the flags sent are the whole new set. Nothing is dropped unseen: a
// key that is neither a flag nor one of the account fields PufferPanel's client sends along is
// refused (ErrUnknownField), and so is mixing the two forms. Either way setScopes then applies
// the same rules (who may change whom, only scopes the caller holds, never the last admin).
import { KilnError } from "../../core/errors";
import { API_SCHEMAS } from "../../core/api/schemas";
import { PUFFERPANEL_ACCOUNT_FIELDS, PUFFERPANEL_FLAGS } from "../../core/scopes/pufferpanel-flags";
import { parseWith } from "../validate";

const FLAG_NAMES = Object.keys(PUFFERPANEL_FLAGS);
const ACCEPTED = [...FLAG_NAMES, ...PUFFERPANEL_ACCOUNT_FIELDS];

/** The scopes a perms PUT asks for (checked by setScopes afterwards, as any other request). */
export function requestedScopes(body: Record<string, unknown>): unknown {
  // An empty body asks for nothing (a PufferPanel client sends the account's fields at least).
  if ("scopes" in body || Object.keys(body).length === 0) {
    const flag = Object.keys(body).find((key) => key !== "scopes");
    if (flag !== undefined) throw new KilnError("ErrUnknownField", { field: flag, accepted: ["scopes"] }, "send either scopes or PufferPanel's flags, not both");
    return parseWith(API_SCHEMAS.perms, body).scopes;
  }
  const scopes: string[] = [];
  for (const [key, value] of Object.entries(body)) {
    if ((PUFFERPANEL_ACCOUNT_FIELDS as readonly string[]).includes(key)) continue;
    if (!Object.hasOwn(PUFFERPANEL_FLAGS, key)) throw new KilnError("ErrUnknownField", { field: key, accepted: ["scopes", ...ACCEPTED] });
    if (typeof value !== "boolean") throw new KilnError("ErrFieldNotBoolean", { field: key });
    if (value) scopes.push(PUFFERPANEL_FLAGS[key as keyof typeof PUFFERPANEL_FLAGS]);
  }
  return scopes;
}
