// Where a node keeps backups: its own disk (always there), an SFTP server, an
// S3-compatible bucket; at most one of each kind per node, so a target's id is its kind. An
// administrator sets them; the secret half (an SSH private key, an S3 secret key) is write-only:
// sent in, never shown again, only whether it is set. Every field is checked to be a plain name
// before it reaches restic's settings: a host starting with `-` would be an ssh option.
import { z } from "../zod";
import { KilnError } from "../errors";

export const TARGET_KINDS = ["local", "sftp", "s3"] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

export interface SftpTarget {
  kind: "sftp";
  host: string;
  port: number;
  user: string;
  /** The repository's folder on the SFTP server. */
  path: string;
  /** An OpenSSH private key (no passphrase): restic's sftp backend runs ssh, which cannot be given a password. */
  privateKey: string;
}

export interface S3Target {
  kind: "s3";
  /** http(s)://host[:port] of the S3 API. */
  endpoint: string;
  bucket: string;
  /** A folder inside the bucket ("" for its top). */
  path: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** A PEM certificate the endpoint's TLS certificate must chain to (a self-hosted MinIO's own CA); "" for the system's. */
  caCert: string;
}

export type OffNodeTarget = SftpTarget | S3Target;

/** A target as the API shows it: the secrets replaced by whether they are set. */
export type TargetView =
  | { kind: "local"; configured: true }
  | ({ configured: boolean } & Omit<SftpTarget, "privateKey"> & { privateKeySet: boolean })
  | ({ configured: boolean } & Omit<S3Target, "secretAccessKey" | "caCert"> & { secretAccessKeySet: boolean; caCertSet: boolean });

const HOST = /^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$|^\[[0-9A-Fa-f:.]{2,45}\]$/;
const USER = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/;
const FOLDER = /^[A-Za-z0-9_.~/-]{0,255}$/;
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const REGION = /^[a-z0-9-]{0,32}$/;
const KEY_ID = /^[A-Za-z0-9+/=_.-]{1,128}$/;

/** A text of at most `max` characters, "" when left out. */
const textUpTo = (max: number) => z._default(z.string().check(z.maxLength(max)), "");

const sftpSchema = z.strictObject({
  kind: z.literal("sftp"),
  host: z.string().check(z.regex(HOST)),
  port: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(65535)), 22),
  user: z.string().check(z.regex(USER)),
  path: z.string().check(
    z.regex(FOLDER),
    z.refine((p) => p.replace(/\/+$/, "") !== "" && !p.split("/").includes(".."), "a folder other than the root"),
  ),
  privateKey: textUpTo(16_384),
});

const s3Schema = z.strictObject({
  kind: z.literal("s3"),
  endpoint: z.string().check(z.maxLength(255)),
  bucket: z.string().check(z.regex(BUCKET)),
  path: z._default(z.string().check(z.regex(FOLDER), z.refine((p) => !p.split("/").includes(".."), "no ..")), ""),
  region: z._default(z.string().check(z.regex(REGION)), ""),
  accessKeyId: z.string().check(z.regex(KEY_ID)),
  secretAccessKey: textUpTo(256),
  caCert: textUpTo(16_384),
});

/**
 * An off-node target from an administrator's form or request. A secret left blank keeps the one
 * set before (`previous`) only while the target still points at the same place (host, port, user
 * and folder; endpoint, bucket and folder): a stored key never follows the target somewhere new,
 * where whoever moved it would be let in with it. A target without one is refused. ErrFieldIsInvalidHost or
 * ErrInvalidJson name the field that is wrong.
 */
export function parseTarget(raw: unknown, previous: OffNodeTarget | null): OffNodeTarget {
  const kind = (raw as { kind?: unknown } | null)?.kind;
  const parsed = (kind === "s3" ? s3Schema : sftpSchema).safeParse(raw);
  if (!parsed.success) {
    const field = parsed.error.issues[0]!.path.join(".");
    if (field === "host") throw new KilnError("ErrFieldIsInvalidHost", { field });
    throw new KilnError("ErrInvalidJson", { field }, `invalid backup target: ${field}: ${parsed.error.issues[0]!.message}`);
  }
  const target = parsed.data;
  if (target.kind === "s3") {
    const endpoint = s3Endpoint(target.endpoint);
    const kept = previous?.kind === "s3" && previous.endpoint === endpoint && previous.bucket === target.bucket && previous.path === target.path ? previous : null;
    const secretAccessKey = target.secretAccessKey || (kept?.secretAccessKey ?? "");
    if (!secretAccessKey) throw new KilnError("ErrFieldRequired", { field: "secretAccessKey" });
    if (/[\u0000-\u001f\u007f]/.test(secretAccessKey)) throw new KilnError("ErrFieldHasControlCharacters", { field: "secretAccessKey" });
    const caCert = target.caCert.trim() ? `${target.caCert.replace(/\r\n/g, "\n").trim()}\n` : (kept?.caCert ?? "");
    if (caCert && !/^(-----BEGIN CERTIFICATE-----\n[A-Za-z0-9+/=\n]+-----END CERTIFICATE-----\n)+$/.test(caCert)) throw new KilnError("ErrInvalidJson", { field: "caCert" }, "not a PEM certificate");
    return { ...target, endpoint, secretAccessKey, caCert };
  }
  const path = target.path.replace(/\/+$/, "");
  const kept = previous?.kind === "sftp" && previous.host === target.host && previous.port === target.port && previous.user === target.user && previous.path === path ? previous : null;
  const privateKey = target.privateKey.trim() ? `${target.privateKey.replace(/\r\n/g, "\n").trim()}\n` : (kept?.privateKey ?? "");
  if (!privateKey) throw new KilnError("ErrFieldRequired", { field: "privateKey" });
  if (!/^-----BEGIN [A-Z ]*PRIVATE KEY-----\n[\s\S]+\n-----END [A-Z ]*PRIVATE KEY-----\n$/.test(privateKey)) throw new KilnError("ErrInvalidJson", { field: "privateKey" }, "not an OpenSSH private key");
  return { ...target, path, privateKey };
}

/** http(s)://host[:port] and nothing else: no user, path, query or fragment for restic to read as something. */
function s3Endpoint(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new KilnError("ErrFieldIsInvalidHost", { field: "endpoint" });
  }
  const bare = (url.protocol === "http:" || url.protocol === "https:") && !url.username && !url.password && (url.pathname === "/" || url.pathname === "") && !url.search && !url.hash;
  if (!bare || !HOST.test(url.hostname)) throw new KilnError("ErrFieldIsInvalidHost", { field: "endpoint" });
  return `${url.protocol}//${url.host}`;
}

/** The target without its secret, for the API and the node page. */
export function targetView(target: OffNodeTarget | null, kind: TargetKind): TargetView {
  if (kind === "local") return { kind: "local", configured: true };
  if (kind === "sftp") {
    const t = target?.kind === "sftp" ? target : null;
    return { kind: "sftp", configured: t !== null, host: t?.host ?? "", port: t?.port ?? 22, user: t?.user ?? "", path: t?.path ?? "", privateKeySet: Boolean(t?.privateKey) };
  }
  const t = target?.kind === "s3" ? target : null;
  return { kind: "s3", configured: t !== null, endpoint: t?.endpoint ?? "", bucket: t?.bucket ?? "", path: t?.path ?? "", region: t?.region ?? "", accessKeyId: t?.accessKeyId ?? "", secretAccessKeySet: Boolean(t?.secretAccessKey), caCertSet: Boolean(t?.caCert) };
}
