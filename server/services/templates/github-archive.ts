// A GitHub repository URL as a template repository. GitHub's pages have no directory listing
// Kiln can read, and its API allows 60 unauthenticated calls an hour, so the panel reads the
// repository's archive instead: one GET of `<githubArchiveUrl>/<owner>/<repo>/tar.gz/<ref>`
// (codeload.github.com by default; tests point the base at recorded answers served locally),
// streamed through gunzip and a tar reader that keeps only what a repository layout reads
// (.json, .yaml, .yml and .md files of at most 2 MiB), within a download cap, a cap on what is
// unpacked and a time limit. The files kept are then served to the layout readers as a web server
// with directory listings would serve a checkout (archiveFetcher), so the Kiln, PufferPanel and
// egg layouts are read exactly as over HTTP.
import { BLOCK, headerName, headerSize, headerText, headerType } from "../../../core/tar/header";
import { MAX_BYTES, repositoryFailed, fetchWithinOrigin, unreachableReason } from "./repository-http";

/** `https://github.com/<owner>/<repo>[.git][/tree/<ref>[/<path>]]`: the branch, tag or commit and a folder in it. */
export interface GitHubSource {
  owner: string;
  repo: string;
  /** what `/tree/` names, else HEAD (the default branch) */
  ref: string;
  /** a folder of the repository holding the templates, "" for its root */
  path: string;
}

const NAME = /^[A-Za-z0-9_.-]{1,100}$/;

/** The GitHub repository a URL names, or null for any other URL. A ref with "/" in it cannot be told from a folder: the first segment is the ref. */
export function gitHubSource(url: string): GitHubSource | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return null;
  if (parsed.hostname !== "github.com" && parsed.hostname !== "www.github.com") return null;
  const parts = parsed.pathname.split("/").filter(Boolean).map((part) => decodeURIComponent(part));
  const [owner, rawRepo, tree, ref, ...path] = parts;
  const repo = rawRepo?.replace(/\.git$/, "");
  if (!owner || !repo || !NAME.test(owner) || !NAME.test(repo)) return null;
  if (tree !== undefined && (tree !== "tree" || !ref)) return null;
  if (ref !== undefined && !/^[A-Za-z0-9_.\-]{1,200}$/.test(ref)) return null;
  if (path.some((part) => !NAME.test(part) || part === "." || part === "..")) return null;
  return { owner, repo, ref: ref ?? "HEAD", path: path.join("/") };
}

/**
 * The most a repository's archive may weigh as downloaded, and unpacked as read; and the most
 * files kept from it. Files are counted apart from bytes: a million empty ones weigh nothing kept
 * yet held a gigabyte of names and made every listing of them a minute's work. parkervcp/eggs,
 * the largest repository read, keeps under a thousand.
 */
export const ARCHIVE_LIMITS = { downloadBytes: 64 * 1024 * 1024, unpackedBytes: 512 * 1024 * 1024, keptBytes: 64 * 1024 * 1024, keptFiles: 10_000, timeoutMs: 60_000 };

const KEPT = /\.(json|ya?ml|md)$/i;
/**
 * The longest path kept, below the source's folder. The layouts follow at most six levels of
 * names of at most 128 characters (./pufferpanel-layout, ./egg-layout), so a longer path is never
 * read; kept, pax records of 64 KiB each made names of hundreds of megabytes from a 1 MiB download.
 */
const MAX_KEPT_PATH = 1024;

/** The files of a GitHub repository's archive a layout reads, by path below the source's folder. */
export async function readGitHubArchive(url: string, source: GitHubSource, archiveBase: string, fetcher: typeof fetch, limits = ARCHIVE_LIMITS): Promise<Map<string, Uint8Array>> {
  const archiveUrl = `${archiveBase.replace(/\/+$/, "")}/${encodeURIComponent(source.owner)}/${encodeURIComponent(source.repo)}/tar.gz/${encodeURIComponent(source.ref)}`;
  const signal = AbortSignal.timeout(limits.timeoutMs);
  let response: Response;
  try {
    response = await fetchWithinOrigin(archiveUrl, { signal }, fetcher);
  } catch (error) {
    throw repositoryFailed(url, unreachableReason(error));
  }
  if (response.status === 404) {
    await response.body?.cancel();
    throw repositoryFailed(url, "no such repository or branch on GitHub");
  }
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw repositoryFailed(url, `HTTP ${response.status}`);
  }
  let downloaded = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        downloaded += chunk.byteLength;
        if (downloaded > limits.downloadBytes) controller.error(repositoryFailed(url, "archive too large"));
        else controller.enqueue(chunk);
      },
    }),
  );
  const tar = new TarFiles(source.path, limits);
  try {
    for await (const chunk of counted.pipeThrough(new DecompressionStream("gzip") as unknown as ReadableWritablePair<Uint8Array, Uint8Array>)) {
      tar.push(chunk);
      if (tar.unpacked > limits.unpackedBytes) throw repositoryFailed(url, "archive too large");
    }
  } catch (error) {
    if (error instanceof Error && "code" in error && (error as { code?: unknown }).code === "ErrTemplateRepositoryFailed") throw error;
    if (error instanceof TooManyFiles) throw repositoryFailed(url, "archive has too many files");
    throw repositoryFailed(url, signal.aborted ? "no answer" : "archive unreadable");
  }
  return tar.files;
}

const decoder = new TextDecoder();

/** A header no tar writer makes: the archive is refused as unreadable. */
class ArchiveUnreadable extends Error {}
/** More files to keep than ARCHIVE_LIMITS.keptFiles. */
class TooManyFiles extends Error {}

/**
 * A ustar/pax reader fed in pieces, as git archive writes them: a global pax header (the
 * commit), pax `path` records and GNU long names for long paths, one top folder
 * (`<repo>-<ref>/`) that is left out. Only regular files below `folder` named as KEPT are kept.
 */
class TarFiles {
  readonly files = new Map<string, Uint8Array>();
  unpacked = 0;
  private buffer = new Uint8Array(0);
  private kept = 0;
  /** a name from a pax or GNU long-name record for the next entry */
  private longName: string | null = null;
  /** bytes of an entry not kept still to pass over (never buffered) */
  private skip = 0;
  private ended = false;

  constructor(
    private readonly folder: string,
    private readonly limits: typeof ARCHIVE_LIMITS,
  ) {}

  push(chunk: Uint8Array): void {
    this.unpacked += chunk.byteLength;
    if (this.ended) return;
    if (this.skip > 0) {
      const passed = Math.min(this.skip, chunk.byteLength);
      this.skip -= passed;
      chunk = chunk.subarray(passed);
    }
    const joined = new Uint8Array(this.buffer.byteLength + chunk.byteLength);
    joined.set(this.buffer);
    joined.set(chunk, this.buffer.byteLength);
    let pos = 0;
    while (this.skip === 0 && joined.byteLength - pos >= BLOCK) {
      const header = joined.subarray(pos, pos + BLOCK);
      if (header.every((b) => b === 0)) {
        this.ended = true;
        break;
      }
      const size = headerSize(header);
      // A size that is no octal number (NaN) made the position NaN: the reader then kept the whole
      // stream buffered and read it again from the start at every chunk, hours of copying for a
      // 64 KiB download. git archive writes octal sizes only; anything else is no repository's.
      if (!Number.isSafeInteger(size) || size < 0) throw new ArchiveUnreadable();
      const padded = Math.ceil(size / BLOCK) * BLOCK;
      const type = headerType(header);
      const name = this.nameOf(header, type);
      if (name === null) {
        // Passed over as it streams: what follows the header here, the rest when it arrives.
        pos += BLOCK;
        const here = Math.min(padded, joined.byteLength - pos);
        pos += here;
        this.skip = padded - here;
        continue;
      }
      if (joined.byteLength - pos < BLOCK + padded) break; // the entry's data has not all arrived
      this.entry(type, name, joined.subarray(pos + BLOCK, pos + BLOCK + size));
      pos += BLOCK + padded;
    }
    this.buffer = joined.slice(pos);
  }

  /** The path below the folder of an entry to read (a file kept, or a name record), null for one to pass over. */
  private nameOf(header: Uint8Array, type: string): string | null {
    const size = headerSize(header);
    if (type === "x" || type === "L") return size <= 64 * 1024 ? "" : null;
    const name = this.longName ?? headerName(header);
    this.longName = null;
    if (type !== "0" && type !== "\0") return null;
    // Below the archive's one top folder, then below the source's folder.
    const inRepo = name.split("/").slice(1).join("/");
    const below = this.folder === "" ? inRepo : inRepo.startsWith(`${this.folder}/`) ? inRepo.slice(this.folder.length + 1) : null;
    if (below === null || below === "" || below.length > MAX_KEPT_PATH || !KEPT.test(below) || size > MAX_BYTES) return null;
    if (below.split("/").some((part) => part === "" || part === "." || part === "..")) return null;
    if (this.kept + size > this.limits.keptBytes) return null;
    return below;
  }

  private entry(type: string, name: string, data: Uint8Array): void {
    if (type === "x") return void (this.longName = paxPath(data) ?? this.longName);
    if (type === "L") return void (this.longName = headerText(data, 0, data.byteLength));
    if (!this.files.has(name) && this.files.size >= this.limits.keptFiles) throw new TooManyFiles();
    this.kept += data.byteLength;
    this.files.set(name, data.slice());
  }
}

/** The `path` of pax records ("<length> path=<value>\n" each). */
function paxPath(data: Uint8Array): string | null {
  for (const record of decoder.decode(data).split("\n")) {
    const match = /^\d+ path=(.*)$/.exec(record);
    if (match) return match[1]!;
  }
  return null;
}

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A fetch that answers below `base` from `files` as a web server with directory listings answers
 * from a checkout: a folder URL (ending in "/") lists its children as links, a file URL its bytes,
 * anything else 404. Nothing leaves the process.
 */
export function archiveFetcher(base: string, files: ReadonlyMap<string, Uint8Array>): typeof fetch {
  const root = `${base.replace(/\/+$/, "")}/`;
  const answer = async (input: string | URL | Request): Promise<Response> => {
    const url = typeof input === "string" ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(root) && `${url}/` !== root) return new Response("not found", { status: 404 });
    let rest: string;
    try {
      rest = decodeURIComponent(url.slice(root.length));
    } catch {
      return new Response("not found", { status: 404 });
    }
    if (rest === "" || rest.endsWith("/")) {
      const children = new Set<string>();
      for (const path of files.keys()) {
        if (!path.startsWith(rest)) continue;
        const [first, ...more] = path.slice(rest.length).split("/");
        children.add(more.length > 0 ? `${first}/` : first!);
      }
      if (children.size === 0 && rest !== "") return new Response("not found", { status: 404 });
      const links = [...children].sort().map((child) => `<a href="${escapeHtml(child.endsWith("/") ? `${encodeURIComponent(child.slice(0, -1))}/` : encodeURIComponent(child))}">${escapeHtml(child)}</a>`);
      return new Response(`<!DOCTYPE html><html><body>${links.join("\n")}</body></html>`, { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    const data = files.get(rest);
    return data ? new Response(data as Uint8Array<ArrayBuffer>) : new Response("not found", { status: 404 });
  };
  return answer as typeof fetch;
}
