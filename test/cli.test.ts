// The kiln command line as a real process.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { existsSync, readFileSync, statSync } from "node:fs";
import { Database } from "bun:sqlite";
import { nodeAuthorization } from "./helpers/node-caller";
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

  test("daemon refuses to start without a node secret", () => {
    const res = runKiln(["daemon"], { KILN_DAEMON_DATA: tempDir() });
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("node secret");
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

describe("nodes", () => {
  test("kiln daemon runs a node on its own: token-checked API, real servers, clean stop", async () => {
    const port = await freePort();
    const secret = "a-node-secret-for-the-cli-test";
    const data = tempDir();
    const daemon = await startKiln([...KILN, "daemon"], { KILN_DAEMON_SECRET: secret, KILN_DAEMON_PORT: String(port), KILN_DAEMON_HOST: "127.0.0.1", KILN_DAEMON_SFTP_PORT: "0", KILN_DAEMON_DATA: data }, /node listening on (\S+)/);
    try {
      const base = daemon.match[1]!;
      expect((await fetch(`${base}/daemon`)).status).toBe(401);
      const auth = (method: string, path: string) => ({ authorization: nodeAuthorization(secret, method, `${base}${path}`) });
      expect((await fetch(`${base}/daemon`, { headers: auth("GET", "/daemon") })).status).toBe(200);
      const definition = { run: { command: "sh -c 'echo from the daemon process; sleep 30'" } };
      expect((await fetch(`${base}/daemon/server/cli1`, { method: "PUT", headers: { ...auth("PUT", "/daemon/server/cli1"), "content-type": "application/json" }, body: JSON.stringify(definition) })).status).toBe(201);
      expect((await fetch(`${base}/daemon/server/cli1/start?wait=true`, { method: "POST", headers: auth("POST", "/daemon/server/cli1/start?wait=true") })).status).toBe(204);
      expect(existsSync(join(data, "servers", "cli1.json"))).toBe(true);
      let logs = "";
      for (let i = 0; i < 50 && !logs.includes("from the daemon process"); i++) {
        await Bun.sleep(50);
        logs = (await (await fetch(`${base}/daemon/server/cli1/console`, { headers: auth("GET", "/daemon/server/cli1/console") })).json()).logs.join("");
      }
      expect(logs).toContain("from the daemon process");
    } finally {
      daemon.proc.kill("SIGTERM");
    }
    // A clean stop also stops the host processes it ran.
    expect(await daemon.proc.exited).toBe(0);
  });

  test("kiln panel also runs the local node, on loopback, with its secret in <data>/node", async () => {
    const data = tempDir();
    const port = await freePort();
    const kiln = await startKiln([...KILN, "panel"], { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0" }, /local node listening on (\S+)/);
    try {
      const base = kiln.match[1]!;
      expect(base).toStartWith("http://127.0.0.1:");
      const secret = readFileSync(join(data, "node", "secret"), "utf8");
      expect(statSync(join(data, "node", "secret")).mode & 0o077).toBe(0);
      expect((await fetch(`${base}/daemon`)).status).toBe(401);
      expect((await fetch(`${base}/daemon`, { headers: { authorization: nodeAuthorization(secret, "GET", `${base}/daemon`) } })).status).toBe(200);
    } finally {
      kiln.proc.kill();
    }
  });
});

describe("first start", () => {
  test("with KILN_ADMIN_* set, that admin is created and can log in", async () => {
    const port = await freePort();
    const kiln = await startKiln([...KILN, "panel"], { KILN_DATA: tempDir(), KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0", KILN_ADMIN_EMAIL: "boss@example.com", KILN_ADMIN_PASSWORD: "bosspassword", KILN_ADMIN_USERNAME: "theboss" }, /listening on/);
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
    const env = { KILN_DATA: data, KILN_PORT: String(port), KILN_HOST: "127.0.0.1", KILN_SFTP_PORT: "0" };
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
