// What each live-socket message needs, once: the right to send a client message (power actions
// from their own table), and the right to receive what the node pushes. The panel's socket proxy
// checks both; the node trusts the panel to have done so.
import type { ServerRequirement } from "../scopes/server-access";
import type { ClientMessageType } from "../live";
import { POWER_ACTION_RULES, isPowerAction } from "./power-actions";
import { READ_PLAYERS } from "../players/players-access";
import type { EventName } from "../activity/events";
import type { FileChangeDoor } from "../activity/property-values";

const SEND_NEEDS: Record<Exclude<ClientMessageType, keyof typeof POWER_ACTION_RULES | "file">, ServerRequirement> = {
  status: "view",
  stat: "viewServerStats",
  replay: "viewServerConsole",
  console: "sendServerConsole",
};

/**
 * What sending `message` needs, or null for a type no rule names (then only an administrator may).
 * `message` is as the socket guard read it (core/live/guard), its fields beside `type`: the same
 * fields the node then acts on.
 */
export function socketRequirement(message: { type: string } & Record<string, unknown>): ServerRequirement | null {
  if (isPowerAction(message.type)) return POWER_ACTION_RULES[message.type].needs;
  if (message.type === "file") return message.action === "get" ? "viewServerFiles" : "putServerFiles";
  return Object.hasOwn(SEND_NEEDS, message.type) ? SEND_NEEDS[message.type as keyof typeof SEND_NEEDS] : null;
}

/** Each entry: any one of these suffices. */
const RECEIVE_NEEDS: Record<string, readonly ServerRequirement[]> = { console: ["viewServerConsole"], stat: ["viewServerStats"], file: ["viewServerFiles"], players: READ_PLAYERS };

/** What a user must hold, any one of, to receive a message the node pushes (anything else: seeing the server). */
export function receiveRequirement(type: string): readonly ServerRequirement[] {
  return Object.hasOwn(RECEIVE_NEEDS, type) ? RECEIVE_NEEDS[type]! : ["view"];
}

/**
 * What the activity log records of an accepted socket message that changes something (a power
 * action, a console command, a file made or removed), or null for one that only reads. The
 * fields are those the node acts on.
 */
export function socketActivity(message: { type: string } & Record<string, unknown>): { event: EventName; properties: Record<string, unknown> } | null {
  if (isPowerAction(message.type)) return { event: `server.power.${message.type}`, properties: {} };
  if (message.type === "console") return { event: "server.console.command", properties: { command: message.command } };
  if (message.type === "file" && message.action === "create") return { event: "server.file.write", properties: { path: message.path, folder: true, via: "socket" satisfies FileChangeDoor } };
  if (message.type === "file" && message.action === "delete") return { event: "server.file.delete", properties: { path: message.path, via: "socket" satisfies FileChangeDoor } };
  return null;
}
