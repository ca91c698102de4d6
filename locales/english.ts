// The English catalogue sentence of an error code with its metadata filled in: what an answer's
// `msg` says, so a person reading a raw API answer or a log sees words, not the code again.
// Clients still translate by `code` (locales/<lang>.json "errors.<code>"). Importing this module
// installs the wording into KilnError; only server-side code may import it (see kiln-error.ts).
// It lives with the catalogue, not in core/errors: core holds no messages of its own, it is
// handed them (core imports only core; test/architecture.test.ts).
import en from "./en.json";
import { makeTranslate, type Params } from "../core/i18n/translate";
import type { ErrorCode, ErrorMetadata } from "../core/errors/codes";
import { describeErrorsWith } from "../core/errors/kiln-error";
import { errorMessageKey } from "../core/errors/message-key";

/** The English catalogue as a translator (the daemon writes console lines in it, core/live/daemon-message). */
export const english = makeTranslate(en, "en");

export function englishMessage(code: ErrorCode, metadata?: ErrorMetadata): string {
  const key = errorMessageKey(code, metadata);
  const text = english(key, metadata as Params | undefined);
  return text === key ? code : text;
}

describeErrorsWith(englishMessage);
