// The target node's pull: the server's folder copied from the source node, file by file, into
// this node's server of the same id (the panel created it first). A pull runs in the background
// (POST answers 202) in the server's power queue, so no start comes between; its progress is
// kept in memory per server (GET; a node restart forgets it, and the panel pulls again, which
// resumes: files already here with the right size and SHA-256 are not fetched again).
//
// Order: the manifest is fetched and checked whole (./manifest-check) before anything is written;
// with prune, entries it does not name are removed; folders are made; files are fetched, a few at
// a time, each checked against its size and hash before it is renamed into place; links are made,
// then every link in the folder judged again; folders get their modes; and the digest of what is
// now on disk must be the manifest's. The first
// failure aborts the other downloads; a cancel aborts them all. Either way every partial file is
// removed (writeAtomically) before the state changes, so a state other than copying means nothing
// half-written is left.
import { KilnError } from "../../core/errors";
import { manifestDigest } from "../../core/transfer/digest";
import { TRANSFER_SOURCE_PATHS, transferFileQuery, type ManifestEntry, type PullProgress, type TransferPullRequest } from "../../core/transfer/wire";
import type { ServerManager } from "../servers/manager";
import type { Jail } from "../files/jail";
import { errnoToKilnError } from "../http/errors";
import { checkManifest } from "./manifest-check";
import { ManifestValueCounter } from "./manifest-values";
import { alreadyHere, assertLinksInside, finishFolders, onDisk, placeFile, placeFolders, placeLinks, pruneUnnamed } from "./place";
import { PullAborted, sourceBody, sourceText } from "./source-fetch";
import { READ_PACE, type ReadPace } from "./read-pace";

/** How long the source may send nothing before the pull fails (ErrTransferStalled). */
export const STALL_MS = 60_000;
/** Files fetched at once: enough to hide the round trips of many small files. */
const CONCURRENT_FILES = 4;
/** The largest manifest read: 100,000 entries with long names and links fit (its count of values is bounded apart: ./manifest-values). */
const MAX_MANIFEST_BYTES = 64 * 1024 * 1024;
/**
 * The most the manifest's read may take. It cannot be held to a file's pace: the source hashes
 * every file before naming it and sends a space every 10 s meanwhile (./manifest), so a large world
 * legitimately sends almost nothing for minutes. Six hours hash some 2 TB at 100 MB/s; a source
 * trickling spaces is given up then rather than never.
 */
export const MANIFEST_MS = 6 * 60 * 60_000;

/** The production values are the constants; tests give small ones. */
export interface PullOptions {
  stallMs?: number;
  /** Each file's read: ./read-pace READ_PACE. */
  pace?: ReadPace;
  manifestMs?: number;
  concurrentFiles?: number;
  log?: (line: string) => void;
}

interface Run {
  progress: PullProgress;
  abort: AbortController;
  cancelled: boolean;
  /** Whether the copy began (it waits for the server's power queue first). */
  started: boolean;
  /** Settles once the copy has stopped and cleaned up (resolved whatever the outcome). */
  settled: Promise<void>;
}

type Entry<T extends ManifestEntry["type"]> = Extract<ManifestEntry, { type: T }>;

export class TransferPulls {
  private readonly runs = new Map<string, Run>();

  constructor(
    private readonly manager: ServerManager,
    private readonly options: PullOptions = {},
  ) {}

  /** Starts a pull into server `serverId`: ErrNotFound, ErrServerBusy (running or installing), ErrTransferInProgress (a pull copying). */
  start(serverId: string, request: TransferPullRequest): PullProgress {
    const server = this.manager.get(serverId);
    if (this.runs.get(serverId)?.progress.state === "copying") throw new KilnError("ErrTransferInProgress", { id: serverId }, "a pull into this server is already copying");
    refuseRunning(server.status());
    const abort = new AbortController();
    const run: Run = { progress: { state: "copying", bytes: 0, totalBytes: 0, files: 0, filesDone: 0 }, abort, cancelled: false, started: false, settled: Promise.resolve() };
    this.runs.set(serverId, run);
    const work = server.afterQueued(async () => {
      if (run.cancelled) return;
      run.started = true;
      refuseRunning(server.status());
      await copyFolder(server.jail, request, run, this.options);
    });
    run.settled = work.then(
      () => {
        if (run.cancelled) run.progress.state = "cancelled";
        else run.progress.state = "done";
      },
      (error: unknown) => {
        if (run.cancelled) {
          run.progress.state = "cancelled";
          return;
        }
        const known = error instanceof KilnError ? error : errnoToKilnError(error);
        run.progress = { ...run.progress, state: "failed", error: known?.code ?? "ErrTransferFailed" };
        delete run.progress.digest;
        this.options.log?.(`kiln daemon: the pull of server ${serverId} from ${request.source} failed: ${(error as Error).message}`);
      },
    );
    return { ...run.progress };
  }

  /** The pull's progress; ErrNotFound when none was asked since the node started. */
  progress(serverId: string): PullProgress {
    const run = this.runs.get(serverId);
    if (!run) throw new KilnError("ErrNotFound", { id: serverId }, "no pull into this server");
    return { ...run.progress };
  }

  /** Cancels a copying pull and waits until its downloads stopped and their partial files are gone; anything else is left as it is. */
  async cancel(serverId: string): Promise<void> {
    const run = this.runs.get(serverId);
    if (!run || run.progress.state !== "copying") return;
    run.cancelled = true;
    run.abort.abort();
    run.progress.state = "cancelled";
    // A copy still waiting for the power queue will not begin; one that began is waited for.
    if (run.started) await run.settled;
  }

  /** The server was deleted: its pull stops and is forgotten. */
  forget(serverId: string): void {
    const run = this.runs.get(serverId);
    if (!run) return;
    run.cancelled = true;
    run.abort.abort();
    this.runs.delete(serverId);
  }
}

function refuseRunning(status: { running: boolean; installing: boolean }): void {
  if (status.running || status.installing) throw new KilnError("ErrServerBusy", { state: status.installing ? "installing" : "running" }, "stop the server before pulling into it");
}

async function copyFolder(jail: Jail, request: TransferPullRequest, run: Run, options: PullOptions): Promise<void> {
  const stallMs = options.stallMs ?? STALL_MS;
  const signal = run.abort.signal;
  const ask = (url: string) => ({ url, ticket: request.ticket, signal, stallMs });
  const tooLarge = () => new KilnError("ErrTransferManifest", { reason: "too large" }, "the manifest is larger than the node reads");
  const values = new ManifestValueCounter();
  const text = await sourceText({ ...ask(`${request.source}${TRANSFER_SOURCE_PATHS.manifest}`), deadlineMs: options.manifestMs ?? MANIFEST_MS }, MAX_MANIFEST_BYTES, tooLarge, (chunk) => values.feed(chunk));
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new KilnError("ErrTransferManifest", { reason: "not JSON" }, "the manifest is not JSON");
  }
  const manifest = checkManifest(json);
  const folders = manifest.entries.filter((e): e is Entry<"dir"> => e.type === "dir");
  const files = manifest.entries.filter((e): e is Entry<"file"> => e.type === "file");
  const links = manifest.entries.filter((e): e is Entry<"symlink"> => e.type === "symlink");
  Object.assign(run.progress, { totalBytes: manifest.totalBytes, files: files.length });
  if (manifest.skipped) run.progress.skipped = manifest.skipped;

  // What this pull hashed of the files already here, by their identity (./hash-file).
  const hashes = new Map<string, string>();
  if (request.prune) await pruneUnnamed(jail, new Map(manifest.entries.map((e) => [e.path, e.type])));
  await placeFolders(jail, folders);
  await copyFiles(jail, files, run, hashes, (path) => ({ ...ask(`${request.source}${TRANSFER_SOURCE_PATHS.file}?${transferFileQuery(path)}`), pace: options.pace ?? READ_PACE }), options.concurrentFiles ?? CONCURRENT_FILES);
  if (signal.aborted) throw new PullAborted("aborted");
  await placeLinks(jail, links);
  await assertLinksInside(jail);
  await finishFolders(jail, folders);

  const digest = manifestDigest(await onDisk(jail, manifest.entries, hashes));
  if (digest !== manifest.digest) throw new KilnError("ErrTransferChecksum", { reason: "digest" }, "the copied folder's digest is not the manifest's");
  run.progress.digest = digest;
}

/** Each file skipped when already here, else fetched; a few at a time; the first failure aborts the rest, and is thrown once all stopped. */
async function copyFiles(jail: Jail, files: Entry<"file">[], run: Run, hashes: Map<string, string>, request: (path: string) => Parameters<typeof sourceBody>[0], concurrent: number): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const worker = async () => {
    while (next < files.length && !failure && !run.abort.signal.aborted) {
      const entry = files[next++]!;
      try {
        if (!(await alreadyHere(jail, entry, hashes))) await placeFile(jail, entry, sourceBody(request(entry.path)), (bytes) => (run.progress.bytes += bytes));
        else run.progress.bytes += entry.size;
        run.progress.filesDone++;
      } catch (error) {
        if (!failure && !(error instanceof PullAborted)) {
          failure = { error };
          run.abort.abort();
        }
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrent) }, worker));
  if (failure) throw (failure as { error: unknown }).error;
}
