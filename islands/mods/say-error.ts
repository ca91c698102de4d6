// What went wrong, as a sentence in the page's language: an API refusal (islands/files/listing-error,
// which the file manager uses the same way) or a change's own error, both catalogue codes.
import { ERROR_CODES, type ErrorCode, type ErrorMetadata } from "../../core/errors";
import { shellMessages } from "../shell/messages";
import { errorMessageKey } from "../../core/errors/message-key";

export { listingError as errorSentence } from "../files/listing-error";

/** The sentence of a failed change's error ({code, metadata} as the node reports it). */
export async function changeErrorSentence(error: { code: ErrorCode; metadata?: ErrorMetadata } | undefined): Promise<string> {
  const t = await shellMessages();
  if (error && (ERROR_CODES as string[]).includes(error.code) && error.code !== "ErrGeneric" && error.code !== "ErrUnknownError") return t(errorMessageKey(error.code, error.metadata), error.metadata);
  return t("errors.unknown");
}
