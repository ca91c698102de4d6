// The own-disk repository's light key, against the real restic: after lightenKey the repository has
// one key, with the light scrypt cost, that restic opens, backs up and restores with; a second call
// changes nothing; a key restic cannot open is taken back and the calibrated key stays.
import { beforeEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { tempDir } from "../../test/helpers/process";
import { partAvailable } from "../../test/helpers/require-part";
import { Restic } from "./restic";
import { LIGHT_SCRYPT, lightenKey, sealKeyFile } from "./light-key";

const bin = Bun.which("restic");
const hasRestic = partAvailable("restic", () => bin !== null);

let dir = "";
let repository = "";
let password = "";
let restic: Restic;
const logged: string[] = [];
const keyFiles = () => readdirSync(join(repository, "keys"));
const costOf = (name: string) => (JSON.parse(readFileSync(join(repository, "keys", name), "utf8")) as { N: number }).N;

beforeEach(async () => {
  if (!hasRestic) return;
  dir = tempDir("kiln-light-key-");
  repository = join(dir, "repo");
  password = randomBytes(32).toString("base64url");
  writeFileSync(join(dir, "password"), password, { mode: 0o600 });
  restic = new Restic({ bin: bin!, env: { PATH: process.env.PATH ?? "", HOME: dir, RESTIC_REPOSITORY: repository, RESTIC_PASSWORD_FILE: join(dir, "password"), RESTIC_CACHE_DIR: join(dir, "cache") }, options: [], log: (line) => logged.push(line) });
  await restic.run(["init"]);
});

describe.skipIf(!hasRestic)("the local repository's light key", () => {
  test("replaces the calibrated key with one restic opens, backs up and restores with", async () => {
    const [calibrated] = keyFiles();
    expect(costOf(calibrated!)).toBeGreaterThan(LIGHT_SCRYPT.N);

    expect(await lightenKey(restic, repository, password, (line) => logged.push(line))).toBe(true);
    const [light, ...others] = keyFiles();
    expect(others).toEqual([]);
    expect(light).not.toBe(calibrated);
    expect(costOf(light!)).toBe(LIGHT_SCRYPT.N);

    const data = join(dir, "data");
    await Bun.write(join(data, "world", "level.dat"), "the world");
    await restic.run(["backup", ".", "--host", "kiln"], { cwd: data });
    await restic.run(["restore", "latest", "--target", join(dir, "restored")]);
    expect(readFileSync(join(dir, "restored", "world", "level.dat"), "utf8")).toBe("the world");

    // Again: nothing to do, nothing changes.
    expect(await lightenKey(restic, repository, password, () => undefined)).toBe(true);
    expect(keyFiles()).toEqual([light!]);
  }, 60_000);

  test("a key restic does not open (sealed with another password) is taken back; the calibrated key stays", async () => {
    const [calibrated] = keyFiles();
    const master = (await restic.run(["cat", "masterkey", "--no-lock"])).trim();
    const wrong = sealKeyFile(master, "not the repository's password");
    writeFileSync(join(repository, "keys", wrong.id), wrong.text, { mode: 0o400 });

    expect(await lightenKey(restic, repository, password, (line) => logged.push(line))).toBe(false);
    expect(keyFiles()).toEqual([calibrated!]);
    expect(logged.at(-1)).toContain("keeps its calibrated key");
    await restic.run(["cat", "config", "--no-lock"]);
  }, 60_000);

  test("a key file is restic's JSON, named by its SHA-256, the master key never in clear", () => {
    const master = JSON.stringify({ mac: { k: "a", r: "b" }, encrypt: "c" });
    const { id, text } = sealKeyFile(master, "pw");
    expect(id).toBe(new Bun.CryptoHasher("sha256").update(text).digest("hex"));
    const key = JSON.parse(text);
    expect(Object.keys(key)).toEqual(["created", "username", "hostname", "kdf", "N", "r", "p", "salt", "data"]);
    expect([key.kdf, key.N, key.r, key.p, Buffer.from(key.salt, "base64").length]).toEqual(["scrypt", LIGHT_SCRYPT.N, LIGHT_SCRYPT.r, LIGHT_SCRYPT.p, 64]);
    // nonce (16) + the sealed master key + the MAC (16)
    expect(Buffer.from(key.data, "base64").length).toBe(16 + master.length + 16);
    expect(text).not.toContain("encrypt");
  });
});
