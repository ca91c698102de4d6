import { expect, test } from "bun:test";
import { makeTranslate } from "../core/i18n/translate";
import en from "./en.json";
import { errorMessageKey } from "../core/errors/message-key";

const t = makeTranslate(en, "en");
const say = (code: string, metadata?: Record<string, string | number>) => t(errorMessageKey(code, metadata), metadata);

test("an error's sentence: its code's, and ErrFieldNotBetween without bounds says the value is not one the field takes", () => {
  expect(say("ErrFieldNotBetween", { field: "port", min: 1, max: 65535 })).toBe("port must be between 1 and 65535");
  expect(say("ErrFieldNotBetween", { field: "source" })).toBe("source is not one of the values it can take");
  expect(say("ErrFieldRequired", { field: "name" })).toBe("name is required");
});
