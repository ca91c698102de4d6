// Error answers in the browser: a known code shows its translated message; an unknown error shows
// a generic message with a Details button; 401 is silent and logs out (session timed out), unless
// it says a password was wrong.
import { ERROR_CODES, httpStatusKey, maskSecrets } from "../../core/errors";
import type { ApiError } from "../lib/api";
import { showToast } from "./toasts";
import { shellMessages } from "./messages";
import { showErrorDetails } from "./error-details";

import { SESSION_TIMED_OUT_URL } from "./session-renewal";
import { errorMessageKey } from "../../core/errors/message-key";

function isApiError(error: unknown): error is ApiError {
  return error instanceof Error && "status" in error && "request" in error;
}

export async function reportError(error: unknown): Promise<void> {
  // A wrong password typed into a form (ErrInvalidCredentials, also 401) is said, not taken for a lost session.
  if (isApiError(error) && error.status === 401 && error.body?.error.code !== "ErrInvalidCredentials") {
    location.assign(SESSION_TIMED_OUT_URL);
    return;
  }
  const t = await shellMessages();
  const code = isApiError(error) ? error.body?.error.code : undefined;
  if (code && (ERROR_CODES as string[]).includes(code) && code !== "ErrGeneric" && code !== "ErrUnknownError") {
    const metadata = error && isApiError(error) ? error.body?.error.metadata : undefined;
    showToast(t(errorMessageKey(code, metadata), metadata), { error: true });
    return;
  }
  const dump = technicalDump(error, t);
  showToast(t("errors.unknown"), { error: true, action: { label: t("common.details"), run: () => showErrorDetails(dump, t) } });
}

export function technicalDump(error: unknown, t: (key: string) => string): string {
  if (isApiError(error)) {
    const statusKey = httpStatusKey(error.status);
    return JSON.stringify(
      maskSecrets({
        status: error.status,
        statusText: statusKey ? t(statusKey) : undefined,
        request: error.request,
        response: error.body,
      }),
      null,
      2,
    );
  }
  const e = error as Error;
  return JSON.stringify(maskSecrets({ name: e?.name, message: e?.message ?? String(error), stack: e?.stack }), null, 2);
}
