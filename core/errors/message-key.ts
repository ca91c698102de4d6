// The catalogue key of an error's sentence: its code's ("errors.<code>"), except an
// ErrFieldNotBetween that names no bounds (a value that is not one of those a field takes: a source,
// a sort, a slug), whose sentence would read "between {min} and {max}" with holes.
import type { ErrorMetadata } from "./codes";

export function errorMessageKey(code: string, metadata?: ErrorMetadata | Record<string, unknown>): string {
  if (code === "ErrFieldNotBetween" && (metadata?.min === undefined || metadata?.max === undefined)) return "errors.ErrFieldNotBetween.notAllowed";
  return `errors.${code}`;
}
