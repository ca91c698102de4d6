// The first login screen of a fresh panel (a real `kiln panel` process): it says which account
// the first administrator is and where its password is (printed once in the panel's log, or the
// one KILN_ADMIN_PASSWORD set), until that administrator has logged in once.
import { describe, expect, test } from "bun:test";
import { KILN, freePort, startKiln, tempDir } from "./helpers/process";

async function freshPanel(env: Record<string, string> = {}) {
  const port = await freePort();
  const kiln = await startKiln([...KILN, "panel"], { KILN_DATA: tempDir(), KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_LOCAL_NODE: "0", ...env }, /panel listening on/);
  return { kiln, base: `http://127.0.0.1:${port}` };
}

const notice = (html: string) => /data-testid="first-admin-notice">.*?<div>(.*?)<\/div>/s.exec(html)?.[1]?.replaceAll("&quot;", '"').replaceAll("&#x27;", "'");

describe("the first login screen", () => {
  test("names the first administrator and says its password is in the panel's log; gone once it has logged in", async () => {
    const { kiln, base } = await freshPanel();
    try {
      const password = /kiln: its password is (\S+)/.exec(kiln.output())![1]!;
      const first = await (await fetch(`${base}/auth/login`)).text();
      expect(notice(first)).toBe(
        "First start: the administrator account is admin@kiln.local. Its password was made up when the panel first started and printed once in the panel's log, on the line that begins \"kiln: its password is\". Change it on the Account page once you are in.",
      );
      // A wrong password keeps the notice beside the error.
      const wrong = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: base }, body: "email=admin%40kiln.local&password=nope" });
      expect(notice(await wrong.text())).toContain("admin@kiln.local");
      const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: base }, body: JSON.stringify({ email: "admin@kiln.local", password }) });
      expect(login.status).toBe(200);
      expect(notice(await (await fetch(`${base}/auth/login`)).text())).toBeUndefined();
    } finally {
      kiln.proc.kill();
    }
  });

  test("with KILN_ADMIN_PASSWORD it says the password is that one, and never shows it", async () => {
    const { kiln, base } = await freshPanel({ KILN_ADMIN_EMAIL: "owner@example.com", KILN_ADMIN_PASSWORD: "a-long-password-1" });
    try {
      const html = await (await fetch(`${base}/auth/login`)).text();
      expect(notice(html)).toBe("First start: the administrator account is owner@example.com, with the password set in KILN_ADMIN_PASSWORD when the panel first started.");
      expect(html).not.toContain("a-long-password-1");
    } finally {
      kiln.proc.kill();
    }
  });
});
