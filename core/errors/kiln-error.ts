// The one error type services, routes and the daemon throw; the error handler turns it into an ErrorBody.
import { ERROR_STATUS, type ErrorCode, type ErrorMetadata, type ErrorBody } from "./codes";

export class KilnError extends Error {
  readonly code: ErrorCode;
  readonly metadata?: ErrorMetadata;

  constructor(code: ErrorCode, metadata?: ErrorMetadata, msg?: string) {
    super(msg ?? code);
    this.name = "KilnError";
    this.code = code;
    this.metadata = metadata;
  }

  get status(): number {
    return ERROR_STATUS[this.code];
  }

  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, msg: this.message } };
    if (this.metadata) body.error.metadata = this.metadata;
    return body;
  }
}

export function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as ErrorBody | null)?.error;
  return typeof error === "object" && error !== null && typeof error.code === "string";
}
