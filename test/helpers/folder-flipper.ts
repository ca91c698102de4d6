// A process that races the node the way a hostile game server would: in a tight loop it makes a
// name in a server's folder a real folder (with a file in it), then a symlink to somewhere
// outside, then a folder again. A separate process, so the node's own event loop never pauses it.
// Run as a script it is the loop itself; imported, `startFlipper` spawns it.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface Flipper {
  stop(): Promise<void>;
}

/** Flips `<folder>/<name>` between a real folder and a symlink to `outside` until stopped. */
export function startFlipper(folder: string, name: string, outside: string): Flipper {
  const proc = Bun.spawn([process.execPath, import.meta.path, join(folder, name), outside], { stdout: "ignore", stderr: "ignore" });
  return {
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}

/** Each state lasts a random fraction of a millisecond, so the node's steps meet both. */
function hold(): void {
  const until = performance.now() + Math.random() * 0.5;
  while (performance.now() < until);
}

/** The node's steps make and remove things here too: a failed flip is simply tried again. */
function attempt(fn: () => void): void {
  try {
    fn();
  } catch {
    // raced with the node
  }
}

if (import.meta.main) {
  const [path, outside] = process.argv.slice(2) as [string, string];
  for (;;) {
    attempt(() => rmSync(path, { recursive: true, force: true }));
    attempt(() => mkdirSync(path));
    attempt(() => writeFileSync(join(path, "own.txt"), "inside\n"));
    hold();
    attempt(() => rmSync(path, { recursive: true, force: true }));
    attempt(() => symlinkSync(outside, path));
    hold();
  }
}
