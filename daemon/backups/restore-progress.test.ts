// A whole restore's progress, told as the staging folder grows towards the backup's size: each
// tenth once, on the console and to the list (the end-to-end restore may be too quick for a line).
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { followRestore } from "./restore-progress";
import { renderMessage } from "../../core/live/daemon-message";
import { english } from "../../locales/english";

const folder = mkdtempSync(join(tmpdir(), "kiln-restore-progress-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

test("each tenth reached is said once, and the list is told the share done", async () => {
  const MiB = 1024 * 1024;
  const said: string[] = [];
  const told: number[] = [];
  const stop = followRestore(folder, 10 * MiB, (done) => told.push(done), (line) => said.push(renderMessage(line, english)));
  try {
    writeFileSync(join(folder, "a"), Buffer.alloc(5 * MiB));
    await Bun.sleep(700);
    writeFileSync(join(folder, "b"), Buffer.alloc(4 * MiB));
    await Bun.sleep(700);
  } finally {
    stop();
  }
  expect(said).toEqual(["backup: restore 50%", "backup: restore 90%"]);
  expect(Math.max(...told)).toBeGreaterThanOrEqual(0.9);
  expect(Math.max(...told)).toBeLessThanOrEqual(1);
});
