// Turns a provider failure into ErrServiceNotAvailable, logging the cause once for the operator.
import { KilnError } from "../../../core/errors/kiln-error";

/**
 * Logs only a description of the cause, not the error object: some transports attach their
 * options (credentials included) to the errors they raise.
 */
export function emailUnavailable(provider: string, cause: unknown): KilnError {
  console.error(`email: sending through ${provider} failed: ${describe(cause)}`);
  return new KilnError("ErrServiceNotAvailable", { service: "email" });
}

function describe(cause: unknown): string {
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    // Some runtimes already lead the message with the code; do not say it twice.
    return typeof code === "string" && !cause.message.startsWith(code) ? `${code}: ${cause.message}` : cause.message;
  }
  return String(cause);
}
