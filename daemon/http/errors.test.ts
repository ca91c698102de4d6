import { describe, expect, test } from "bun:test";
import { KilnError } from "../../core/errors";
import { errnoToKilnError, publicReason, toKilnError, withoutHostPaths } from "./errors";

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

describe("the node's error texts", () => {
  test("absolute paths become their last name; URLs and relative paths stay", () => {
    expect(withoutHostPaths("ENOENT: no such file or directory, open '/var/lib/kiln/servers/ab12cd34/motd.txt'")).toBe("ENOENT: no such file or directory, open 'motd.txt'");
    expect(withoutHostPaths("unexpected answer from https://example.com/a/b.json")).toBe("unexpected answer from https://example.com/a/b.json");
    expect(withoutHostPaths("not found: plugins/x.jar")).toBe("not found: plugins/x.jar");
    expect(withoutHostPaths("cannot run /tmp/kiln-node-1/bin/java (exit 1)")).toBe("cannot run java (exit 1)");
  });

  test("failed system calls are catalogue errors without the host's path", () => {
    const long = toKilnError(fsError("ENAMETOOLONG", "ENAMETOOLONG: name too long, open '/var/lib/kiln/servers/x/aaaa'"));
    expect(long.code).toBe("ErrFieldTooLarge");
    expect(long.message).not.toContain("/var/lib");
    expect(toKilnError(fsError("ENOENT", "ENOENT: open '/var/lib/kiln/x'")).code).toBe("ErrNotFound");
    expect(errnoToKilnError(fsError("EACCES", "x"), "plugins")?.metadata).toEqual({ path: "plugins" });
    expect(errnoToKilnError(new Error("plain"))).toBeNull();
    expect(toKilnError(new URIError("URI malformed")).code).toBe("ErrNotFound");
    expect(toKilnError(new Error("something internal")).code).toBe("ErrUnknownError");
  });

  test("a reason for the console says what failed in words", () => {
    expect(publicReason(fsError("ENAMETOOLONG", "ENAMETOOLONG: name too long, open '/var/lib/kiln/servers/x/aaaa'"))).toBe("a name in the path is too long");
    expect(publicReason(new KilnError("ErrMissingBinary", undefined, "cannot run /opt/java/bin/java: not found"))).toBe("cannot run java: not found");
    expect(publicReason("text")).toBe("text");
  });
});
