// Every JSON API operation the panel serves, with what it needs and the schema of its body.
import { API_SCHEMAS, type ApiSchemaName } from "../../core/api/schemas";
import { SCOPES } from "../../core/scopes";

export interface Operation {
  method: "get" | "post" | "put" | "delete";
  path: string;
  summary: string;
  /** a scope, "login" for any logged-in caller, or "public" */
  needs: string;
  body?: ApiSchemaName;
}

export const OPERATIONS: Operation[] = [
  { method: "post", path: "/auth/register", summary: "Register (when registration is on); returns token and scopes", needs: "public", body: "register" },
  { method: "post", path: "/auth/login", summary: "Log in; returns session and scopes, or otpNeeded", needs: "public", body: "login" },
  { method: "post", path: "/auth/otp", summary: "Complete a two-factor login; returns session and scopes", needs: "public", body: "otpToken" },
  { method: "post", path: "/auth/reauth", summary: "Renew the session; returns a new session", needs: "login" },
  { method: "post", path: "/auth/logout", summary: "End the session", needs: "public" },
  { method: "post", path: "/auth/invite", summary: "Accept an invitation", needs: "public", body: "invite" },
  { method: "post", path: "/auth/passkey/options", summary: "Start a passkey sign-in", needs: "public" },
  { method: "post", path: "/auth/passkey/login", summary: "Finish a passkey sign-in", needs: "public", body: "passkeyLogin" },
  { method: "post", path: "/oauth2/token", summary: "client_credentials grant (form: grant_type, client_id, client_secret, or Basic auth)", needs: "public" },
  { method: "get", path: "/api/config", summary: "Branding and themes", needs: "public" },
  { method: "get", path: "/api/self", summary: "The caller's account", needs: "login" },
  { method: "put", path: "/api/self", summary: "Change username/email, or password with newPassword", needs: "login", body: "selfUpdate" },
  { method: "get", path: "/api/self/otp", summary: "Whether two-factor is on", needs: "login" },
  { method: "post", path: "/api/self/otp", summary: "Start two-factor enrolment; returns secret and QR image", needs: "login" },
  { method: "put", path: "/api/self/otp", summary: "Confirm enrolment with a code", needs: "login", body: "otpToken" },
  { method: "delete", path: "/api/self/otp/{token}", summary: "Turn two-factor off with a current code", needs: "login" },
  { method: "get", path: "/api/self/passkeys", summary: "List passkeys", needs: "login" },
  { method: "post", path: "/api/self/passkeys/options", summary: "Start registering a passkey", needs: "login" },
  { method: "post", path: "/api/self/passkeys", summary: "Finish registering a passkey", needs: "login", body: "passkeyRegister" },
  { method: "delete", path: "/api/self/passkeys/{id}", summary: "Remove a passkey", needs: "login" },
  { method: "get", path: "/api/self/oauth2", summary: "List account OAuth2 clients", needs: "login" },
  { method: "post", path: "/api/self/oauth2", summary: "Create a client; returns id and secret (shown once)", needs: "login", body: "oauth2Create" },
  { method: "delete", path: "/api/self/oauth2/{id}", summary: "Delete a client and its tokens", needs: "login" },
  { method: "get", path: "/api/userSettings", summary: "The caller's preferences", needs: "login" },
  { method: "put", path: "/api/userSettings/{key}", summary: "Set a preference (dark, preferredTheme)", needs: "login", body: "value" },
  { method: "get", path: "/api/users", summary: "List users (page, limit; username=*text* to search)", needs: SCOPES.usersView },
  { method: "post", path: "/api/users", summary: "Create a user, or invite by email when no password is given", needs: SCOPES.usersEdit, body: "userCreate" },
  { method: "get", path: "/api/users/{id}", summary: "One user", needs: SCOPES.usersView },
  { method: "post", path: "/api/users/{id}", summary: "Update a user", needs: SCOPES.usersEdit, body: "userUpdate" },
  { method: "delete", path: "/api/users/{id}", summary: "Delete a user", needs: SCOPES.usersEdit },
  { method: "get", path: "/api/users/{id}/perms", summary: "A user's scopes", needs: SCOPES.usersView },
  { method: "put", path: "/api/users/{id}/perms", summary: "Replace a user's scopes", needs: SCOPES.usersEdit, body: "perms" },
  { method: "get", path: "/api/nodes", summary: "Nodes, with status online/offline from the heartbeat", needs: SCOPES.nodesView },
  { method: "post", path: "/api/nodes", summary: "Add a node (ports as numbers); its secret is made by the panel", needs: SCOPES.nodesEdit, body: "node" },
  { method: "get", path: "/api/nodes/{id}", summary: "A node", needs: SCOPES.nodesView },
  { method: "put", path: "/api/nodes/{id}", summary: "Change a node", needs: SCOPES.nodesEdit, body: "node" },
  { method: "delete", path: "/api/nodes/{id}", summary: "Delete a node that holds no servers", needs: SCOPES.nodesEdit },
  { method: "get", path: "/api/nodes/{id}/deployment", summary: "The config file (with the node secret) and command for the node's machine", needs: SCOPES.nodesDeploy },
  { method: "get", path: "/api/templates", summary: "Templates (id, name, display, type)", needs: SCOPES.templatesView },
  { method: "get", path: "/api/templates/{id}", summary: "A whole template", needs: SCOPES.templatesView },
  { method: "put", path: "/api/templates/{id}", summary: "Create or replace a template (the whole template as JSON; invalid JSON is ErrInvalidJson)", needs: SCOPES.templatesEdit },
  { method: "delete", path: "/api/templates/{id}", summary: "Delete a template", needs: SCOPES.templatesEdit },
  { method: "get", path: "/api/servers", summary: "Servers the caller can reach (page, limit): id, name, node name, address", needs: "login" },
  { method: "post", path: "/api/servers", summary: "Create a server from a template on a node; returns id (it is installed straight away)", needs: SCOPES.serversCreate, body: "serverCreate" },
  { method: "get", path: "/api/servers/{id}", summary: "A server; with ?perms also the caller's permission flags on it", needs: "server: any access" },
  { method: "delete", path: "/api/servers/{id}", summary: "Delete a server from its node and the panel", needs: "server: deleteServer" },
  { method: "put", path: "/api/servers/{id}/name/{name}", summary: "Rename (no special characters; ErrDuplicateServerName on a clash)", needs: "server: editServerData" },
  { method: "get", path: "/api/servers/{id}/user", summary: "Users with access and their flags", needs: "server: editServerUsers" },
  { method: "put", path: "/api/servers/{id}/user/{email}", summary: "Grant exactly these flags (booleans); an unknown email is invited first", needs: "server: editServerUsers", body: "serverUser" },
  { method: "delete", path: "/api/servers/{id}/user/{email}", summary: "Remove a user's access", needs: "server: editServerUsers" },
  { method: "get", path: "/api/servers/{id}/oauth2", summary: "The caller's OAuth2 clients bound to this server", needs: "server: any access" },
  { method: "post", path: "/api/servers/{id}/oauth2", summary: "Create a client limited to this server (the caller's flags there); returns id and secret", needs: "server: any access", body: "oauth2Create" },
  { method: "delete", path: "/api/servers/{id}/oauth2/{clientId}", summary: "Delete a server-level client", needs: "server: any access" },
  { method: "get", path: "/proxy/daemon/server/{id}", summary: "The server definition", needs: "admin" },
  { method: "post", path: "/proxy/daemon/server/{id}", summary: "Replace the whole server definition", needs: "admin" },
  { method: "post", path: "/proxy/daemon/server/{id}/reload", summary: "Reload the definition from the node's disk", needs: "admin" },
  { method: "get", path: "/proxy/daemon/server/{id}/data", summary: "Variables as a name-to-value map (non-admins see those marked userEdit)", needs: "server: editServerData" },
  { method: "post", path: "/proxy/daemon/server/{id}/data", summary: "Set variables: body {data: {name: value}}", needs: "server: editServerData" },
  { method: "get", path: "/proxy/daemon/server/{id}/status", summary: "{running, installing}", needs: "server: any access" },
  { method: "get", path: "/proxy/daemon/server/{id}/stats", summary: "{cpu (percent), memory (bytes)}", needs: "server: viewServerStats" },
  { method: "get", path: "/proxy/daemon/server/{id}/console", summary: "Console since ?time= (epoch ms): {logs, epoch}", needs: "server: viewServerConsole" },
  { method: "post", path: "/proxy/daemon/server/{id}/console", summary: "Send the text/plain body as a command", needs: "server: sendServerConsole" },
  { method: "post", path: "/proxy/daemon/server/{id}/start", summary: "Start (?wait=true waits until done)", needs: "server: startServer" },
  { method: "post", path: "/proxy/daemon/server/{id}/restart", summary: "Restart: stop, wait, 1 s, start", needs: "server: startServer" },
  { method: "post", path: "/proxy/daemon/server/{id}/stop", summary: "Stop with the template's command or signal", needs: "server: stopServer" },
  { method: "post", path: "/proxy/daemon/server/{id}/kill", summary: "Kill the whole process tree", needs: "server: stopServer" },
  { method: "post", path: "/proxy/daemon/server/{id}/install", summary: "Run the install steps (stops the server first)", needs: "server: installServer" },
  { method: "get", path: "/proxy/daemon/socket/{id}", summary: "WebSocket: send start, stop, kill, restart, install, stat, status, replay {since}, console {command}; receive status, stat, console, error — each filtered by the caller's flags", needs: "server: any access" },
  { method: "get", path: "/api/settings/{key}", summary: "A panel setting (secrets only say whether they are set)", needs: SCOPES.settingsEdit },
  { method: "put", path: "/api/settings/{key}", summary: "Change a panel setting", needs: SCOPES.settingsEdit, body: "value" },
  { method: "post", path: "/api/settings", summary: "Change several settings at once (all or nothing)", needs: SCOPES.settingsEdit, body: "settingsMap" },
];

export { API_SCHEMAS };
