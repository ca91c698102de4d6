// restic derives a repository's key with scrypt parameters it calibrates at `init` to take half a
// second, and every restic run pays that again: on a small server's 1 GB, a second backup after a
// 1 % change took 1 s, half of it the key. The node's own-disk repository is opened with a password
// of 256 random bits that the node generated, which no key stretching makes any stronger, so the
// node gives that repository a key file with light scrypt parameters and removes the calibrated
// one. Only that repository: an off-node target may be opened with a password a person chose.
//
// The key file is restic's own format (internal/repository/key.go, internal/crypto): the master
// key, as `restic cat masterkey` prints it, sealed with the user key scrypt derives from the
// password: AES-256-CTR under a random 16-byte nonce, then Poly1305-AES over the ciphertext (r from
// the key, s the nonce encrypted with AES-128 under the key's k). restic opens the new key itself
// before the old one goes (`key list` names the key it opened with); if it does not, the new one
// goes and nothing else changes.
import { createCipheriv, createHash, randomBytes, scryptSync } from "node:crypto";
import { existsSync, readFileSync, readdirSync, renameSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { poly1305 } from "@noble/ciphers/_poly1305.js";
import type { Restic } from "./restic";

/** scrypt's cost for the node's own repository: a few milliseconds, where restic's takes 500. */
export const LIGHT_SCRYPT = { N: 4096, r: 8, p: 1 };

/** restic's key file for `masterKey` (its JSON), opened with `password`; and the file's name. */
export function sealKeyFile(masterKey: string, password: string, now = new Date()): { id: string; text: string } {
  const salt = randomBytes(64);
  const { N, r, p } = LIGHT_SCRYPT;
  const derived = scryptSync(password, salt, 64, { N, r, p, maxmem: 256 * N * r });
  const [encryption, macK, macR] = [derived.subarray(0, 32), derived.subarray(32, 48), derived.subarray(48, 64)];
  const nonce = randomBytes(16);
  const cipher = createCipheriv("aes-256-ctr", encryption, nonce);
  const sealed = Buffer.concat([cipher.update(Buffer.from(masterKey)), cipher.final()]);
  const s = createCipheriv("aes-128-ecb", macK, null).setAutoPadding(false).update(nonce);
  const tag = poly1305(sealed, Buffer.concat([macR, s]));
  const key = {
    created: now.toISOString(),
    username: "kiln",
    hostname: "kiln",
    kdf: "scrypt",
    N,
    r,
    p,
    salt: salt.toString("base64"),
    data: Buffer.concat([nonce, sealed, tag]).toString("base64"),
  };
  const text = JSON.stringify(key);
  return { id: createHash("sha256").update(text).digest("hex"), text };
}

function scryptCost(file: string): number {
  try {
    const key = JSON.parse(readFileSync(file, "utf8")) as { N?: unknown };
    return typeof key.N === "number" ? key.N : Number.POSITIVE_INFINITY;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/**
 * Leaves the local repository at `repository` with one key, a light one. Idempotent: a repository
 * that has it already costs a directory listing. Resolves false when restic would not open the
 * light key (the calibrated one then stays, and backups work as before, only slower).
 */
export async function lightenKey(restic: Restic, repository: string, password: string, log: (line: string) => void): Promise<boolean> {
  const folder = join(repository, "keys");
  const keys = readdirSync(folder);
  let light = keys.find((name) => scryptCost(join(folder, name)) <= LIGHT_SCRYPT.N);
  if (light && keys.length === 1) return true;
  if (!light) {
    const sealed = sealKeyFile((await restic.run(["cat", "masterkey", "--no-lock"])).trim(), password);
    writeFileSync(join(folder, `${sealed.id}.tmp`), sealed.text, { mode: 0o400, flag: "wx" });
    renameSync(join(folder, `${sealed.id}.tmp`), join(folder, sealed.id));
    light = sealed.id;
  }
  // With the hint restic tries the light key first and names the key it opened with: that must be it.
  const listed = await restic.json<{ id: string; current: boolean }[]>(["--key-hint", light, "key", "list", "--no-lock"]).catch(() => []);
  const opens = listed.some((key) => key.current && light.startsWith(key.id));
  if (!opens) {
    unlinkSync(join(folder, light));
    log("kiln daemon: restic did not open the light key of the local backup repository; it keeps its calibrated key");
    return false;
  }
  for (const name of keys) if (name !== light && existsSync(join(folder, name))) unlinkSync(join(folder, name));
  return true;
}
