// One add-on file from its source, checked as it streams: the URL must be on one of the node's
// file hosts (a source's answer names it; a forged answer must not make the node fetch an
// address of the panel's network), and so must every redirect before it is followed (GitHub's
// release downloads go on to its objects host; a redirect anywhere else is refused), more bytes
// than the size the source announced stop the download at once (a 10 GB file announced as 1 MB
// costs 1 MB), and at the end the bytes must have the source's hash. A host that sends nothing for
// a while, or drips bytes just often enough not to stall, is given up: a change (and a version
// switch, whose server waits stopped) never hangs on a file host.
import { createHash } from "node:crypto";
import { KilnError } from "../../core/errors";
import type { ChangeAdd } from "../../core/mods/change";

export interface DownloadLimits {
  /** A download that sends nothing for this long is given up. */
  stallMs: number;
  /** A download gets this long, plus its announced size at minBytesPerSecond, to finish. */
  baseMs: number;
  minBytesPerSecond: number;
}

/** 64 KiB/s: a 100 MB modpack file may take 27 minutes, a 5 MB mod 2 minutes and 20 seconds. */
export const DOWNLOAD_LIMITS: DownloadLimits = { stallMs: 30_000, baseMs: 60_000, minBytesPerSecond: 64 * 1024 };
/** Redirects followed at most (each to an allowed host). */
const MAX_REDIRECTS = 5;

/** Refuses a URL whose origin is not one of `origins` (each "https://host[:port]"). */
export function checkFileHost(url: string, origins: readonly string[]): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new KilnError("ErrModSourceNotAllowed", { url: url.slice(0, 200) });
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.username || parsed.password || !origins.includes(parsed.origin)) {
    throw new KilnError("ErrModSourceNotAllowed", { url: parsed.origin });
  }
  return parsed;
}

/** The file's bytes, chunk by chunk; throws ErrModTooLarge or ErrModHashMismatch, ErrModSourceUnavailable when the host fails. */
export async function* checkedDownload(file: ChangeAdd, origins: readonly string[], signal?: AbortSignal, limits = DOWNLOAD_LIMITS): AsyncGenerator<Uint8Array> {
  const url = checkFileHost(file.url, origins);
  const stalled = new AbortController();
  let timer = setTimeout(() => stalled.abort(), limits.stallMs);
  const slow = AbortSignal.timeout(limits.baseMs + (file.size / limits.minBytesPerSecond) * 1000);
  const both = AbortSignal.any([...(signal ? [signal] : []), stalled.signal, slow]);
  const unavailable = (reason: string) => new KilnError("ErrModSourceUnavailable", { source: url.host, reason });
  const cut = (otherwise: string) => (slow.aborted ? `the download was slower than ${limits.minBytesPerSecond / 1024} KiB/s` : stalled.signal.aborted ? otherwise : undefined);
  let response: Response;
  let target = url;
  for (let hops = 0; ; hops++) {
    try {
      response = await fetch(target, { redirect: "manual", signal: both });
    } catch {
      clearTimeout(timer);
      throw unavailable(cut("no answer") ?? "the download failed");
    }
    const location = response.status >= 300 && response.status < 400 ? response.headers.get("location") : null;
    if (location === null) break;
    await response.body?.cancel();
    try {
      if (hops >= MAX_REDIRECTS) throw unavailable("too many redirects");
      target = checkFileHost(new URL(location, target).href, origins);
    } catch (error) {
      clearTimeout(timer);
      throw error;
    }
  }
  if (!response.ok || !response.body) {
    clearTimeout(timer);
    await response.body?.cancel();
    throw unavailable(`HTTP ${response.status}`);
  }
  // The strongest hash the source gave: Modrinth's SHA-512, Hangar's SHA-256, CurseForge's SHA-1.
  const [algorithm, expected] = file.sha512 ? ["sha512", file.sha512] : file.sha256 ? ["sha256", file.sha256] : ["sha1", file.sha1];
  const hash = createHash(algorithm);
  const reader = response.body.getReader();
  let received = 0;
  try {
    for (;;) {
      let next: Awaited<ReturnType<typeof reader.read>>;
      try {
        next = await reader.read();
      } catch {
        throw unavailable(cut("the download stalled") ?? "the download broke off");
      }
      if (next.done) break;
      clearTimeout(timer);
      timer = setTimeout(() => stalled.abort(), limits.stallMs);
      received += next.value.byteLength;
      if (received > file.size) throw new KilnError("ErrModTooLarge", { fileName: file.fileName, size: file.size });
      hash.update(next.value);
      yield next.value;
    }
  } finally {
    clearTimeout(timer);
    await reader.cancel().catch(() => undefined);
  }
  if (!expected || hash.digest("hex") !== expected) throw new KilnError("ErrModHashMismatch", { fileName: file.fileName });
}
