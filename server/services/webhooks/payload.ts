// What a delivery sends. JSON: {id, event, at, serverId?, actor, properties}, signed per attempt
// with Kiln-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)> beside
// Kiln-Timestamp (Unix seconds), so a receiver refuses a replay outside its window. Discord's and
// Slack's incoming webhooks take their own message shapes: one line of text each.
import { createHmac } from "node:crypto";
import type { RecordedEvent } from "../activity/record";
import { translatorFor } from "../../../locales/tables";
import { DEFAULT_LOCALE } from "../../../core/i18n/locales";
import { shownLabel } from "../../../core/text/shown-label";

import type { WebhookFormat } from "../../../core/activity";

export interface EventNames {
  server: string | null;
}

export function deliveryBody(format: WebhookFormat, event: RecordedEvent, names: EventNames): string {
  if (format === "json") {
    return JSON.stringify({
      id: event.id,
      event: event.event,
      at: new Date(event.at).toISOString(),
      ...(event.serverId ? { serverId: event.serverId } : {}),
      actor: { type: event.actor.type, ...(event.actor.id ? { id: event.actor.id } : {}), ...(event.actor.name ? { name: event.actor.name } : {}) },
      properties: event.properties,
    });
  }
  const text = messageText(event, names);
  // Chat services render markup and mentions: what a user named is shown as written, not obeyed.
  if (format === "discord") return JSON.stringify({ content: text.replace(/[\\`*_~|>#\[\]()<@!&:]/g, (c) => `\\${c}`).slice(0, 1900), allowed_mentions: { parse: [] } });
  return JSON.stringify({ text: text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").slice(0, 3000) });
}

/**
 * One line a person reads in a chat channel: the event, the server, who, and the properties. What
 * people named (a file, a task, a server, a console command) is shown by the rule of untrusted
 * labels (core/text/shown-label): a line break in a file's name wrote a second line in Kiln's
 * words, a bidi override turned the line around. A text value is quoted, its quotes escaped, so
 * "world; via: sftp" stays one value and poses as no property of the line; so are the server's and
 * the actor's names.
 */
function messageText(event: RecordedEvent, names: EventNames): string {
  const t = translatorFor(DEFAULT_LOCALE);
  const details = Object.entries(event.properties).map(([key, value]) => `${key}: ${Array.isArray(value) ? value.map(shownValue).join(", ") : shownValue(value)}`).join("; ");
  // A name someone chose is quoted as a property's value is: bare, a server named "Survival, by
  // admin" (commas and spaces are a server name's) made every line say the administrator did it.
  const who = event.actor.name != null ? shownValue(event.actor.name) : t(`activity.actor.${event.actor.type}`);
  const line = names.server ? t("webhooks.message.server", { event: event.event, server: shownValue(names.server), actor: who }) : t("webhooks.message.panel", { event: event.event, actor: who });
  return details ? `${line} (${details})` : line;
}

/** A property's value in the line: a text quoted as JSON writes it (line breaks, quotes), then its hidden characters escaped; a number or yes/no as it is. */
const shownValue = (value: unknown): string => (typeof value === "string" ? shownLabel(JSON.stringify(value)) : String(value));

export function signature(secret: string, timestamp: number, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}

/** Recognised by its host: a Discord or Slack incoming webhook URL gets that service's shape by default. */
export function formatForUrl(url: URL): WebhookFormat {
  const host = url.hostname.toLowerCase();
  if ((host === "discord.com" || host === "discordapp.com" || host.endsWith(".discord.com")) && url.pathname.startsWith("/api/webhooks/")) return "discord";
  if (host === "hooks.slack.com") return "slack";
  return "json";
}
