// The one place thrown errors become responses: { error: { code, msg, metadata } } with the
// catalogue's status. Unknown errors are logged here and answered without any internals.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KilnError } from "../../core/errors";
import { isUniqueViolation } from "../../db/drivers/errors";
// Answers say the English catalogue sentence in `msg` (installed into KilnError by this import).
import "../../locales/english";

export function toKilnError(error: unknown): KilnError {
  if (error instanceof KilnError) return error;
  if (error instanceof HTTPException && error.status === 400) return new KilnError("ErrInvalidJson");
  // A form body Bun cannot parse (no boundary, cut short), wherever a route read it.
  if ((error as { code?: unknown } | null)?.code === "ERR_FORMDATA_PARSE_ERROR") return new KilnError("ErrInvalidJson", undefined, "the form data cannot be read");
  // A percent-escape in the path that does not decode (%zz) names nothing.
  if (error instanceof URIError) return new KilnError("ErrNotFound");
  if (isUniqueViolation(error)) return new KilnError("ErrGeneric", undefined, "conflict");
  return new KilnError("ErrUnknownError", undefined, "internal error");
}


export function errorResponse(c: Context, error: unknown, log: (e: unknown) => void = console.error): Response {
  const kiln = toKilnError(error);
  if (kiln.code === "ErrUnknownError") log(error);
  return c.json(kiln.toBody(), kiln.status as 500);
}
