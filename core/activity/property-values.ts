// The property values of the activity log that Kiln itself writes from a fixed set (how a user
// logged in, the door a file changed through, why a login was refused…), once: the code that
// records each takes its type from the list here, and the activity table says each value in the
// reader's language by the set's message. Everything else a row keeps — a path, a name, a command,
// an email, a note — is what people typed or named and is shown as recorded.
import type { EventName, EVENTS } from "./events";
import { CRASH_CAUSE_IDS, causeKey } from "../crash/causes";
import { DOWNLOAD_FORMATS } from "../backups/snapshots";
import { PLAYER_LIST_NAMES } from "../players/player-lists";

/** How a user.login came about (server/begin-session's callers). */
export const LOGIN_METHODS = ["password", "otp", "passkey", "invite", "register", "sso"] as const;
export type LoginMethod = (typeof LOGIN_METHODS)[number];

/** How a task run started (the node's scheduler: its schedule, "Run now", or one of its triggers). */
export const TASK_RUN_HOWS = ["scheduled", "manual", "triggered"] as const;
export type TaskRunHow = (typeof TASK_RUN_HOWS)[number];

/** The door a file change came through when it was not the panel's HTTP API (which records no `via`). */
export const FILE_CHANGE_DOORS = ["sftp", "socket"] as const;
export type FileChangeDoor = (typeof FILE_CHANGE_DOORS)[number];

/** server.players.changed's `action` when the whitelist was turned on or off. */
export const WHITELIST_ACTIONS = ["whitelist-on", "whitelist-off"] as const;
export type WhitelistAction = (typeof WHITELIST_ACTIONS)[number];

/** What a crash stopped: the server's process or its install steps. */
export const CRASH_PHASES = ["run", "install"] as const;
export type CrashPhase = (typeof CRASH_PHASES)[number];

/** The backup setting a backup.settings.changed row names. */
export const BACKUP_SETTINGS = ["ignore", "policy"] as const;
export type BackupSetting = (typeof BACKUP_SETTINGS)[number];

/** What a sign-in rule grants: a right, a role, or a permission on one server. */
export const GRANT_KINDS = ["scope", "role", "flag"] as const;
export type GrantKind = (typeof GRANT_KINDS)[number];
export const isGrantKind = (value: unknown): value is GrantKind => (GRANT_KINDS as readonly unknown[]).includes(value);

/** A refused SFTP login's reason begins with this, before the catalogue code (server/services/sftp/login). */
export const SFTP_REASON_PREFIX = "sftp:";
/** A backup's `by`: a task's ("task:" and its name) or a user's ("user:" and their name), core/backups. */
export const BY_TASK_PREFIX = "task:";
export const BY_USER_PREFIX = "user:";

export interface ValueSet {
  readonly values: readonly string[];
  /** The message that says a value of the set. */
  readonly message: (value: string) => string;
}

/** Each set with the messages that say its values (a set another part of Kiln already words keeps its words). */
export const VALUE_SETS = {
  yesNo: { values: ["true", "false"], message: (value: string) => (value === "true" ? "common.yes" : "common.no") },
  loginMethod: { values: LOGIN_METHODS, message: (value: string) => `activity.value.method.${value}` },
  taskRunHow: { values: TASK_RUN_HOWS, message: (value: string) => `activity.value.how.${value}` },
  fileChangeDoor: { values: FILE_CHANGE_DOORS, message: (value: string) => `activity.value.via.${value}` },
  whitelistAction: { values: WHITELIST_ACTIONS, message: (value: string) => `activity.value.action.${value}` },
  crashPhase: { values: CRASH_PHASES, message: (value: string) => `activity.value.phase.${value}` },
  crashCause: { values: [...CRASH_CAUSE_IDS, "unrecognised"], message: (value: string) => causeKey(value as (typeof CRASH_CAUSE_IDS)[number]) },
  backupSetting: { values: BACKUP_SETTINGS, message: (value: string) => `activity.value.setting.${value}` },
  downloadFormat: { values: DOWNLOAD_FORMATS, message: (value: string) => `activity.value.format.${value.replace(".", "")}` },
  grantKind: { values: GRANT_KINDS, message: (value: string) => `activity.value.kind.${value}` },
  playerList: { values: PLAYER_LIST_NAMES, message: (value: string) => `players.${value}.title` },
} as const satisfies Record<string, ValueSet>;
export type ValueSetName = keyof typeof VALUE_SETS;

/** How one property's value is read. A value the rule does not fit (a row older than a set's change) is shown as recorded. */
export interface ValueRule {
  /** The value (after a prefix) is one of this set's. */
  set?: ValueSetName;
  /** The value (after a prefix) is a catalogue error code (core/errors), said by its sentence. */
  errorCode?: true;
  /** Markers the value may begin with, each with the message that mentions it; the rest follows (by set, code, or as recorded). */
  prefixes?: Readonly<Record<string, string>>;
}

type Rules = { readonly [E in EventName]?: { readonly [P in (typeof EVENTS)[E]["properties"][number]]?: ValueRule } };

const yesNo: ValueRule = { set: "yesNo" };
const loginReason: ValueRule = { errorCode: true, prefixes: { [SFTP_REASON_PREFIX]: "sftp.title" } };
const via: ValueRule = { set: "fileChangeDoor" };
const by: ValueRule = { prefixes: { [BY_TASK_PREFIX]: "activity.value.by.task", [BY_USER_PREFIX]: "activity.value.by.user" } };

/**
 * The properties whose values come from a fixed set, by event. A boolean is yes or no wherever it
 * is; `yesNo` here names the properties a query string records as "true"/"false".
 */
export const PROPERTY_VALUES: Rules = {
  "user.login": { method: { set: "loginMethod" } },
  "user.login.failed": { reason: loginReason },
  "user.login.throttled": { reason: loginReason },
  "user.grant.detached": { kind: { set: "grantKind" } },
  "server.transfer.failed": { error: { errorCode: true } },
  "server.file.write": { via, folder: yesNo },
  "server.file.delete": { via },
  "server.file.rename": { via },
  "server.task.run": { how: { set: "taskRunHow" } },
  "server.players.changed": { list: { set: "playerList" }, action: { set: "whitelistAction" } },
  "backup.downloaded": { format: { set: "downloadFormat" } },
  "backup.settings.changed": { setting: { set: "backupSetting" } },
  "server.crashed": { cause: { set: "crashCause" }, phase: { set: "crashPhase" } },
  "server.install.failed": { cause: { set: "crashCause" } },
  "backup.completed": { by },
  "backup.failed": { reason: { errorCode: true }, by },
};

/** The rule of property `name` of `event`, if its value comes from a fixed set. */
export function propertyValueRule(event: string, name: string): ValueRule | undefined {
  const rules = (PROPERTY_VALUES as Record<string, Record<string, ValueRule> | undefined>)[event];
  return rules && Object.hasOwn(rules, name) ? rules[name] : undefined;
}
