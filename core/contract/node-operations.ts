// Every call the panel makes to a node, once: method, path (Hono's syntax: `:param`, and `*` for a
// file path of any depth), and what the panel's daemon proxy offers of it to users (the right it
// needs, whether a GET changes state, what the API documentation says). The node's routes, the
// proxy's rules, the API documentation's operation list and the panel's typed node client all
// derive from this table; test/node-contract.test.ts fails when the node serves a route the table
// lacks or the table names one the node does not serve.
import type { ServerRequirement } from "../scopes/server-access";
import type { EventName } from "../activity/events";
import type { BackupSetting } from "../activity/property-values";
import { POWER_ACTION_RULES, POWER_ACTIONS, type PowerAction } from "./power-actions";
import { PLAYER_LIST_PAGE } from "../players/list-page";

export type NodeMethod = "GET" | "POST" | "PUT" | "DELETE";

/** How long the panel waits for the node to begin answering. */
export type NodeTimeout =
  /** NODE_TIMEOUT_MS: a question or a small change. */
  | "quick"
  /** Transfers and unpacking: as long as the data takes; the caller leaving ends them. */
  | "transfer"
  /** Removing a server stops it first (a stop may take its full timeout) and deletes its folder. */
  | "removal";

export interface NodeOperation {
  method: NodeMethod;
  path: string;
  timeout?: NodeTimeout;
  /** Its body is a file streamed to disk (an upload): the node's cap on request bodies does not apply. */
  streamsBody?: true;
  /**
   * What the activity log records when a user's call succeeds (the panel's proxy and its typed
   * node client both record it: server/services/activity/operations), or null when its service
   * records it or it changes nothing a user asked for. Every operation that changes something
   * says which (test/activity-operations.test.ts fails on one that does not).
   */
  activity?: EventName | null;
  /**
   * What that row takes from the caller's request besides the path's parameters (which always
   * win): these query keys, and these keys of a JSON object body (an array body is read as
   * `paths`). Nothing else a caller sends reaches the row, so a property the event keeps for
   * another door (`via`: the node's SFTP report, the socket proxy) or one the path already names
   * cannot be claimed. `fixed`: what the operation itself states (which backup setting it sets).
   */
  activityProperties?: { query?: readonly string[]; body?: readonly string[]; fixed?: Readonly<Record<string, string>> };
  /**
   * Asked of a server while it is being moved, or changes neither its folder nor its definition:
   * the node lets it through then. Every other operation under /daemon/server/:id that changes
   * state (not a GET, or a GET that changes state) is refused while the server's folder is offered
   * for a move (ErrTransferInProgress): the target copies folder and definition as they are then,
   * and a change after that would be lost at the switch (daemon/servers/folder-changes).
   */
  whileMoving?: true;
  /**
   * The node keeps a place of this kind for each server's owner and administrators (a backup's
   * restic readers: daemon/backups/reader-slots), so its co-users together never hold them all:
   * the panel marks its owner's and administrators' calls with OWNERS_CALL_HEADER.
   */
  keptForOwners?: true;
  /** Offered to users through /proxy/daemon/server/{id}/… (only operations under /daemon/server/:id are). */
  proxy?: {
    needs: ServerRequirement;
    /** A GET that changes state (PufferPanel's extract): the same-origin rule holds for it as for a POST. */
    changesState?: true;
    /** What the API documentation says of it. */
    summary: string;
  };
}

const SERVER = "/daemon/server/:id";

/**
 * Says that a call of a keptForOwners operation is the server's owner's or an administrator's.
 * The panel sets it (never passing a caller's on) and only the panel reaches the node, so the node
 * takes it as said.
 */
export const OWNERS_CALL_HEADER = "x-kiln-owners";

/** Whether a call's OWNERS_CALL_HEADER says it is the owner's or an administrator's. */
export const ownersCall = (value: string | undefined | null): boolean => value === "1";

/** A server id as a node's answers may name one: what the panel reads from a node is checked against it. */
export const SERVER_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const POWER_SUMMARIES: Record<PowerAction, string> = {
  start: "Start (?wait=true waits until the server is ready)",
  restart: "Restart: stop, wait, 1 s, start",
  stop: "Stop with the template's command or signal",
  kill: "Kill the whole process tree (?wait=true waits until it is gone)",
  install: "Run the install steps again (a running server is stopped and started again afterwards); files changed since the last install are kept unless ?keepChanged=false",
};

const powerOperations = Object.fromEntries(
  POWER_ACTIONS.map((action) => [
    action,
    // A stop or a kill runs no program: a move stops the server it moves.
    { method: "POST", path: `${SERVER}/${action}`, activity: `server.power.${action}`, ...(POWER_ACTION_RULES[action].runsProgram ? {} : { whileMoving: true }), proxy: { needs: POWER_ACTION_RULES[action].needs, summary: POWER_SUMMARIES[action] } },
  ]),
) as Record<PowerAction, NodeOperation>;

export const NODE_OPERATIONS = {
  nodeStatus: { method: "GET", path: "/daemon" },
  listServers: { method: "GET", path: "/daemon/server" },
  createServer: { method: "PUT", path: SERVER, activity: null },
  deleteServer: { method: "DELETE", path: SERVER, timeout: "removal", activity: null, whileMoving: true },
  definition: { method: "GET", path: SERVER, proxy: { needs: "admin", summary: "The server definition" } },
  replaceDefinition: { method: "POST", path: SERVER, activity: "server.definition.replaced", proxy: { needs: "admin", summary: "Replace the whole server definition" } },
  reload: { method: "POST", path: `${SERVER}/reload`, activity: "server.reloaded", proxy: { needs: "admin", summary: "Reload the definition from the node's disk" } },
  data: { method: "GET", path: `${SERVER}/data`, proxy: { needs: "editServerData", summary: "Variables as a name-to-value map (non-admins see those marked userEdit)" } },
  setData: {
    method: "POST",
    path: `${SERVER}/data`,
    activity: "server.variables.changed",
    activityProperties: { body: ["data"] },
    proxy: { needs: "editServerData", summary: "Set variables: body {data: {name: value}}, or each variable whole as PufferPanel 2 and puffMob send it ({data: {name: {value, …}}}: only the value changes; another field must match the server's)" },
  },
  tasks: { method: "GET", path: `${SERVER}/tasks`, proxy: { needs: "editServerData", summary: "The server's tasks: {tasks: a map by id of {name, cronSchedule (null: no schedule), operations, triggers?, cooldownSeconds?, conditions?, owner, lastRun?, nextRun}}" } },
  createTask: {
    method: "POST",
    path: `${SERVER}/tasks`,
    activity: "server.task.created",
    activityProperties: { body: ["name"] },
    proxy: { needs: "editServerData", summary: "Create a task {name, cronSchedule, operations, triggers?, cooldownSeconds?, conditions?}; answers {id}. Triggers (at most 10) start it besides its schedule: {type: console, pattern (at most 200 characters), regex? (RE2)}, {type: crash}, {type: state, state: started|stopped|installed}, {type: resource, metric: cpu|memory|disk|players, above, forSeconds}, {type: player, on: join|leave}; cooldownSeconds (default 10, at least 1) between triggered runs; conditions {state?: running|stopped, between?: {from, to} (HH:MM, the node's time), variable?, equals?} for scheduled and triggered runs. A bad trigger is ErrTaskTriggerInvalid. Each operation needs its own right: console sendServerConsole, waitForConsole viewServerConsole, start startServer, stop/kill stopServer, restart both, file steps putServerFiles, command and download steps admin; a console trigger needs viewServerConsole, a resource or player trigger viewServerStats" },
  },
  replaceTask: { method: "PUT", path: `${SERVER}/tasks/:taskId`, activity: "server.task.changed", activityProperties: { body: ["name"] }, proxy: { needs: "editServerData", summary: "Replace a task (same body and checks as create)" } },
  deleteTask: { method: "DELETE", path: `${SERVER}/tasks/:taskId`, activity: "server.task.deleted", proxy: { needs: "editServerData", summary: "Delete a task (a run in progress is cancelled)" } },
  runTask: { method: "POST", path: `${SERVER}/tasks/:taskId/run`, activity: "server.task.run", proxy: { needs: "editServerData", summary: "Run a task now (202), whatever its triggers and conditions; the caller must hold the rights for every operation in it; progress shows on the console" } },
  status: { method: "GET", path: `${SERVER}/status`, proxy: { needs: "view", summary: "{running, installing}, and starting: true while its ready marker has not appeared; crash: {cause, detail?, at, phase run|install, where? {source, line|fromEnd}, looked?} after the server stopped unasked or its install failed, until its next start (docs/crash-causes.md)" } },
  stats: { method: "GET", path: `${SERVER}/stats`, proxy: { needs: "viewServerStats", summary: "{cpu (percent), memory (bytes)}" } },
  // createServer and deleteServer (activity null) are recorded by the panel's server service as
  // server.created and server.deleted, with the server's name.
  // Not proxied: reading players needs either of two flags (core/players/players-access), which
  // the panel's own GET /api/servers/{id}/players checks; the proxy's rules name one requirement.
  players: { method: "GET", path: `${SERVER}/players` },
  // The player counts of several servers in one call (?ids=a,b,…, at most 100; unknown ids left
  // out): {counts: {id: {online, max} | null}}. For the list API, which asks once per node.
  playerCounts: { method: "GET", path: "/daemon/player-counts" },
  // Several servers' status (as `status` answers it) and players (as `players` does) in one call
  // (?ids=a,b,…, at most 100; unknown ids left out): {servers: {id: {status, players}}}. For the
  // server list page and its island, which ask once per node rather than once or twice per server.
  listStatuses: { method: "GET", path: "/daemon/list-statuses" },
  // Every server's figures and the node's machine in one answer (core/metrics), for the panel's
  // Prometheus metrics: its collector asks each node every interval; /metrics never waits for one.
  nodeMetrics: { method: "GET", path: "/daemon/metrics" },
  // Moving a server to another node (the panel's transfer service): the source offers the
  // server's folder under a ticket only the panel and the target learn; the target pulls it file by
  // file from the source (node to node, at TRANSFER_SOURCE_PATHS, each file checked against the
  // source's SHA-256), reporting progress; a pull is cancelled, an offer revoked, when done.
  transferOffer: { method: "POST", path: `${SERVER}/transfer/offer`, activity: null, whileMoving: true },
  transferRevoke: { method: "DELETE", path: `${SERVER}/transfer/offer`, activity: null, whileMoving: true },
  transferPull: { method: "POST", path: `${SERVER}/transfer/pull`, activity: null, whileMoving: true },
  transferProgress: { method: "GET", path: `${SERVER}/transfer/pull` },
  transferCancel: { method: "DELETE", path: `${SERVER}/transfer/pull`, activity: null, whileMoving: true },
  console: { method: "GET", path: `${SERVER}/console`, proxy: { needs: "viewServerConsole", summary: "Console since ?time= (PufferPanel's Unix seconds: the seconds after it; milliseconds from 10^11 on): {logs, epoch (seconds), epochMs}; ?tail=N keeps only the newest N characters" } },
  // A command reaches the running server's own process, whose writes the final copy takes.
  sendCommand: { method: "POST", path: `${SERVER}/console`, activity: "server.console.command", whileMoving: true, proxy: { needs: "sendServerConsole", summary: "Send the text/plain body as a command" } },
  installChanges: { method: "GET", path: `${SERVER}/install/changes`, proxy: { needs: "installServer", summary: "What an install would keep: the files and folders changed since the last install" } },
  ...powerOperations,
  fileRoot: { method: "GET", path: `${SERVER}/file`, proxy: { needs: "viewServerFiles", summary: "The server folder's listing: {files: [{name, isFile, size, modifyTime}], path, truncated} (truncated: more than 10,000 entries, of which files holds 10,000)" } },
  file: { method: "GET", path: `${SERVER}/file/*`, timeout: "transfer", activity: "server.file.read", proxy: { needs: "viewServerFiles", summary: "A folder: {files: [{name, isFile, size, modifyTime}], path, truncated} (truncated: more than 10,000 entries, of which files holds 10,000); a file: its bytes (attachment, sandboxed) with its version in ETag (strong) and Last-Modified, or one byte range of them with Range (206; If-Range with its Last-Modified or ETag; 416 ErrFieldNotBetween past the end), so a download cut short resumes" } },
  putFile: { method: "PUT", path: `${SERVER}/file/*`, timeout: "transfer", streamsBody: true, activity: "server.file.write", activityProperties: { query: ["folder"] }, proxy: { needs: "putServerFiles", summary: "Upload: multipart field file, streamed and written atomically; answers {path, size} and the new version's ETag. With If-Match (the ETag the file was read with; * for any file there) or If-Unmodified-Since, a file that is another version by then is 412 ErrFileChanged and nothing is written; without them the file is replaced whatever it holds. ?folder=true creates a folder instead" } },
  deleteFile: { method: "DELETE", path: `${SERVER}/file/*`, activity: "server.file.delete", proxy: { needs: "putServerFiles", summary: "Delete a file, a symlink or a whole folder" } },
  archive: { method: "POST", path: `${SERVER}/archive/*`, timeout: "transfer", activity: "server.file.archive", activityProperties: { body: ["paths"] }, proxy: { needs: "putServerFiles", summary: "Zip the JSON list of paths into {path} (a taken name gets ' (2)'…); answers {path} used" } },
  extract: { method: "GET", path: `${SERVER}/extract/*`, timeout: "transfer", activity: "server.file.extract", activityProperties: { query: ["destination"] }, proxy: { needs: "putServerFiles", changesState: true, summary: "Unpack zip, jar, tar, tar.gz/tgz or gz into ?destination= (default: the archive's folder)" } },
  extractPreview: {
    method: "GET",
    path: `${SERVER}/extract-preview/*`,
    timeout: "transfer",
    proxy: { needs: "putServerFiles", summary: "What extracting would do, writing nothing: {destination, destinationExists, entries, overwrites (paths it would replace), overwriteCount, conflicts (files it cannot place over a folder)}; ?destination= as for extract" },
  },
  move: { method: "POST", path: `${SERVER}/move`, activity: "server.file.rename", activityProperties: { body: ["from", "to"] }, proxy: { needs: "putServerFiles", summary: "Move or rename: body {from, to}" } },
  copy: { method: "POST", path: `${SERVER}/copy`, timeout: "transfer", activity: "server.file.copy", activityProperties: { body: ["from", "to"] }, proxy: { needs: "putServerFiles", summary: "Copy a file or folder: body {from, to}" } },
  mode: { method: "POST", path: `${SERVER}/mode`, activity: "server.file.mode", activityProperties: { body: ["path", "mode"] }, proxy: { needs: "putServerFiles", summary: "Change a file's permission bits: body {path, mode (three octal digits)}" } },
  search: { method: "GET", path: `${SERVER}/search`, proxy: { needs: "viewServerFiles", summary: "Names under ?path= matching ?q=" } },
  zip: { method: "GET", path: `${SERVER}/zip`, timeout: "transfer", proxy: { needs: "viewServerFiles", summary: "The ?path= entries as one zip, streamed" } },
  backups: {
    method: "GET",
    path: `${SERVER}/backups`,
    proxy: { needs: "backups", summary: "The server's backups, newest first: {backups: [{id, shortId, time, added, total (bytes; null when not known), by (user:<name> or task:<name>), locked}], running: null or {action backup|restore, done 0..1 or null}}" },
  },
  createBackup: {
    method: "POST",
    path: `${SERVER}/backups`,
    activity: "backup.created",
    activityProperties: { body: ["note"] },
    proxy: { needs: "backups", summary: "Start a backup (202; ?wait=true answers the new backup, 201); optional body {note}: one line of at most 200 characters shown beside it. Refused when one runs (ErrServerBusy) or the maximum is reached and every backup is locked (ErrBackupLimit); progress shows in the list and on the console" },
  },
  deleteBackup: { method: "DELETE", path: `${SERVER}/backups/:backup`, activity: "backup.deleted", proxy: { needs: "backups", summary: "Delete a backup (not while locked: ErrBackupLocked); {backup} is its id or short id" } },
  lockBackup: { method: "POST", path: `${SERVER}/backups/:backup/lock`, activity: "backup.locked", activityProperties: { body: ["locked"] }, proxy: { needs: "backups", summary: "Lock or unlock: body {locked: true|false}. A locked backup is kept whatever the retention says" } },
  adoptBackup: { method: "POST", path: `${SERVER}/backups/:backup/adopt`, activity: "backup.adopted", proxy: { needs: "admin", summary: "Adopt a backup made before the node recorded whose files it holds (listed with unowned: true; its download, browse and restore are ErrBackupUnowned until then): it is judged from then on by the server's user now. Answers the backup" } },
  restoreBackup: {
    method: "POST",
    path: `${SERVER}/backups/:backup/restore`,
    timeout: "transfer",
    activity: "backup.restored",
    activityProperties: { body: ["path"] },
    proxy: { needs: "backups", summary: "Restore (202; ?wait=true waits): body {} for the whole folder (the server is stopped, the backup restored beside it and swapped in when complete, then started again if it was running), or {path} for one file or folder (the server runs on)" },
  },
  backupFolder: {
    method: "GET",
    path: `${SERVER}/backups/:backup/files`,
    keptForOwners: true,
    proxy: { needs: "backups", summary: "One folder of a backup, to pick what to restore: {path, files: [{name, isFile, size, modifyTime}], truncated}; ?path= from the server's folder" },
  },
  downloadBackup: { method: "GET", path: `${SERVER}/backups/:backup/download`, timeout: "transfer", keptForOwners: true, activity: "backup.downloaded", activityProperties: { query: ["format"] }, proxy: { needs: "backups", summary: "The backup as ?format=tar.gz (default) or zip, streamed" } },
  backupSettings: { method: "GET", path: `${SERVER}/backup-settings`, proxy: { needs: "backups", summary: "{policy: {target, retention: {last, hourly, daily, weekly, monthly}, maxBackups, before, after}, ignore: [patterns]}" } },
  setBackupIgnore: { method: "POST", path: `${SERVER}/backup-settings/ignore`, activity: "backup.settings.changed", activityProperties: { fixed: { setting: "ignore" satisfies BackupSetting } }, proxy: { needs: "backups", summary: "Set the ignore patterns: body {ignore: text, a pattern a line as in .gitignore; no $ or control characters}" } },
  setBackupPolicy: { method: "POST", path: `${SERVER}/backup-settings/policy`, activity: "backup.settings.changed", activityProperties: { fixed: { setting: "policy" satisfies BackupSetting } }, proxy: { needs: "admin", summary: "Set the backup policy (body as in backup-settings' policy; the target must be one the node has set up)" } },
  playerList: {
    method: "GET",
    path: `${SERVER}/players/:list`,
    proxy: { needs: "managePlayers", summary: `A page of a Minecraft Java server's list ({list}: whitelist, ops, bans, ip-bans) as its file holds it: {list, entries: [{name, uuid, ip, reason, created, expires, source, level}], enabled (whitelist: whether it is on)}, and total and offset when entries is not the whole list. ?offset= (default 0), ?limit= (1–${PLAYER_LIST_PAGE.maxLimit}, default ${PLAYER_LIST_PAGE.defaultLimit}), ?search= (part of a name, UUID or IP, at most ${PLAYER_LIST_PAGE.maxSearch} characters), ?names=a,b (only these names, at most ${PLAYER_LIST_PAGE.maxNames}). A file of more entries than the node reads is ErrPlayerListTooLong (metadata.max)` },
  },
  addPlayer: {
    method: "POST",
    path: `${SERVER}/players/:list`,
    activity: "server.players.changed",
    activityProperties: { body: ["name", "ip"] },
    proxy: { needs: "managePlayers", summary: "Add to the list: body {name} (3–16 of A–Z a–z 0–9 _, or a UUID), {ip} for ip-bans, and an optional {reason} for bans. Running: the console command, confirmed from its answer (ErrPlayerCommandTimeout, ErrPlayerCommandRefused); stopped: the file, edited keeping every other field. Answers {changed}" },
  },
  removePlayer: { method: "DELETE", path: `${SERVER}/players/:list`, activity: "server.players.changed", activityProperties: { body: ["name", "ip"] }, proxy: { needs: "managePlayers", summary: "Remove from the list: body {name} or {ip} as for adding. Answers {changed}" } },
  setWhitelist: { method: "POST", path: `${SERVER}/players/whitelist/enabled`, activity: "server.players.changed", activityProperties: { body: ["enabled"] }, proxy: { needs: "managePlayers", summary: "Turn the whitelist on or off: body {enabled: true|false} (running: whitelist on|off; stopped: server.properties white-list). Answers {changed}" } },
  kickPlayer: { method: "POST", path: `${SERVER}/players/:name/kick`, activity: "server.players.kicked", whileMoving: true, proxy: { needs: "managePlayers", summary: "Kick an online player: optional body {reason} (one line, at most 200 characters); ErrServerOffline when stopped" } },
  // Who is online, from the console's list command, for the Players tab (not offered through the
  // proxy: GET /api/servers/{id}/players answers who plays, from the query).
  onlinePlayers: { method: "GET", path: `${SERVER}/online-players` },
  // Mods and plugins (not offered through the proxy: the panel's /api/servers/{id}/mods routes
  // check manageMods and build every change from its sources' answers).
  modsPlatform: { method: "GET", path: `${SERVER}/mods/platform` },
  modsInstalled: { method: "GET", path: `${SERVER}/mods/installed` },
  modsChange: { method: "POST", path: `${SERVER}/mods/changes`, activity: "server.mods.changed", activityProperties: { body: ["note"] } },
  modsPack: { method: "POST", path: `${SERVER}/mods/packs`, activity: "server.mods.pack" },
  modsPackInstalled: { method: "GET", path: `${SERVER}/mods/packs/installed` },
  // A pack file kept aside to be read; the change it leads to is recorded as server.mods.pack.
  modsPackUpload: { method: "POST", path: `${SERVER}/mods/packs/uploads`, timeout: "transfer", streamsBody: true, keptForOwners: true, activity: null },
  // Reading a pack downloads and unpacks it: as long as that takes.
  modsPackRead: { method: "POST", path: `${SERVER}/mods/packs/read`, timeout: "transfer", keptForOwners: true, activity: null },
  modsSwitch: { method: "POST", path: `${SERVER}/mods/versions`, activity: "server.mods.version", activityProperties: { body: ["what", "variable", "value", "note"] } },
  modsChangeStatus: { method: "GET", path: `${SERVER}/mods/changes/:changeId` },
  modsUndo: { method: "POST", path: `${SERVER}/mods/changes/:changeId/undo`, activity: "server.mods.undone" },
  backupTargets: { method: "GET", path: "/daemon/backup-targets" },
  setBackupTarget: { method: "PUT", path: "/daemon/backup-targets/:kind", activity: "node.changed" },
  deleteBackupTarget: { method: "DELETE", path: "/daemon/backup-targets/:kind", activity: "node.changed" },
  backupTargetPassword: { method: "GET", path: "/daemon/backup-targets/:kind/password" },
  // A whole node's servers restored one after another: as long as that takes.
  recoverFromTarget: { method: "POST", path: "/daemon/backup-targets/:kind/recover", timeout: "transfer", activity: "node.changed" },
  // Follows a change of rights, which its own service records.
  sftpDisconnect: { method: "POST", path: "/daemon/sftp/disconnect", activity: null },
  socket: { method: "GET", path: "/daemon/socket/:id" },
} as const satisfies Record<string, NodeOperation>;

export type NodeOperationName = keyof typeof NODE_OPERATIONS;

/** Parameters a path takes: `:name` segments, and `path` (already-encoded segments) for `*`. */
export type OperationParams = Record<string, string>;

/** The concrete path of an operation: each `:name` filled (encoded), `*` replaced by params.path (already encoded). */
export function operationPath(name: NodeOperationName, params: OperationParams = {}): string {
  return NODE_OPERATIONS[name].path.replace(/:([A-Za-z]+)|\*/g, (whole, param: string | undefined) => {
    if (whole === "*") return params.path ?? "";
    const value = params[param!];
    if (value === undefined) throw new Error(`node operation ${name} needs ${param}`);
    return encodeURIComponent(value);
  });
}

/** An operation's whole path as a pattern of request paths (a `:param` one segment, `*` any rest). */
export function operationPattern(path: string): RegExp {
  return new RegExp(`^${path.replace(/:[A-Za-z]+/g, "[^/]+").replace(/\*$/, ".*")}$`);
}

/** Whether the operation changes state: not a GET, or a GET the contract says changes state. */
export function operationChangesState(op: NodeOperation): boolean {
  return op.method !== "GET" || op.proxy?.changesState === true;
}

/** The path after /daemon/server/:id of an operation the proxy offers, as a pattern of what follows the id. */
export function proxiedPattern(path: string): RegExp {
  const rest = path.slice(SERVER.length);
  const body = rest
    .split("/")
    .map((segment) => (segment === "*" ? null : segment.startsWith(":") ? "[^/]+" : segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
    .reduce<string>((out, segment) => (segment === null ? `${out.replace(/\/$/, "")}(?:/.*)?` : `${out}${segment}/`), "")
    .replace(/\/$/, "");
  return new RegExp(`^${body}$`);
}

/** The operations the proxy offers, with their rest-of-path patterns. */
export const PROXIED_OPERATIONS = (Object.entries(NODE_OPERATIONS) as [NodeOperationName, NodeOperation][])
  .filter(([, op]) => op.proxy !== undefined)
  .map(([name, op]) => ({ name, ...op, proxy: op.proxy!, pattern: proxiedPattern(op.path) }));

/** The operation a proxied call is (method and the path after the server's id), or undefined when the proxy does not offer it. */
export function proxiedOperation(method: string, rest: string) {
  // HEAD is answered through the GET route, and the node runs the GET's work for it.
  const verb = method === "HEAD" ? "GET" : method;
  return PROXIED_OPERATIONS.find((op) => op.method === verb && op.pattern.test(rest));
}
