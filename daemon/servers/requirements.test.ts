// Requirements as Kiln and PufferPanel templates write them: "," or "||" between alternatives,
// Node's or Go's names for systems and processors.
import { describe, expect, test } from "bun:test";
import { checkRequirements } from "./requirements";
import { KilnError } from "../../core/errors";

const check = (req: Parameters<typeof checkRequirements>[0]) => checkRequirements(req, { binaries: false, path: "" });
const refusal = (req: Parameters<typeof checkRequirements>[0]) => {
  try {
    check(req);
  } catch (error) {
    return error instanceof KilnError ? error.code : error;
  }
};
const goOs = process.platform === "win32" ? "windows" : process.platform;

describe("checkRequirements", () => {
  test("alternatives with , or ||, in Node's or PufferPanel's (Go's) names", () => {
    expect(() => check({ os: `plan9||${goOs}` })).not.toThrow();
    expect(() => check({ os: `plan9, ${process.platform}` })).not.toThrow();
    expect(() => check({ arch: "amd64||arm64||386||arm" })).not.toThrow();
    expect(refusal({ os: "plan9||haiku" })).toBe("ErrUnsupportedOS");
    expect(refusal({ arch: "mips||riscv64" })).toBe("ErrUnsupportedArch");
  });
});
