// PufferPanel's account permissions as flat flags (its PermissionView: `{admin: true,
// viewServers: true, …}`), one for each of Kiln's panel-wide scopes. GET and PUT
// /api/users/{id}/perms speak them beside Kiln's `scopes` list, so PufferPanel's clients can
// read and change an account's permissions.
import { SCOPES, type Scope } from "./index";

export const PUFFERPANEL_FLAGS = {
  admin: SCOPES.admin,
  viewServers: SCOPES.serversView,
  createServers: SCOPES.serversCreate,
  deleteServers: SCOPES.serversDelete,
  editServerAdmin: SCOPES.serversEditAdmin,
  viewNodes: SCOPES.nodesView,
  editNodes: SCOPES.nodesEdit,
  deployNodes: SCOPES.nodesDeploy,
  viewTemplates: SCOPES.templatesView,
  editTemplates: SCOPES.templatesEdit,
  viewUsers: SCOPES.usersView,
  editUsers: SCOPES.usersEdit,
  panelSettings: SCOPES.settingsEdit,
} as const satisfies Record<string, Scope>;

export type PufferPanelFlag = keyof typeof PUFFERPANEL_FLAGS;

/**
 * The account's own fields that PufferPanel's client sends along with the flags (it puts the whole
 * user form to …/perms: its user view, its permission view, and what Kiln's GET /api/users/{id}
 * answered, status, otpEnabled and emailConfirmed). They are not permissions: they change through
 * POST /api/users/{id} (the address's confirmation through its own call), and a perms PUT leaves
 * them as they are.
 */
export const PUFFERPANEL_ACCOUNT_FIELDS = ["id", "username", "email", "password", "newPassword", "serverIdentifier", "status", "otpEnabled", "emailConfirmed"] as const;

/** Every flag, true where the scopes hold it. */
export function scopesToFlags(scopes: readonly string[]): Record<PufferPanelFlag, boolean> {
  return Object.fromEntries(Object.entries(PUFFERPANEL_FLAGS).map(([flag, scope]) => [flag, scopes.includes(scope)])) as Record<PufferPanelFlag, boolean>;
}
