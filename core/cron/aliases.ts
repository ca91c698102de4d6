// The "@" shorthands Vixie cron accepts, rewritten to the five fields they stand for so that
// everything after this point (parser, editor) only ever sees five-field expressions.
// @reboot is left out on purpose: a task runs on a clock, not on a node start, so it is invalid.

const ALIASES: Readonly<Record<string, string>> = {
  "@yearly": "0 0 1 1 *",
  "@annually": "0 0 1 1 *",
  "@monthly": "0 0 1 * *",
  "@weekly": "0 0 * * 0",
  "@daily": "0 0 * * *",
  "@midnight": "0 0 * * *",
  "@hourly": "0 * * * *",
};

/** "@daily" → "0 0 * * *" (any case); anything else comes back trimmed, unchanged. */
export function expandAlias(expression: string): string {
  const trimmed = expression.trim();
  return ALIASES[trimmed.toLowerCase()] ?? trimmed;
}
