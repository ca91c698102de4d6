// DNS rebinding against a webhook: a name with a TTL of 0 answers a public address when the
// endpoint is saved and when the attempt is checked, then the loopback to the connection's own
// lookup. The delivery must go to the address the check approved, so it reaches nothing on the
// panel's machine. Run in a mount namespace whose resolv.conf names the probe's own resolver
// (test/helpers/webhook-rebind-probe.ts), with root and unshare.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { partAvailable } from "../helpers/require-part";

const canRebind = partAvailable("root and unshare, for a resolver of the test's own", () => process.getuid?.() === 0 && Bun.which("unshare") !== null);

describe("webhook destinations and a name that changes its answer", () => {
  test.if(canRebind)("a delivery connects to the address its check approved, not to the loopback a second answer names", async () => {
    const dir = mkdtempSync(join(tmpdir(), "kiln-webhook-rebind-"));
    try {
      writeFileSync(join(dir, "resolv.conf"), "nameserver 127.77.0.54\n");
      const probe = join(import.meta.dir, "..", "helpers", "webhook-rebind-probe.ts");
      const run = Bun.spawn(["unshare", "-m", "sh", "-c", `mount --bind ${join(dir, "resolv.conf")} /etc/resolv.conf && exec ${process.execPath} ${probe}`], { stdout: "pipe", stderr: "pipe" });
      const out = (await new Response(run.stdout).text()).trim().split("\n").at(-1) ?? "";
      expect(await run.exited).toBe(0);
      const result = JSON.parse(out) as { reached: number; response: string | null };
      // The check saw 203.0.113.99, where nothing answers: the attempt failed there.
      expect(result.reached).toBe(0);
      expect(result.response).not.toBe("thanks");
      expect(result.response).not.toBeNull();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 30_000);
});
