// Recognises an error answer. Apart from KilnError so the browser can use it without the class,
// whose English sentences (locales/en.json) the bundles must not carry.
import type { ErrorBody } from "./codes";

export function isErrorBody(value: unknown): value is ErrorBody {
  const error = (value as ErrorBody | null)?.error;
  return typeof error === "object" && error !== null && typeof error.code === "string";
}
