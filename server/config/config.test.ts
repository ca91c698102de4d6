import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from ".";
import { tempDir } from "../../test/helpers/process";

describe("config", () => {
  test("defaults", () => {
    const c = loadConfig({}, "/srv");
    expect(c.port).toBe(8080);
    expect(c.host).toBe("0.0.0.0");
    expect(c.dataDir).toBe("/srv/data");
    expect(c.firstAdmin).toBeUndefined();
  });

  test("the file is read, and the environment wins over it", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "kiln.json"), JSON.stringify({ port: 9000, host: "127.0.0.1", data: "d", branding: { name: "Acme" } }));
    const fromFile = loadConfig({ KILN_CONFIG: "kiln.json" }, dir);
    expect(fromFile).toMatchObject({ port: 9000, host: "127.0.0.1", dataDir: join(dir, "d"), branding: { name: "Acme" } });
    const both = loadConfig({ KILN_CONFIG: "kiln.json", KILN_PORT: "9100", KILN_DATA: "/var/kiln" }, dir);
    expect(both).toMatchObject({ port: 9100, host: "127.0.0.1", dataDir: "/var/kiln" });
  });

  test("the sweep of gone panels' socket rows: every 30 s, KILN_SOCKET_SWEEP_SECONDS (a test knob) shortens it", () => {
    expect(loadConfig({}, "/srv").socketSweepMs).toBe(30_000);
    expect(loadConfig({ KILN_SOCKET_SWEEP_SECONDS: "1" }, "/srv").socketSweepMs).toBe(1_000);
    for (const bad of ["0", "-1", "half", "0.5"]) expect(() => loadConfig({ KILN_SOCKET_SWEEP_SECONDS: bad }, "/srv")).toThrow("KILN_SOCKET_SWEEP_SECONDS");
    // Past a timer's longest wait (about 24.8 days) the sweep would run without pause.
    expect(loadConfig({ KILN_SOCKET_SWEEP_SECONDS: "2147483" }, "/srv").socketSweepMs).toBe(2_147_483_000);
    expect(() => loadConfig({ KILN_SOCKET_SWEEP_SECONDS: "2147484" }, "/srv")).toThrow("at most 2147483 seconds");
  });

  test("the executable offered to nodes: KILN_NODE_EXECUTABLE names one (for another system), else a checkout's dist/kiln or none", () => {
    expect(loadConfig({ KILN_NODE_EXECUTABLE: "builds/kiln-arm64" }, "/srv")).toMatchObject({ executable: "/srv/builds/kiln-arm64", executableChosen: true });
    const own = loadConfig({}, "/srv");
    expect(own.executableChosen).toBe(false);
    // Not compiled here: only a built dist/kiln beside the sources may be offered.
    expect([null, join(import.meta.dir, "..", "..", "dist", "kiln")]).toContain(own.executable);
  });

  test("the local node: in the panel's process by default; KILN_LOCAL_NODE=process or the file's ownProcess puts it in its own; 0 runs none", () => {
    expect(loadConfig({}, "/srv").localNode).toMatchObject({ enabled: true, ownProcess: false });
    expect(loadConfig({ KILN_LOCAL_NODE: "process" }, "/srv").localNode).toMatchObject({ enabled: true, ownProcess: true });
    expect(loadConfig({ KILN_LOCAL_NODE: "0" }, "/srv").localNode).toMatchObject({ enabled: false, ownProcess: false });
    const dir = tempDir();
    writeFileSync(join(dir, "kiln.json"), JSON.stringify({ localNode: { ownProcess: true } }));
    expect(loadConfig({ KILN_CONFIG: "kiln.json" }, dir).localNode).toMatchObject({ enabled: true, ownProcess: true });
    // The environment wins over the file, as for every setting.
    expect(loadConfig({ KILN_CONFIG: "kiln.json", KILN_LOCAL_NODE: "1" }, dir).localNode).toMatchObject({ enabled: true, ownProcess: false });
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ localNode: { ownProcess: "yes" } }));
    expect(() => loadConfig({ KILN_CONFIG: "bad.json" }, dir)).toThrow(ConfigError);
  });

  test("first admin from the environment", () => {
    expect(loadConfig({ KILN_ADMIN_EMAIL: "a@b.cd", KILN_ADMIN_PASSWORD: "secret123" }).firstAdmin).toEqual({ email: "a@b.cd", password: "secret123", username: undefined });
  });

  test("bad input is a clear error", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "bad.json"), "{ nope");
    writeFileSync(join(dir, "typo.json"), JSON.stringify({ prot: 1 }));
    expect(() => loadConfig({ KILN_CONFIG: "missing.json" }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ KILN_CONFIG: "bad.json" }, dir)).toThrow("not valid JSON");
    expect(() => loadConfig({ KILN_CONFIG: "typo.json" }, dir)).toThrow(ConfigError);
    expect(() => loadConfig({ KILN_PORT: "eighty" })).toThrow("KILN_PORT");
  });

  test("the database: SQLite in the data folder unless a postgres:// or sqlite: URL names another; anything else is refused", () => {
    const dir = tempDir();
    expect(loadConfig({ KILN_DATA: "d" }, dir).database).toBe(join(dir, "d", "kiln.db"));
    expect(loadConfig({ KILN_DATABASE_URL: "postgres://kiln:pw@db:5432/kiln" }, dir).database).toBe("postgres://kiln:pw@db:5432/kiln");
    expect(loadConfig({ KILN_DATABASE_URL: "sqlite:other.db" }, dir).database).toBe(join(dir, "other.db"));
    writeFileSync(join(dir, "pg.json"), JSON.stringify({ database: { url: "postgresql://db/kiln" } }));
    expect(loadConfig({ KILN_CONFIG: "pg.json" }, dir).database).toBe("postgresql://db/kiln");
    for (const url of ["mysql://db/kiln", "sqlite:", "/var/kiln.db", "postgres://"]) expect(() => loadConfig({ KILN_DATABASE_URL: url }, dir)).toThrow("postgres:// or sqlite:");
  });
});
