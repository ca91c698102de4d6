import { describe, expect, test } from "bun:test";
import { checkRequirements } from "./requirements";

const PATH = process.env.PATH ?? "/usr/bin:/bin";
const here = process.platform === "win32" ? "windows" : process.platform;
const arch = ({ x64: "amd64", arm64: "arm64" } as Record<string, string>)[process.arch] ?? process.arch;

describe("requirements as PufferPanel writes them", () => {
  test("|| alternatives and Go's names for OS and architecture", () => {
    expect(() => checkRequirements({ os: `plan9 || ${here}`, arch: `mips||${arch}` }, { binaries: false, path: PATH })).not.toThrow();
    expect(() => checkRequirements({ os: "windows" }, { binaries: false, path: PATH })).toThrow(expect.objectContaining({ code: process.platform === "win32" ? undefined : "ErrUnsupportedOS" }));
    expect(() => checkRequirements({ arch: "mips || riscv64" }, { binaries: false, path: PATH })).toThrow(expect.objectContaining({ code: "ErrUnsupportedArch" }));
  });

  test("programs: one of each entry's alternatives, with variables substituted", () => {
    expect(() => checkRequirements({ binaries: ["nosuch${v} || sh", "${shell}"] }, { binaries: true, path: PATH, values: { v: "17", shell: "sh" } })).not.toThrow();
    let error: unknown;
    try {
      checkRequirements({ binaries: ["java${v} || java-nope", "sh"] }, { binaries: true, path: PATH, values: { v: "999" } });
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ code: "ErrMissingBinary", metadata: { expected: ["java999 or java-nope"] } });
  });
});
