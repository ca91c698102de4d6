// Why a listing failed, as a sentence to show where the listing would be (a node that
// does not answer is not "This folder is empty"): the catalogue's message for a known code, else
// the generic one.
import { ERROR_CODES } from "../../core/errors";
import { ApiError } from "../lib/api";
import { shellMessages } from "../shell/messages";
import { errorMessageKey } from "../../core/errors/message-key";

export async function listingError(error: unknown): Promise<string> {
  const t = await shellMessages();
  const code = error instanceof ApiError ? error.body?.error.code : undefined;
  if (code && (ERROR_CODES as string[]).includes(code) && code !== "ErrGeneric" && code !== "ErrUnknownError") return t(errorMessageKey(code, (error as ApiError).body?.error.metadata), (error as ApiError).body?.error.metadata);
  return t("errors.unknown");
}
