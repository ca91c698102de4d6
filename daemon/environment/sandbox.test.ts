// The sandbox's spawn as built (the attack tests in test/security/isolation.test.ts run it for
// real), the exit codes it reports, and the node config keys that choose it.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import { loadDaemonConfig, DaemonConfigError } from "../config";
import { tempDir } from "../../test/helpers/process";
import { DEFAULT_ISOLATION, DEFAULT_TMP_BYTES, ROOT_STAGE_ENV, sandboxed, sandboxExit, type Isolation } from "./sandbox";

const data = tempDir("kiln-sandbox-");
const serverDir = join(data, "servers", "a");
const binariesDir = join(data, "binaries");
mkdirSync(serverDir, { recursive: true });
mkdirSync(binariesDir, { recursive: true });
const isolation: Isolation = { mode: "auto", sandbox: true, problem: null, reason: null, bwrapPath: "bwrap", binariesDir, hidden: [data, "/usr/share"] };
const user = { uid: 2_000_000_007, gid: 2_000_000_007 };

/** The value after `flag` each time it appears, e.g. every --bind source. */
const after = (argv: string[], flag: string) => argv.flatMap((arg, i) => (arg === flag ? [argv[i + 1]] : []));

describe("sandboxed", () => {
  test("namespaces but the network, its folder writable, the binaries and system read-only, then the server's uid", () => {
    const target = sandboxed(["java", "-jar", "server.jar"], { PATH: "/x" }, serverDir, { serverDir, user }, isolation);
    const argv = target.argv;
    expect(argv[0]).toBe(Bun.which("bwrap")!);
    for (const flag of ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--die-with-parent", "--new-session"]) expect(argv).toContain(flag);
    expect(argv).not.toContain("--unshare-net");
    expect(argv).not.toContain("--unshare-all");
    expect(after(argv, "--bind")).toEqual([serverDir]);
    expect(after(argv, "--ro-bind")).toContain(binariesDir);
    expect(after(argv, "--ro-bind")).toContain("/etc");
    // Nothing else of the data folder: not the folder itself, nor "/" wholesale.
    expect([...after(argv, "--bind"), ...after(argv, "--ro-bind")]).not.toContain(data);
    expect(after(argv, "--ro-bind")).not.toContain("/");
    // A hidden folder under a system folder the sandbox shows is covered; one elsewhere needs nothing.
    expect(after(argv, "--tmpfs")).toEqual(["/tmp", "/dev/shm", "/usr/share"]);
    // The server's own /tmp and /dev/shm: closed to others, the default size without a memory limit.
    expect(after(argv, "--size")).toEqual([String(DEFAULT_TMP_BYTES), String(DEFAULT_TMP_BYTES)]);
    expect(after(argv, "--chdir")).toEqual([serverDir]);
    const command = argv.slice(argv.indexOf("--") + 1);
    // Root in the sandbox hands /tmp and /dev/shm over, then drops to the uid; the server's
    // variables reach only the command (env -i after the drop), carried past every root stage
    // under names none of them reads.
    expect(command).toEqual([
      Bun.which("sh")!, "-c", `${Bun.which("chown")} ${user.uid}:${user.gid} /tmp /dev/shm && exec "$@"`, "kiln-tmp",
      Bun.which("setpriv")!, `--reuid=${user.uid}`, `--regid=${user.gid}`, "--clear-groups", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--",
      Bun.which("sh")!, "-c", expect.stringContaining(`exec ${Bun.which("env")} -i "$@"`), "kiln-env", "java", "-jar", "server.jar",
    ]);
    expect(target.env).toEqual({ ...ROOT_STAGE_ENV, KILN_ENV_0: "PATH=/x" });
    expect(target.wrappers).toBe(2);
    expect(target.uid).toBeUndefined();
  });

  test("on a terminal the process keeps its session (its own pty); without a user it keeps the node's", () => {
    const argv = sandboxed(["sh"], {}, serverDir, { serverDir, user: null }, isolation, true).argv;
    expect(argv).not.toContain("--new-session");
    expect(argv).not.toContain("setpriv");
    expect(argv.slice(-2)).toEqual(["--", "sh"]);
  });

  test('no sandbox: "required" refuses with the catalogue error, "auto" runs the command as is as the server\'s uid', () => {
    const none: Isolation = { ...isolation, sandbox: false, problem: "missing", reason: "bubblewrap is not installed" };
    let refused: unknown;
    try {
      sandboxed(["sh"], {}, serverDir, { serverDir, user }, { ...none, mode: "required" });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(KilnError);
    expect((refused as KilnError).code).toBe("ErrIsolationUnavailable");
    expect(sandboxed(["sh"], { A: "1" }, serverDir, { serverDir, user }, none)).toEqual({ argv: ["sh"], env: { A: "1" }, cwd: serverDir, uid: user.uid, gid: user.gid, wrappers: 0 });
  });
});

test("a command the sandbox reports as 128 + N was ended by signal N; plain exits stay exits", () => {
  expect(sandboxExit(137, null, 2)).toEqual({ code: null, signal: "SIGKILL" });
  expect(sandboxExit(143, null, 2)).toEqual({ code: null, signal: "SIGTERM" });
  expect(sandboxExit(3, null, 2)).toEqual({ code: 3, signal: null });
  expect(sandboxExit(137, null, 0)).toEqual({ code: 137, signal: null });
});

describe("node config", () => {
  const secret = "s".repeat(24);
  test("defaults to auto with the default range; the file and KILN_DAEMON_ISOLATION choose; the config's folder is hidden", () => {
    expect(loadDaemonConfig({ KILN_DAEMON_SECRET: secret }, data).isolation).toEqual({ ...DEFAULT_ISOLATION, hiddenPaths: [] });
    const dir = tempDir("kiln-sandbox-config-");
    writeFileSync(join(dir, "daemon.json"), JSON.stringify({ secret, isolation: "required", bwrapPath: "/opt/bwrap", uidRange: [300000, 300999], nftPath: "/opt/nft", networkRange: "10.99.0.0/16" }));
    expect(loadDaemonConfig({ KILN_DAEMON_CONFIG: "daemon.json" }, dir).isolation).toEqual({ mode: "required", bwrapPath: "/opt/bwrap", uidRange: [300000, 300999], hiddenPaths: [dir], ipPath: "ip", nftPath: "/opt/nft", networkRange: "10.99.0.0/16" });
    writeFileSync(join(dir, "range.json"), JSON.stringify({ secret, networkRange: "10.99.1.0/24" }));
    expect(() => loadDaemonConfig({ KILN_DAEMON_CONFIG: "range.json" }, dir)).toThrow(DaemonConfigError);
    expect(loadDaemonConfig({ KILN_DAEMON_CONFIG: "daemon.json", KILN_DAEMON_ISOLATION: "auto" }, dir).isolation?.mode).toBe("auto");
    expect(() => loadDaemonConfig({ KILN_DAEMON_SECRET: secret, KILN_DAEMON_ISOLATION: "off" }, dir)).toThrow(DaemonConfigError);
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ secret, uidRange: [5000, 4000] }));
    expect(() => loadDaemonConfig({ KILN_DAEMON_CONFIG: "bad.json" }, dir)).toThrow(DaemonConfigError);
    writeFileSync(join(dir, "root.json"), JSON.stringify({ secret, uidRange: [0, 4000] }));
    expect(() => loadDaemonConfig({ KILN_DAEMON_CONFIG: "root.json" }, dir)).toThrow(DaemonConfigError);
  });
});
