// The daemon's one place where thrown errors become { error: { code, msg, metadata } } answers.
// Unknown errors are logged and answered without internals.
import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { KilnError } from "../../core/errors";

export function toKilnError(error: unknown): KilnError {
  if (error instanceof KilnError) return error;
  if (error instanceof HTTPException) {
    if (error.status === 413) return new KilnError("ErrMessageTooLarge", { max: 0 });
    if (error.status === 400) return new KilnError("ErrInvalidJson");
  }
  return new KilnError("ErrUnknownError", undefined, "internal error");
}

export function daemonErrorResponse(c: Context, error: unknown, log: (e: unknown) => void): Response {
  const kiln = toKilnError(error);
  if (kiln.code === "ErrUnknownError") log(error);
  return c.json(kiln.toBody(), kiln.status as 500);
}
