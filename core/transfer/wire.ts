// The wire shapes of moving a server between nodes, once, for the panel, the source node and the
// target node. The panel asks the source for an offer (a ticket) and the target to pull; the
// target asks the source, with the ticket as its bearer token, for the folder's manifest and then
// each file it lacks.

import { bytesFromName } from "../files/raw-name";

/** What the target asks the source for, node to node (not the panel's signed calls: the ticket is the credential). */
export const TRANSFER_SOURCE_PATHS = {
  /** GET: the manifest of the offered server's folder. */
  manifest: "/daemon/transfer/manifest",
  /** GET ?path=<relative path> or ?bytes=<its bytes, base64url>: one regular file's bytes (transferFileQuery). */
  file: "/daemon/transfer/file",
} as const;

/**
 * The longest `?path=` query a target asks for. The wire form percent-encoded takes nine
 * characters for each raw byte (core/files/raw-name), and Bun answers 431 to a request line past
 * its header limit (16 KiB): a path of some 1,700 raw bytes, well within PATH_MAX, could not move.
 */
const MAX_PLAIN_QUERY = 8192;

/**
 * The file route's query for a manifest path: `path=` as every node has read it, or, when that
 * would be longer than MAX_PLAIN_QUERY, `bytes=` with the path's bytes in base64url (4/3 of a
 * byte each: 5,462 characters at PATH_MAX). A source reads both; an older one knew only `path`,
 * which could not carry such a path anyway.
 */
export function transferFileQuery(path: string): string {
  const plain = `path=${encodeURIComponent(path)}`;
  if (plain.length <= MAX_PLAIN_QUERY) return plain;
  const base64 = btoa(Array.from(bytesFromName(path), (byte) => String.fromCharCode(byte)).join(""));
  return `bytes=${base64.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** One entry of the server's folder, relative to it ("/"-separated, no "." or ".." parts). */
export type ManifestEntry =
  | { path: string; type: "dir"; mode: number }
  | { path: string; type: "file"; mode: number; size: number; sha256: string }
  | { path: string; type: "symlink"; target: string };

/**
 * What a source leaves out of its manifest because the target could not or should not make it: a
 * file with more than one name (it may be a host file's), a FIFO, a socket or a device. Said, never
 * silent: the move then reports it (the target's progress, the transfer's row and activity).
 */
export const SKIPPED_KINDS = ["hardlink", "special"] as const;
export type SkippedKind = (typeof SKIPPED_KINDS)[number];
/** The most skipped entries named one by one; `count` says how many there were in all. */
export const MAX_SKIPPED_NAMED = 20;
export interface TransferSkipped {
  count: number;
  paths: { path: string; kind: SkippedKind }[];
}

export interface TransferManifest {
  entries: ManifestEntry[];
  /** Left out of `entries` (absent when nothing was); not part of the digest. */
  skipped?: TransferSkipped;
  totalBytes: number;
  /** SHA-256 over the entries in order (path, type, size, sha256, mode, target): both ends compute it. */
  digest: string;
}

/** POST …/transfer/offer answers this. */
export interface TransferOffer {
  ticket: string;
}

/** POST …/transfer/pull takes this: where the source's node API is and the ticket it issued. */
export interface TransferPullRequest {
  source: string;
  ticket: string;
  /** A final sync: files the source no longer has are removed here too. */
  prune?: boolean;
}

export const PULL_STATES = ["copying", "done", "failed", "cancelled"] as const;
export type PullState = (typeof PULL_STATES)[number];

/** GET …/transfer/pull answers this (404 when no pull was asked since the node started). */
export interface PullProgress {
  state: PullState;
  bytes: number;
  totalBytes: number;
  files: number;
  filesDone: number;
  /** The manifest's digest once the copy is done and every file matched it. */
  digest?: string;
  /** A catalogue error code when it failed. */
  error?: string;
  /** What the source's manifest left out (TransferSkipped), when it left anything out. */
  skipped?: TransferSkipped;
}
