// The wire shapes of moving a server between nodes, once, for the panel, the source node and the
// target node. The panel asks the source for an offer (a ticket) and the target to pull; the
// target asks the source, with the ticket as its bearer token, for the folder's manifest and then
// each file it lacks.

/** What the target asks the source for, node to node (not the panel's signed calls: the ticket is the credential). */
export const TRANSFER_SOURCE_PATHS = {
  /** GET: the manifest of the offered server's folder. */
  manifest: "/daemon/transfer/manifest",
  /** GET ?path=<relative path>: one regular file's bytes. */
  file: "/daemon/transfer/file",
} as const;

/** One entry of the server's folder, relative to it ("/"-separated, no "." or ".." parts). */
export type ManifestEntry =
  | { path: string; type: "dir"; mode: number }
  | { path: string; type: "file"; mode: number; size: number; sha256: string }
  | { path: string; type: "symlink"; target: string };

export interface TransferManifest {
  entries: ManifestEntry[];
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
}
