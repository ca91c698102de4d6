// A download streaming through the proxy (a file, a zip of files, a backup) is held to the rights
// that let it start for as long as it lasts, as a live socket is (./revocation): whenever the
// sockets are rechecked (after every request that changes state, when another panel process says
// so through the change feed, and every RECHECK_MS while one is open, for an expiry or `kiln user`
// run elsewhere), each open stream's holder is checked again by the same rule (./recheck) against
// its operation's requirement from the contract. One that no longer passes is ended: the browser's
// answer fails (never a clean end, so a cut archive is not taken for a whole one) and the node's
// request is aborted, so the node stops reading the disk.
import type { ServerRequirement } from "../../core/scopes/server-access";
import type { Db } from "../../db";
import type { NodeOperationName } from "../../core/contract/node-operations";
import { KilnError } from "../../core/errors";
import { recheck, RECHECK_MS, RECHECK_TOPIC, type Verdict } from "./recheck";

/**
 * Open downloads one account holds through this panel process, on one server and in all. Each
 * lasts as long as its reader takes it and holds two connections, what the node's answer has
 * buffered (some megabytes) and an open file on the node: without a bound, downloads asked for
 * and never read grew without end. Enough for a download manager's parallel ranges.
 */
export const DOWNLOADS_PER_SERVER = 8;
export const DOWNLOADS_PER_USER = 16;
/**
 * Of those, a backup's downloads, each holding one of the node's restic readers while it lasts
 * (daemon/backups/reader-slots: 2 per server, 8 per node, for every user of the server at once).
 * One account holds fewer than a server's or a node's all: a co-user with the backups right who
 * opened two downloads and read a byte a minute kept the owner and the administrators from
 * downloading or browsing that server's backups for as long as they liked.
 */
export const BACKUP_DOWNLOADS_PER_SERVER = 1;
export const BACKUP_DOWNLOADS_PER_USER = 4;

/** Places taken, per database (one per served panel; its account ids are its own), by account, then by server. */
type Ledger = WeakMap<Db, Map<number, Map<string, number>>>;
const everyPlace: Ledger = new WeakMap();
const everyBackupPlace: Ledger = new WeakMap();

/**
 * Takes one of the account's download places on the server before the node is asked (429
 * ErrTooManyRequests when none is left), and a backup's place too for a backup's download;
 * answers their release, which may be called more than once. Taken and counted in one
 * synchronous step, so downloads asked for together cannot all pass.
 */
export function takeDownloadPlace(db: Db, userId: number, serverId: string, operation?: NodeOperationName): () => void {
  const backup = operation === "downloadBackup" ? takePlace(everyBackupPlace, db, userId, serverId, BACKUP_DOWNLOADS_PER_SERVER, BACKUP_DOWNLOADS_PER_USER) : () => undefined;
  try {
    const download = takePlace(everyPlace, db, userId, serverId, DOWNLOADS_PER_SERVER, DOWNLOADS_PER_USER);
    return () => {
      download();
      backup();
    };
  } catch (error) {
    backup();
    throw error;
  }
}

function takePlace(ledger: Ledger, db: Db, userId: number, serverId: string, perServer: number, perUser: number): () => void {
  let places = ledger.get(db);
  if (!places) ledger.set(db, (places = new Map()));
  const mine = places.get(userId) ?? new Map<string, number>();
  let inAll = 0;
  for (const n of mine.values()) inAll += n;
  const here = mine.get(serverId) ?? 0;
  if (here >= perServer || inAll >= perUser) throw new KilnError("ErrTooManyRequests", { limit: here >= perServer ? perServer : perUser }, "too many downloads open at once");
  mine.set(serverId, here + 1);
  places.set(userId, mine);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const left = (mine.get(serverId) ?? 1) - 1;
    if (left > 0) mine.set(serverId, left);
    else mine.delete(serverId);
    if (mine.size === 0 && places!.get(userId) === mine) places!.delete(userId);
  };
}

/** Whose stream it is and what it needs: the proxy's caller, by its session's hash, on one server. */
export interface StreamHolder {
  sessionHash: string;
  serverId: string;
  needs: ServerRequirement;
}

interface OpenStream extends StreamHolder {
  end(): void;
}

/** The open streams of each database (one per served panel), each with its timer and its ear on the change feed. */
const everyOpen = new Map<Db, { streams: Set<OpenStream>; stop(): void }>();

/**
 * Passes `body` on while `holder` keeps its rights; `abortNode` cancels the node's request. The
 * stream is registered until it ends, fails, or the browser goes; then `release` gives its
 * download place back (takeDownloadPlace).
 */
export function followRights(db: Db, holder: StreamHolder, body: ReadableStream<Uint8Array>, abortNode: () => void, release: () => void = () => undefined): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let done = false;
  const stream: OpenStream = {
    ...holder,
    end() {
      if (finish()) return;
      // Failed, not closed: the browser's connection is reset, so a cut download never looks whole.
      // With no reason, as Bun prints the reason of every failed answer; nothing went wrong here.
      controller.error();
      abortNode();
      reader.cancel().catch(() => undefined);
    },
  };
  /** Unregisters; answers whether it had already finished. */
  const finish = (): boolean => {
    if (done) return true;
    done = true;
    forget(db, stream);
    release();
    return false;
  };
  register(db, stream);
  return new ReadableStream<Uint8Array>(
    {
      start: (c) => void (controller = c),
      async pull(c) {
        try {
          const chunk = await reader.read();
          if (done) return;
          if (chunk.done) {
            finish();
            c.close();
          } else c.enqueue(chunk.value);
        } catch (error) {
          if (!finish()) c.error(error);
        }
      },
      cancel(reason) {
        finish();
        return reader.cancel(reason);
      },
    },
    // Nothing is read from the node ahead of the browser: memory stays flat and the node is paced by the reader.
    { highWaterMark: 0 },
  );
}

function register(db: Db, stream: OpenStream): void {
  let open = everyOpen.get(db);
  if (!open) {
    const timer = setInterval(() => void sweep(db), RECHECK_MS);
    timer.unref?.();
    // Another panel process on the database changed state: the rights are read again now.
    const hearOthers = db.$kiln.changes.on((topic) => topic === RECHECK_TOPIC && void sweep(db));
    open = {
      streams: new Set(),
      stop() {
        clearInterval(timer);
        hearOthers();
      },
    };
    everyOpen.set(db, open);
  }
  open.streams.add(stream);
}

function forget(db: Db, stream: OpenStream): void {
  const open = everyOpen.get(db);
  if (!open) return;
  open.streams.delete(stream);
  if (open.streams.size > 0) return;
  open.stop();
  everyOpen.delete(db);
}

/** Rechecks every open stream of this process now (./revocation's recheckOpenSockets calls this). */
export async function sweepOpenStreams(): Promise<void> {
  for (const db of [...everyOpen.keys()]) await sweep(db);
}

/** One look-up per distinct session, server and requirement, however many streams share them. */
async function sweep(db: Db): Promise<void> {
  const open = everyOpen.get(db);
  if (!open) return;
  const verdicts = new Map<string, Verdict>();
  for (const stream of [...open.streams]) {
    const key = `${stream.sessionHash} ${stream.serverId} ${stream.needs}`;
    let verdict = verdicts.get(key);
    try {
      verdict ??= await recheck(db, stream.sessionHash, stream.serverId, stream.needs);
    } catch (error) {
      // Rights that cannot be read are not assumed: the download is ended, and a resumed one is authorized afresh.
      console.error(error);
      verdict = { code: 1011, reason: "access check failed" };
    }
    verdicts.set(key, verdict);
    if ("code" in verdict) stream.end();
    else stream.sessionHash = verdict.sessionHash;
  }
}
