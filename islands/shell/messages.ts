// Messages the shell needs only when something goes wrong (error texts, dialog labels), fetched
// on first use so no page pays for them up front.
import { makeTranslate, type Translate } from "../../core/i18n/translate";

let loading: Promise<Translate> | undefined;

export function shellMessages(): Promise<Translate> {
  loading ??= fetch("/i18n/messages?prefix=errors.&prefix=common.", { credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : {}))
    .catch(() => ({}))
    .then((messages: Record<string, string>) => makeTranslate(messages, document.documentElement.lang || "en"));
  return loading;
}
