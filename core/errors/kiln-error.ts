// The one error type services, routes and the daemon throw; the error handler turns it into an ErrorBody.
import { ERROR_STATUS, type ErrorCode, type ErrorMetadata, type ErrorBody } from "./codes";

/**
 * How `msg` is worded. The panel and the node install the English catalogue sentences
 * (locales/english, imported by their error handlers); the browser, which also uses this class (cron
 * parsing, definitions), never loads them, so its bundles do not carry locales/en.json.
 */
let describe: (code: ErrorCode, metadata?: ErrorMetadata) => string = (code) => code;

export function describeErrorsWith(wording: typeof describe): void {
  describe = wording;
}

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

  /** `msg` is the English catalogue sentence; `message` (for logs) may say more than an answer should. */
  toBody(): ErrorBody {
    const body: ErrorBody = { error: { code: this.code, msg: describe(this.code, this.metadata) } };
    if (this.metadata) body.error.metadata = this.metadata;
    return body;
  }
}
