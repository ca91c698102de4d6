// A version as Kiln lets it through from text it does not control (a server's files, a mod
// source's answer): only what looks like a version, so no markup, path, shell syntax or oddity
// ever reaches a page, a log line, a query or a template variable.

/** A version: letters, digits and . + _ -, starting with a letter or digit (never "." or ".."). */
export const SAFE_VERSION = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,63}$/;

export function safeVersion(text: unknown): string | null {
  return typeof text === "string" && SAFE_VERSION.test(text) ? text : null;
}

/** A Minecraft version also starts with a digit ("1.20.1", "23w31a", "1.20-pre1"). */
export function safeGameVersion(text: unknown): string | null {
  const version = safeVersion(text);
  return version && /^\d/.test(version) ? version : null;
}
