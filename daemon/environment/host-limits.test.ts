// The limit mechanisms' argv prefixes, prlimit really holding a process to its memory, and the
// node config's measurement interval. The cgroup mechanisms on a real node are attacked in
// test/security/limits.test.ts.
import { describe, expect, test } from "bun:test";
import { HostLimiter, limited } from "./host-limits";
import { ROOT_STAGE_ENV } from "./sandbox";
import { loadDaemonConfig, DEFAULT_DISK_CHECK_MS } from "../config";

const MIB = 1024 * 1024;
const SECRET = { KILN_DAEMON_SECRET: "a-secret-of-sixteen-or-more" };

describe("HostLimiter.prefix", () => {
  test("no limit (or only a disk space) needs no prefix, whatever the mechanism", () => {
    for (const mechanism of ["cgroup2", "cgroup1", "prlimit", "none"] as const) {
      expect(new HostLimiter(mechanism, "/nonexistent").prefix("s", undefined, true)).toEqual([]);
      expect(new HostLimiter(mechanism, "/nonexistent").prefix("s", { diskMiB: 5, memoryMiB: 0 }, true)).toEqual([]);
    }
  });

  test("prlimit: memory as address space; processes only for a server with its own uid (RLIMIT_NPROC counts per uid); no CPU", () => {
    const limiter = new HostLimiter("prlimit");
    const prlimit = Bun.which("prlimit")!;
    expect(limiter.prefix("s", { memoryMiB: 64, processes: 10, cpuPercent: 50 }, true)).toEqual([prlimit, `--as=${64 * MIB}`, "--nproc=10", "--"]);
    expect(limiter.prefix("s", { memoryMiB: 64, processes: 10 }, false)).toEqual([prlimit, `--as=${64 * MIB}`, "--"]);
    expect(limiter.prefix("s", { cpuPercent: 50 }, true)).toEqual([]);
  });

  test("none enforces nothing", () => {
    expect(new HostLimiter("none").prefix("s", { memoryMiB: 64, processes: 10, cpuPercent: 50 }, true)).toEqual([]);
  });

  test("a user the spawn would switch to is switched to by setpriv after the prefix, which runs as the node with none of the server's variables", () => {
    const target = { argv: ["game"], env: { LD_LIBRARY_PATH: "/srv" }, cwd: "/srv", uid: 2_000_000_000, gid: 2_000_000_000, wrappers: 0 };
    const out = limited(target, { limiter: new HostLimiter("prlimit"), serverId: "s", current: () => ({ memoryMiB: 1 }) }, true);
    expect(out.argv).toEqual([
      Bun.which("prlimit")!, `--as=${MIB}`, "--",
      Bun.which("setpriv")!, "--reuid=2000000000", "--regid=2000000000", "--clear-groups", "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all", "--",
      Bun.which("sh")!, "-c", expect.stringContaining(`exec ${Bun.which("env")} -i "$@"`), "kiln-env", "game",
    ]);
    // The server's variables travel under names no program reads, for the last stage to hand over.
    expect(out.env).toEqual({ ...ROOT_STAGE_ENV, KILN_ENV_0: "LD_LIBRARY_PATH=/srv" });
    expect(out.uid).toBeUndefined();
    const unlimited = limited(target, { limiter: new HostLimiter("prlimit"), serverId: "s", current: () => undefined }, true);
    expect(unlimited).toBe(target);
  });
});

test.skipIf(!Bun.which("prlimit"))("prlimit really holds a process to its memory", async () => {
  const prefix = new HostLimiter("prlimit").prefix("s", { memoryMiB: 32 }, false);
  // Doubles a string to 256 MiB: past 32 MiB of address space the shell cannot allocate and fails.
  const proc = Bun.spawn([...prefix, "sh", "-c", "a=x; i=0; while [ $i -lt 28 ]; do a=$a$a; i=$((i+1)); done; echo survived"], { stdout: "pipe", stderr: "pipe" });
  const out = await new Response(proc.stdout).text();
  expect(await proc.exited).not.toBe(0);
  expect(out).not.toContain("survived");
});

test("the node config's measurement interval: diskCheckSeconds, KILN_DAEMON_DISK_CHECK_SECONDS, a minute by default", () => {
  expect(loadDaemonConfig({ ...SECRET, KILN_DAEMON_CONFIG: undefined }, "/").diskCheckMs).toBe(DEFAULT_DISK_CHECK_MS);
  expect(DEFAULT_DISK_CHECK_MS).toBe(60_000);
  expect(loadDaemonConfig({ ...SECRET, KILN_DAEMON_DISK_CHECK_SECONDS: "5" }, "/").diskCheckMs).toBe(5000);
  expect(() => loadDaemonConfig({ ...SECRET, KILN_DAEMON_DISK_CHECK_SECONDS: "0" }, "/")).toThrow("KILN_DAEMON_DISK_CHECK_SECONDS must be a positive whole number");
});
