// The kiln command line as a real process.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { Database } from "bun:sqlite";
import { runKiln, startKiln, tempDir, KILN, freePort } from "./helpers/process";

describe("kiln command line", () => {
  test("--help and version", () => {
    const help = runKiln(["--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("kiln user add --email E --username U --password P [--admin]");
    const version = runKiln(["version"]);
    expect(version.stdout).toMatch(/^kiln \d+\.\d+\.\d+/);
  });

  test("an unknown command fails with a pointer to help", () => {
    const res = runKiln(["frobnicate"]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("see kiln --help");
  });

  test("daemon mode is a real switch that says it is not available yet", () => {
    const res = runKiln(["daemon"], { KILN_DATA: tempDir() });
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("kiln daemon");
  });

  test("user add creates an account with an argon2id hash, and refuses bad input", () => {
    const data = tempDir();
    const ok = runKiln(["user", "add", "--email", "Op@Example.com", "--username", "operator", "--password", "longenough", "--admin"], { KILN_DATA: data });
    expect(ok.code).toBe(0);
    const db = new Database(join(data, "kiln.db"), { readonly: true });
    const row = db.query("select id, email, password_hash from users").get() as { id: number; email: string; password_hash: string };
    expect(row.email).toBe("op@example.com");
    expect(row.password_hash).toStartWith("$argon2id$");
    expect(db.query("select scope from user_scopes where user_id = ?").all(row.id)).toEqual([{ scope: "servers.admin" }]);
    db.close();

    const short = runKiln(["user", "add", "--email", "b@example.com", "--username", "bob", "--password", "longenough"], { KILN_DATA: data });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain("at least 5 characters");
    const dup = runKiln(["user", "add", "--email", "op@example.com", "--username", "other1", "--password", "longenough"], { KILN_DATA: data });
    expect(dup.code).toBe(2);
    expect(dup.stderr).toContain("already exists");
  });

  test("a bad config file is reported, not thrown", () => {
    const res = runKiln(["version"], { KILN_CONFIG: "/nope/kiln.json" });
    expect(res.code).toBe(0); // version needs no config
    const panel = runKiln(["panel"], { KILN_CONFIG: "/nope/kiln.json" });
    expect(panel.code).toBe(2);
    expect(panel.stderr).toContain("config file not found");
  });
});

describe("first start", () => {
  test("with KILN_ADMIN_* set, that admin is created and can log in", async () => {
    const port = await freePort();
    const kiln = await startKiln([...KILN, "panel"], { KILN_DATA: tempDir(), KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_ADMIN_EMAIL: "boss@example.com", KILN_ADMIN_PASSWORD: "bosspassword", KILN_ADMIN_USERNAME: "theboss" }, /listening on/);
    try {
      expect(kiln.output()).toContain("boss@example.com (username theboss)");
      expect(kiln.output()).not.toContain("bosspassword");
      const res = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "boss@example.com", password: "bosspassword" }) });
      expect((await res.json()).scopes).toEqual(["servers.admin"]);
    } finally {
      kiln.proc.kill();
    }
  });

  test("without them, a random password is printed once and works", async () => {
    const data = tempDir();
    const port = await freePort();
    const env = { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1" };
    const first = await startKiln([...KILN], env, /its password is (\S+)/);
    const password = first.match[1]!;
    try {
      await startedOn(port);
      const res = await fetch(`http://127.0.0.1:${port}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "admin@kiln.local", password }) });
      expect(res.status).toBe(200);
    } finally {
      first.proc.kill();
      await first.proc.exited;
    }
    const second = await startKiln([...KILN], env, /listening on/);
    second.proc.kill();
    expect(second.output()).not.toContain("password");
  });
});

async function startedOn(port: number): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await fetch(`http://127.0.0.1:${port}/api/config`).then(() => true, () => false)) return;
    await Bun.sleep(50);
  }
  throw new Error("panel did not answer");
}
