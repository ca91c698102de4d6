// Every JSON API operation the panel serves, with what it needs and the schema of its body.
import { API_SCHEMAS, type ApiSchemaName } from "../../core/api/schemas";
import { SCOPES } from "../../core/scopes";
import { PROXIED_OPERATIONS } from "../../core/contract";

export interface Operation {
  method: "get" | "post" | "put" | "delete";
  path: string;
  summary: string;
  /** a scope, "login" for any logged-in caller, or "public" */
  needs: string;
  body?: ApiSchemaName;
}

/** The node operations the daemon proxy offers, as the contract's table says them (path `{id}`, `{path}` for a file path). */
const PROXIED_DOCS: Operation[] = PROXIED_OPERATIONS.map((op) => ({
  method: op.method.toLowerCase() as Operation["method"],
  path: `/proxy${op.path.replace(/:([A-Za-z]+)/g, "{$1}").replace("*", "{path}")}`,
  summary: op.proxy.summary,
  needs: op.proxy.needs === "admin" ? "admin" : op.proxy.needs === "view" ? "server: any access" : `server: ${op.proxy.needs}`,
}));

export const OPERATIONS: Operation[] = [
  { method: "post", path: "/auth/register", summary: "Register (when registration is on); returns token and scopes", needs: "public", body: "register" },
  { method: "post", path: "/auth/login", summary: "Log in; returns session and scopes, or otpNeeded", needs: "public", body: "login" },
  { method: "post", path: "/auth/otp", summary: "Complete a two-factor login with a current code or a recovery code; returns session and scopes", needs: "public", body: "otpToken" },
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
  { method: "delete", path: "/api/self/otp", summary: "Cancel a two-factor enrolment not yet confirmed (its secret is discarded)", needs: "login" },
  { method: "delete", path: "/api/self/otp/{token}", summary: "Turn two-factor off with a current code or a recovery code", needs: "login" },
  { method: "post", path: "/api/self/otp/recovery", summary: "New two-factor recovery codes (the old ones stop working); needs the password or a current code; returns codes", needs: "login", body: "recoveryRegenerate" },
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
  { method: "post", path: "/api/users", summary: "Create a user, or invite by email when no password is given (the link comes back too; renewing an invitation follows the update rule)", needs: SCOPES.usersEdit, body: "userCreate" },
  { method: "get", path: "/api/users/{id}", summary: "One user", needs: SCOPES.usersView },
  { method: "post", path: "/api/users/{id}", summary: "Update a user (only one holding no scope the caller lacks: ErrUserHasMorePermissions)", needs: SCOPES.usersEdit, body: "userUpdate" },
  { method: "delete", path: "/api/users/{id}", summary: "Delete a user (not oneself, not one holding a scope the caller lacks, not the last administrator: ErrLastAdmin)", needs: SCOPES.usersEdit },
  { method: "get", path: "/api/users/{id}/perms", summary: "A user's scopes", needs: SCOPES.usersView },
  { method: "put", path: "/api/users/{id}/perms", summary: "Replace a user's scopes (only scopes the caller holds change; the last administrator keeps admin)", needs: SCOPES.usersEdit, body: "perms" },
  { method: "get", path: "/api/nodes", summary: "Nodes, with status online/offline from the heartbeat", needs: SCOPES.nodesView },
  { method: "post", path: "/api/nodes", summary: "Add a node (ports as numbers); its secret is made by the panel", needs: SCOPES.nodesEdit, body: "node" },
  { method: "get", path: "/api/nodes/{id}", summary: "A node", needs: SCOPES.nodesView },
  { method: "put", path: "/api/nodes/{id}", summary: "Change a node", needs: SCOPES.nodesEdit, body: "node" },
  { method: "delete", path: "/api/nodes/{id}", summary: "Delete a node that holds no servers", needs: SCOPES.nodesEdit },
  { method: "get", path: "/api/nodes/{id}/deployment", summary: "The config file (with the node secret) and command for the node's machine, the kiln executable's address, and a one-line install command whose deployment token lapses at tokenExpiresAt", needs: SCOPES.nodesDeploy },
  { method: "get", path: "/api/nodes/{id}/kiln", summary: "The kiln executable for the node's machine (streamed; ErrNoExecutable when the panel runs from an unbuilt checkout); also with the node's deployment token as bearer", needs: SCOPES.nodesDeploy },
  { method: "get", path: "/api/nodes/{id}/deployment/config", summary: "The node's config file (with its secret); also with the node's deployment token as bearer", needs: SCOPES.nodesDeploy },
  { method: "get", path: "/api/templates", summary: "Templates (id, name, display, type)", needs: SCOPES.templatesView },
  { method: "get", path: "/api/templates/{id}", summary: "A whole template", needs: SCOPES.templatesView },
  { method: "put", path: "/api/templates/{id}", summary: "Create or replace a template (the whole template as JSON; a version-1 template is converted; invalid JSON is ErrInvalidJson)", needs: SCOPES.templatesEdit },
  { method: "post", path: "/api/templates/import", summary: "The names that can be imported (a list of strings, as PufferPanel answers)", needs: SCOPES.templatesEdit },
  { method: "get", path: "/api/templates/import/repositories", summary: "What each repository offers: { repositories: [{ id, name, builtIn, namespace, layout (kiln: index.json, pufferpanel: pufferpanel/templates' folders, egg: an egg repository's; read from directory listings, or from the archive of a GitHub repository URL), templates: [{ name, display, type, readme }], error? }] }. `?repository=<id>` answers that one repository alone, waited for", needs: SCOPES.templatesEdit },
  { method: "post", path: "/api/templates/import/{name}", summary: "Import one template (body { repository, as }: `kiln`, the built-in library, by default, or a repository URL from the settings; `as` stores it under another id, which must be free, else ErrTemplateExists); without `as` it replaces a template with the same id. The stored template records its repository. A PufferPanel template (v1, v2, v2.6, v3) is converted to keep its meaning; the Kiln-Import-Format header says which format it was read as (kiln, v1, v2, v3). ErrNoTemplate for an unknown name, ErrTemplateRepositoryFailed when the repository does not answer", needs: SCOPES.templatesEdit },
  { method: "delete", path: "/api/templates/{id}", summary: "Delete a template", needs: SCOPES.templatesEdit },
  { method: "get", path: "/api/servers", summary: "Servers the caller can reach (page, limit): id, name, node name, address; players {online, max} where the caller may read them (viewServerConsole or viewServerStats), null when stopped, without a query or without an answer", needs: "login" },
  { method: "post", path: "/api/servers", summary: "Create a server from a template on a node; returns id (it is installed straight away)", needs: SCOPES.serversCreate, body: "serverCreate" },
  { method: "get", path: "/api/servers/live", summary: "Live values of up to 100 servers (?ids=a,b): status, and CPU and memory where the caller may see stats; servers the caller cannot see are left out", needs: "login" },
  { method: "get", path: "/api/servers/{id}", summary: "A server; with ?perms also the caller's permission flags on it", needs: "server: any access" },
  { method: "delete", path: "/api/servers/{id}", summary: "Delete a server from its node and the panel", needs: "server: deleteServer" },
  { method: "put", path: "/api/servers/{id}/name/{name}", summary: "Rename (no special characters; ErrDuplicateServerName on a clash)", needs: "server: editServerData" },
  { method: "get", path: "/api/servers/{id}/user", summary: "Users with access and their flags", needs: "server: editServerUsers" },
  { method: "put", path: "/api/servers/{id}/user/{email}", summary: "Set exactly these flags (booleans), or a preset (\"preset\": viewer, operator or coOwner) for its flags; only flags the caller holds may change. An unknown email is invited by email; the link comes back only to users.edit holders, and without email others get ErrEmailNotConfigured", needs: "server: editServerUsers", body: "serverUser" },
  { method: "delete", path: "/api/servers/{id}/user/{email}", summary: "Remove a user's access (not one holding a flag the caller lacks: ErrUserHasMorePermissions)", needs: "server: editServerUsers" },
  { method: "get", path: "/api/servers/{id}/oauth2", summary: "The caller's OAuth2 clients bound to this server", needs: "server: any access" },
  { method: "post", path: "/api/servers/{id}/oauth2", summary: "Create a client limited to this server (the caller's flags there); returns id and secret", needs: "server: any access", body: "oauth2Create" },
  { method: "delete", path: "/api/servers/{id}/oauth2/{clientId}", summary: "Delete a server-level client", needs: "server: any access" },
  { method: "get", path: "/api/servers/{id}/players/{list}", summary: "A Minecraft Java server's list ({list}: whitelist, ops, bans or ip-bans) as its file holds it: {list, entries: [{name, uuid, ip, reason, created, expires, source, level}], enabled (whitelist: whether it is on)}", needs: "server: managePlayers" },
  { method: "post", path: "/api/servers/{id}/players/{list}", summary: "Add to the list: {name} (3–16 of A–Z a–z 0–9 _, or a UUID), {ip} for ip-bans, an optional {reason} for bans. Running: the console command, confirmed from its answer (ErrPlayerCommandTimeout, ErrPlayerCommandRefused); stopped: the file, keeping every other field (a player who never joined an online-mode server: ErrPlayerUnknown). Answers {changed}", needs: "server: managePlayers" },
  { method: "delete", path: "/api/servers/{id}/players/{list}", summary: "Remove from the list: body {name} or {ip} as for adding. Answers {changed}", needs: "server: managePlayers" },
  { method: "post", path: "/api/servers/{id}/players/whitelist/enabled", summary: "Turn the whitelist on or off: {enabled: true|false}. Answers {changed}", needs: "server: managePlayers" },
  { method: "post", path: "/api/servers/{id}/players/{name}/kick", summary: "Kick an online player, with an optional {reason} (one line, at most 200 characters); ErrServerOffline when stopped", needs: "server: managePlayers" },
  { method: "get", path: "/api/servers/{id}/mods/platform", summary: "What the Minecraft Java server is, read from its files: {platform (vanilla, paper, purpur, spigot, fabric, quilt, forge, neoforge or null), gameVersion, loaderVersion?, folder (mods or plugins), detectedFrom}", needs: "server: manageMods" },
  { method: "get", path: "/api/servers/{id}/mods/search", summary: "Search Modrinth for the server's loader and game version (?q=, category=, sort=relevance|downloads|updated|newest, page=): {hits: [{source, projectId, slug, title, description, downloads, iconUrl?, categories}], total}", needs: "server: manageMods" },
  { method: "get", path: "/api/servers/{id}/mods/projects/{projectId}", summary: "A project: title, description, body (Markdown, shown as text), license, and its versions for the server's loaders with whether each fits its game version", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/mods/plan", summary: "Plan installing {source: modrinth, projectId, versionId?}: the version for the server, its required dependencies (transitively) not installed yet, the installed file it replaces. Answers {planId, folder, add, update, remove, warnings: [{code: incompatible|wrongLoader|wrongGameVersion|missingDependency, title, other?}], blocked}; a plan is kept 15 minutes for its maker", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/mods/remove", summary: "Plan removing {fileNames, withUnneededDependencies}: with the flag, the dependencies they required that nothing left needs go too. Answers a plan as above", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/mods/plan/{planId}/apply", summary: "Apply a plan (202): the node takes a backup, downloads every file checking its size and hash, then changes the folder; answers the change {changeId, state, step, downloaded, total, …}. A blocked plan: ErrModPlanBlocked", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/mods/enabled", summary: "Disable or enable installed files: {fileNames, enabled}. Disabled files are renamed to .disabled, which the game skips; a change like any other (202)", needs: "server: manageMods" },
  { method: "get", path: "/api/servers/{id}/mods/installed", summary: "The files in mods/ or plugins/: [{fileName, enabled, size, source?, projectId?, versionId?, versionNumber?, title?, updateAvailable?: {versionId, versionNumber}}], recognised by hash", needs: "server: manageMods" },
  { method: "get", path: "/api/servers/{id}/mods/changes", summary: "{undoable}: the id of the last change, which can be undone, or null", needs: "server: manageMods" },
  { method: "get", path: "/api/servers/{id}/mods/changes/{changeId}", summary: "A change's progress and outcome: {state: running|done|failed|undone, step?, downloaded, total, backup?, error?, added, removed, disabled, enabled}", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/mods/changes/{changeId}/undo", summary: "Undo the last change: its added files go (unless changed since), what it removed or replaced comes back; only the last change, once (ErrModUndoUnavailable)", needs: "server: manageMods" },
  { method: "get", path: "/api/servers/{id}/modpacks/search", summary: "Search Modrinth's modpacks for the server's loader and Minecraft version (?q=, sort=relevance|downloads|updated|newest, page=): {hits, total} as for mods", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/modpacks/uploads", summary: "Upload a .mrpack of one's own (the body is the file, at most 256 MB): the node keeps it for an hour, outside the server's folder. Answers 201 {upload, size, sha512}, which a plan names", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/modpacks/plan", summary: "Plan installing a modpack onto the server {source: modrinth, projectId, versionId?} (the newest release when no version is named), or an uploaded one {upload, sha512} (its bytes must still have that hash): the node downloads the .mrpack, checks Modrinth's SHA-512 and reads it. Answers {planId, projectId, versionId, title, versionNumber, pack: {url, size, sha512}, loader, loaderVersion, gameVersion, files: [{path, size, replaces}], overrides: [{path, size, replaces}], warnings: [{code: wrongLoader|wrongGameVersion, title, other}], blocked}; the server gets every file whose env.server is not unsupported, then overrides/ and server-overrides/", needs: "server: manageMods" },
  { method: "post", path: "/api/servers/{id}/modpacks/plan/{planId}/apply", summary: "Apply a modpack plan (202): the node takes a backup, downloads the pack and every file checking sizes and hashes, then lays them over the folder (what they replace is kept for the undo). Answers the change; follow and undo it under /mods/changes. A blocked plan: ErrModPlanBlocked; a pack that writes where a pack may not, or has no readable index: ErrModPackInvalid", needs: "server: manageMods" },
  { method: "get", path: "/proxy/daemon/", summary: "PufferPanel's daemon root: {message: \"daemon is running\"} (HEAD: 204)", needs: "login" },
  ...PROXIED_DOCS,
  { method: "get", path: "/proxy/daemon/socket/{id}", summary: "WebSocket: send {type} with the fields beside it: start, stop, kill, restart, install, stat, status, replay {since: epoch ms, or s below 10^11}, console {command}, file {action get|create|delete, path}; receive {type, data}: status, stat, console, file, each filtered by the caller's flags; a refused message is answered {error: {code, msg, metadata}} with no type", needs: "server: any access" },
  { method: "get", path: "/api/settings/{key}", summary: "A panel setting (secrets only say whether they are set)", needs: SCOPES.settingsEdit },
  { method: "put", path: "/api/settings/{key}", summary: "Change a panel setting", needs: SCOPES.settingsEdit, body: "value" },
  { method: "put", path: "/api/settings", summary: "Structured settings: {modSources: {modrinth|curseforge|hangar|spiget: {enabled, url}}} (the add-on sources and their base URLs)", needs: SCOPES.settingsEdit },
  { method: "post", path: "/api/settings", summary: "Change several settings at once (all or nothing)", needs: SCOPES.settingsEdit, body: "settingsMap" },
];

export { API_SCHEMAS };
