// GitHub's archive service (codeload.github.com) for tests, with recorded answers: for each
// repository and ref a test names, the tar.gz GitHub answers is made as GitHub makes it, with
// `git archive` (one top folder `<repo>-<ref>/`, a pax header carrying the commit), from a
// snapshot of that repository at that commit (../shared/fixtures). Answers 404 for anything else,
// and can be told to hold a repository's answer back (a slow repository).
import { mkdtempSync, cpSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface ArchiveServer {
  /** the base URL, for the panel's githubArchiveUrl */
  url: string;
  /** the paths asked for, in order */
  hits: string[];
  /** holds the answer for `owner/repo` until the returned function is called */
  holdBack(ownerRepo: string): () => void;
  stop(): void;
}

/** Snapshot folders by "owner/repo/ref" (ref as the URL names it, HEAD for the default branch). */
export type Recorded = Record<string, string>;

/** The tar.gz `git archive` makes of `folder` committed as one commit, under `<prefix>/`. */
export function gitArchive(folder: string, prefix: string): Uint8Array {
  const work = mkdtempSync(join(tmpdir(), "kiln-git-archive-"));
  try {
    cpSync(folder, work, { recursive: true });
    const git = (...args: string[]) => {
      const run = Bun.spawnSync(["git", "-c", "user.email=t@example.com", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], { cwd: work, stdout: "pipe", stderr: "pipe" });
      if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
      return run.stdout;
    };
    git("init", "-q");
    git("add", "-A");
    git("commit", "-q", "-m", "snapshot");
    git("archive", "--format=tar.gz", `--prefix=${prefix}/`, "-o", join(work, ".archive.tar.gz"), "HEAD");
    return new Uint8Array(readFileSync(join(work, ".archive.tar.gz")));
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

export function serveGitHubArchives(recorded: Recorded): ArchiveServer {
  const hits: string[] = [];
  const archives = new Map<string, Uint8Array>();
  const held = new Map<string, Promise<void>>();
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const { pathname } = new URL(req.url);
      hits.push(pathname);
      const match = /^\/([^/]+)\/([^/]+)\/tar\.gz\/(.+)$/.exec(pathname);
      const key = match ? `${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}/${decodeURIComponent(match[3]!)}` : "";
      const folder = recorded[key];
      if (!match || !folder) return new Response("Not Found", { status: 404 });
      await held.get(`${decodeURIComponent(match[1]!)}/${decodeURIComponent(match[2]!)}`);
      if (!archives.has(key)) archives.set(key, gitArchive(folder, `${decodeURIComponent(match[2]!)}-${decodeURIComponent(match[3]!)}`));
      return new Response(archives.get(key)! as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "application/x-gzip", "content-disposition": `attachment; filename=${match[2]}-${match[3]}.tar.gz` },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    hits,
    holdBack(ownerRepo) {
      let release!: () => void;
      held.set(ownerRepo, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        held.delete(ownerRepo);
        release();
      };
    },
    stop: () => void server.stop(true),
  };
}
