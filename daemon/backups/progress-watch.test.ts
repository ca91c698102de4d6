// When a backup's restic counts as getting nowhere (./progress-watch): its own counters and its
// input and output are progress, the lines it prints and what it finds are not.
import { afterEach, describe, expect, test } from "bun:test";
import { ProgressWatch } from "./progress-watch";

const LIMITS = { stallMs: 10_000, idleMs: 60_000 };
let clock = 0;
const watches: ProgressWatch[] = [];
afterEach(() => watches.splice(0).forEach((w) => w.stop()));

/** A watch on a fake clock, ticked by hand; `pid` for /proc/<pid>/io. */
function watch(pid: number | null = null) {
  clock = 0;
  const stalls: number[] = [];
  const w = new ProgressWatch(LIMITS, () => pid, (ms) => stalls.push(ms), () => clock, 1e9);
  watches.push(w);
  const at = (ms: number) => {
    clock = ms;
    w.tick();
  };
  return { w, stalls, at };
}
const status = (files: number, bytes: number, total = 1000) => ({ message_type: "status", files_done: files, bytes_done: bytes, total_files: total, total_bytes: total * 10 });

describe("a backup's progress", () => {
  test("files and bytes done that keep changing keep a long backup going", () => {
    const { w, stalls, at } = watch();
    for (let s = 1; s <= 600; s++) {
      w.status(status(s, s * 1000));
      at(s * 1000);
    }
    expect(stalls).toEqual([]);
  });

  test("the same counters again and again are no progress: ended once, after stallMs", () => {
    const { w, stalls, at } = watch();
    for (let s = 1; s <= 30; s++) {
      w.status(status(5, 500));
      at(s * 1000);
    }
    expect(stalls).toEqual([10_000]);
  });

  test("what restic finds (a folder that grows while it waits) is not progress", () => {
    const { w, stalls, at } = watch();
    for (let s = 1; s <= 12; s++) {
      w.status(status(5, 500, 1000 + s * 1000));
      at(s * 1000);
    }
    expect(stalls).toHaveLength(1);
  });

  test("restic let go just before the limit, again and again, is ended once idle long enough", () => {
    const { w, stalls, at } = watch();
    let t = 0;
    for (let round = 1; round <= 10 && stalls.length === 0; round++) {
      for (let s = 0; s < 9; s++) at((t += 1000));
      w.status(status(round, round * 100));
      at((t += 1000));
    }
    expect(stalls).toHaveLength(1);
    expect(t).toBeLessThanOrEqual(80_000);
  });

  test("input and output of restic's own are progress; the lines it prints are not", async () => {
    // Reading and writing all the while, as restic does when it reads files or uploads packs.
    const busy = Bun.spawn(["cat", "/dev/zero"], { stdout: "ignore" });
    // Only printing its lines, as restic does while its open waits on a pipe.
    // (One process: the I/O of a child it reaps would count as its own.)
    const printing = Bun.spawn(["perl", "-e", '$| = 1; while (1) { print qq({"message_type":"status"}\\n); select(undef, undef, undef, 0.05) }'], { stdout: "pipe" });
    const sleeping = Bun.spawn(["sleep", "60"]);
    try {
      const outcome: Record<string, number> = {};
      for (const [name, proc] of [["busy", busy], ["printing", printing], ["sleeping", sleeping]] as const) {
        const { w, stalls, at } = watch(proc.pid);
        // Its lines are read as restic's are, and told to the watch.
        if (proc === printing) void (async () => { for await (const chunk of printing.stdout) w.output(chunk.byteLength); })();
        for (let s = 1; s <= 14; s++) {
          await Bun.sleep(60);
          at(s * 1000);
        }
        outcome[name] = stalls.length;
      }
      expect(outcome).toEqual({ busy: 0, printing: 1, sleeping: 1 });
    } finally {
      for (const proc of [busy, printing, sleeping]) proc.kill();
    }
  });
});
