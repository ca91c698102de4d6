import { expect, test } from "bun:test";
import { maskAddress } from "./email-change-notice";

test("an address is masked to its first character and a plain domain", () => {
  expect(maskAddress("bob@corp.example")).toBe("b***@corp.example");
  expect(maskAddress("b@corp.example")).toBe("b***@corp.example");
  expect(maskAddress("~x@corp.example")).toBe("****@corp.example");
  expect(maskAddress("x@evil.example\u0085open:https://evil.example")).toBe("x***@***");
  expect(maskAddress("x@b\u00fccher.example")).toBe("x***@***");
  expect(maskAddress("\u202eb@corp.example")).toBe("****@corp.example");
});
