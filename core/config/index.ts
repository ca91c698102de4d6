// How a Kiln config is read, the panel's (server/config) and the node's (daemon/config) alike: a
// JSON file checked against its schema, and ports from the environment. No I/O here (core): the
// caller reads the file and hands over its text. Each caller's own error class carries the
// message, so `kiln panel` and `kiln daemon` each say their config failed in their own words.
import type { z } from "../zod";

export type ConfigFailure = new (message: string) => Error;

/**
 * The config file at `path` (`text` undefined: there is no such file) as its schema reads it;
 * else a failure naming the file and what is wrong: missing, not JSON, or the first field the
 * schema refuses (a strict schema refuses an unknown key, so a typo is not silently ignored).
 */
export function parseConfigFile<T>(schema: z.ZodMiniType<T>, path: string, text: string | undefined, Failure: ConfigFailure): T {
  if (text === undefined) throw new Failure(`config file not found: ${path}`);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Failure(`config file ${path} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Failure(`config file ${path}: ${issue?.path.join(".") || "(root)"}: ${issue?.message}`);
  }
  return parsed.data;
}

/** A port from the environment variable `name` (0 lets the system choose); undefined when it is not set. */
export function envPort(value: string | undefined, name: string, Failure: ConfigFailure): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Failure(`${name} must be a port number, got "${value}"`);
  return port;
}

/** A positive whole number from the environment variable `name`; undefined when it is not set. */
export function envCount(value: string | undefined, name: string, Failure: ConfigFailure): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n <= 0) throw new Failure(`${name} must be a positive whole number, got "${value}"`);
  return n;
}

/** The longest wait a timer keeps: past 2^31 - 1 ms (about 24.8 days) it fires at once, and a period meant to be rare ran without pause. */
export const LONGEST_TIMER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** A period in whole seconds from the environment variable `name`, in milliseconds; undefined when it is not set. */
export function envPeriodMs(value: string | undefined, name: string, Failure: ConfigFailure): number | undefined {
  const seconds = envCount(value, name, Failure);
  if (seconds === undefined) return undefined;
  if (seconds > LONGEST_TIMER_SECONDS) throw new Failure(`${name} must be at most ${LONGEST_TIMER_SECONDS} seconds, got "${value}"`);
  return seconds * 1000;
}
