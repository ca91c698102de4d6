// Splits the panel.email.host setting ("host" or "host:port", IPv6 in brackets) into host and port.
import { KilnError } from "../../../core/errors/kiln-error";
import { EMAIL_KEYS } from "./settings";

// Submission port: what relays expect from authenticated clients, upgraded with STARTTLS.
export const DEFAULT_SMTP_PORT = 587;

export interface SmtpAddress {
  host: string;
  port: number;
}

export function parseSmtpHost(value: string): SmtpAddress {
  const match = /^\[([^\]]+)\](?::(\d+))?$/.exec(value) ?? /^([^:]+)(?::(\d+))?$/.exec(value);
  // A bare IPv6 address has several colons and no room for a port.
  if (!match) return value.split(":").length > 2 ? { host: value, port: DEFAULT_SMTP_PORT } : invalid();
  const host = match[1] ?? "";
  const port = match[2] === undefined ? DEFAULT_SMTP_PORT : Number(match[2]);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) return invalid();
  return { host, port };
}

/** A port nobody can connect to is as good as no host setting at all. */
function invalid(): never {
  throw new KilnError("ErrSettingNotConfigured", { name: EMAIL_KEYS.host });
}

/** Loopback relays (tests, a local postfix) rarely have a certificate that verifies. */
export function isLoopback(host: string): boolean {
  return host === "127.0.0.1" || host === "localhost" || host === "::1";
}
