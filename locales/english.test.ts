import { expect, test } from "bun:test";
import { ERROR_CODES, KilnError } from "../core/errors";
import "./english";

test("msg is the English catalogue sentence with the metadata filled in, never the code or internals", () => {
  expect(new KilnError("ErrFieldTooLarge", { field: "port", max: 65535 }).toBody()).toEqual({ error: { code: "ErrFieldTooLarge", msg: "port cannot be larger than 65535", metadata: { field: "port", max: 65535 } } });
  expect(new KilnError("ErrInvalidCredentials").toBody().error.msg).toBe("Invalid credentials");
  expect(new KilnError("ErrUnknownError", undefined, "internal error: at /srv/x.ts").toBody().error.msg).toBe("An unknown error occurred");
  expect(new KilnError("ErrNoTemplate", { name: "paper" }).toBody().error.msg).toBe("No template with the name paper found");
  for (const code of ERROR_CODES) expect(new KilnError(code).toBody().error.msg).not.toBe(code);
});
