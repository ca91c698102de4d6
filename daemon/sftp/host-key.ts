// The node's SSH host key: an Ed25519 key made on the first start and kept in
// <data>/sftp/host_key (owner-only, OpenSSH's own format, so `ssh-keygen -lf` reads it), so
// clients that remember it keep trusting the node across restarts and upgrades.
//
// Written and read here with node:crypto and a few bytes of parsing rather than through ssh2:
// ssh2 costs about 20 MB once loaded, and the SFTP server loads it only when a client connects.
import { createHash, generateKeyPairSync, randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export function hostKeyPath(dataDir: string): string {
  return join(dataDir, "sftp", "host_key");
}

export interface HostKey {
  /** The private key in OpenSSH format, as ssh2 takes it. */
  key: Buffer;
  /** "SHA256:…", as `ssh-keygen -lf` and clients show it. */
  fingerprint: string;
}

const MAGIC = Buffer.from("openssh-key-v1\0");
const BEGIN = "-----BEGIN OPENSSH PRIVATE KEY-----";
const END = "-----END OPENSSH PRIVATE KEY-----";

export function loadOrCreateHostKey(dataDir: string): HostKey {
  const path = hostKeyPath(dataDir);
  let key = readIfThere(path);
  if (!key) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    try {
      // "wx": if another start wrote one meanwhile, that one is kept and read below.
      writeFileSync(path, newEd25519Key(), { mode: 0o600, flag: "wx" });
    } catch (error) {
      if ((error as { code?: string }).code !== "EEXIST") throw error;
    }
    key = readFileSync(path);
  }
  const blob = publicKeyBlob(key);
  if (!blob) throw new Error(`the SFTP host key ${path} is not an unencrypted OpenSSH private key; move it away to make a new one`);
  return { key, fingerprint: `SHA256:${createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}` };
}

/** A new Ed25519 key in the "openssh-key-v1" format (unencrypted), as ssh-keygen writes it. */
function newEd25519Key(): string {
  const jwk = generateKeyPairSync("ed25519").privateKey.export({ format: "jwk" }) as { d: string; x: string };
  const seed = Buffer.from(jwk.d, "base64url");
  const pub = Buffer.from(jwk.x, "base64url");
  const type = string(Buffer.from("ssh-ed25519"));
  const blob = Buffer.concat([type, string(pub)]);
  const check = randomBytes(4);
  let secret = Buffer.concat([check, check, type, string(pub), string(Buffer.concat([seed, pub])), string(Buffer.from("kiln sftp host key"))]);
  const padding = Buffer.from(Array.from({ length: (8 - (secret.length % 8)) % 8 }, (_, i) => i + 1));
  secret = Buffer.concat([secret, padding]);
  const none = string(Buffer.from("none"));
  const body = Buffer.concat([MAGIC, none, none, string(Buffer.alloc(0)), uint32(1), string(blob), string(secret)]).toString("base64");
  return `${BEGIN}\n${body.match(/.{1,70}/g)!.join("\n")}\n${END}\n`;
}

/** The public key of an unencrypted OpenSSH private key file, or null when it is not one. */
function publicKeyBlob(file: Buffer): Buffer | null {
  const text = file.toString("utf8").trim();
  if (!text.startsWith(BEGIN) || !text.endsWith(END)) return null;
  const raw = Buffer.from(text.slice(BEGIN.length, -END.length).replace(/\s+/g, ""), "base64");
  if (!raw.subarray(0, MAGIC.length).equals(MAGIC)) return null;
  let at = MAGIC.length;
  const next = (): Buffer | null => {
    if (at + 4 > raw.length) return null;
    const length = raw.readUInt32BE(at);
    if (at + 4 + length > raw.length) return null;
    const value = raw.subarray(at + 4, at + 4 + length);
    at += 4 + length;
    return value;
  };
  const cipher = next();
  next(); // kdf name
  next(); // kdf options
  if (cipher?.toString() !== "none" || at + 4 > raw.length || raw.readUInt32BE(at) !== 1) return null;
  at += 4;
  return next();
}

function string(value: Buffer): Buffer {
  return Buffer.concat([uint32(value.length), value]);
}

function uint32(n: number): Buffer {
  const buffer = Buffer.alloc(4);
  buffer.writeUInt32BE(n);
  return buffer;
}

function readIfThere(path: string): Buffer | null {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as { code?: string }).code === "ENOENT") return null;
    throw error;
  }
}
