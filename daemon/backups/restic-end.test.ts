// How a backup's restic is ended (./restic): SIGINT, on which restic removes its lock; one that
// does not end is killed and its stale lock removed with `restic unlock`. A stand-in for restic
// (a script) plays a restic that waits on a named pipe.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { KilnError } from "../../core/errors";
import { Restic } from "./restic";

const dir = mkdtempSync(join(tmpdir(), "kiln-restic-end-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(dir, "restic");
// backup: one status line, then waits (a "stubborn" one ignores SIGINT); unlock: leaves a mark.
writeFileSync(bin, `#!/bin/sh
case "$1" in
  backup) [ "$KIND" = stubborn ] && trap '' INT; echo '{"message_type":"status","files_done":0,"bytes_done":0}'; exec sleep 60 ;;
  unlock) touch "$MARK" ;;
esac
`);
chmodSync(bin, 0o755);

function restic(kind: "polite" | "stubborn") {
  const mark = join(dir, `${kind}.unlocked`);
  const logged: string[] = [];
  const r = new Restic({ bin, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", KIND: kind, MARK: mark }, options: [], log: (line) => logged.push(line) });
  return { r, mark, logged };
}
const backup = (r: Restic, signal?: AbortSignal) => r.backupFolder(["."], { folder: dir, readable: [], signal, stall: { stallMs: 500, idleMs: 60_000 } });
const failure = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => (error instanceof KilnError ? { code: error.code, reason: String(error.metadata?.reason ?? "") } : { code: String(error), reason: "" }));

test("a restic that gets nowhere is ended with SIGINT: ErrBackupFailed saying so, no unlock needed", async () => {
  const { r, mark } = restic("polite");
  const started = Date.now();
  const error = await failure(backup(r));
  expect(error?.code).toBe("ErrBackupFailed");
  expect(error?.reason).toContain("no progress");
  expect(Date.now() - started).toBeLessThan(5000);
  expect(existsSync(mark)).toBe(false);
});

test("one that ignores SIGINT is killed after the grace, and its lock removed by restic unlock", async () => {
  const { r, mark, logged } = restic("stubborn");
  const error = await failure(backup(r));
  expect(error?.reason).toContain("no progress");
  expect(existsSync(mark)).toBe(true);
  expect(logged.join("\n")).toContain("was killed");
}, 30_000);

test("an aborted backup is ended with SIGINT too", async () => {
  const { r } = restic("polite");
  const abort = new AbortController();
  setTimeout(() => abort.abort(), 100);
  const started = Date.now();
  expect((await failure(backup(r, abort.signal)))?.code).toBe("ErrBackupFailed");
  expect(Date.now() - started).toBeLessThan(2000);
});
