// The GitHub archive reader: URLs it accepts, archives made by git archive and GNU tar (long
// names in pax records), what it keeps, its caps (a huge download, a gzip bomb), and the listings
// it serves the layout readers.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, writeFileSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveFetcher, gitHubSource, readGitHubArchive, ARCHIVE_LIMITS } from "./github-archive";
import { gitArchive } from "../../../test/helpers/github-archive-server";

/** A fetch answering every URL with `body`, recording the URLs asked. */
function answering(body: Uint8Array | ReadableStream<Uint8Array>, asked: string[] = []): typeof fetch {
  return (async (input: string | URL | Request) => {
    asked.push(String(input));
    return new Response(body as BodyInit);
  }) as typeof fetch;
}

const LONG = `${"deep/".repeat(30)}egg-long.json`;

function repositoryFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), "kiln-gh-"));
  mkdirSync(join(dir, "games", "ark"), { recursive: true });
  writeFileSync(join(dir, "games", "ark", "ark.json"), '{"display":"ARK"}');
  writeFileSync(join(dir, "games", "ark", "README.md"), "# ARK");
  writeFileSync(join(dir, "games", "ark", "icon.png"), new Uint8Array(3000));
  writeFileSync(join(dir, "top.json"), "{}");
  mkdirSync(join(dir, ...LONG.split("/").slice(0, -1)), { recursive: true });
  writeFileSync(join(dir, LONG), '{"long":true}');
  return dir;
}

describe("gitHubSource", () => {
  test("reads owner, repository, ref and folder; anything else is not GitHub's", () => {
    expect(gitHubSource("https://github.com/pufferpanel/templates")).toEqual({ owner: "pufferpanel", repo: "templates", ref: "HEAD", path: "" });
    expect(gitHubSource("https://github.com/pufferpanel/templates.git")).toMatchObject({ repo: "templates" });
    expect(gitHubSource("https://github.com/pufferpanel/templates/tree/v3")).toMatchObject({ ref: "v3", path: "" });
    expect(gitHubSource("https://www.github.com/parkervcp/eggs/tree/master/game_eggs/minecraft/")).toEqual({ owner: "parkervcp", repo: "eggs", ref: "master", path: "game_eggs/minecraft" });
    for (const other of ["https://gitlab.com/a/b", "https://github.com/a", "https://github.com/a/b/blob/main/x.json", "https://github.com/a/b/tree/main/a%2Fb", "https://github.com/a/b/tree/main/we%20ird", "ftp://github.com/a/b", "not a url"]) {
      expect(gitHubSource(other), other).toBeNull();
    }
  });
});

describe("readGitHubArchive", () => {
  const source = { owner: "o", repo: "r", ref: "v3", path: "" };

  test("asks the base URL for the ref's tar.gz and keeps the files a layout reads, long names too", async () => {
    const asked: string[] = [];
    const files = await readGitHubArchive("https://github.com/o/r/tree/v3", source, "http://archive.test/", answering(gitArchive(repositoryFolder(), "r-v3"), asked));
    expect(asked).toEqual(["http://archive.test/o/r/tar.gz/v3"]);
    expect([...files.keys()].sort()).toEqual(["games/ark/README.md", "games/ark/ark.json", LONG, "top.json"].sort());
    expect(new TextDecoder().decode(files.get(LONG))).toBe('{"long":true}');
  });

  test("GNU tar's long names are read as well as git's", async () => {
    const dir = repositoryFolder();
    const out = join(mkdtempSync(join(tmpdir(), "kiln-gh-")), "a.tar.gz");
    const made = Bun.spawnSync(["tar", "--format=gnu", "-czf", out, "--transform", "s,^\\.,r-main,", "-C", dir, "."]);
    expect(made.exitCode).toBe(0);
    const files = await readGitHubArchive("u", source, "http://archive.test", answering(new Uint8Array(readFileSync(out))));
    expect(files.has(LONG)).toBe(true);
  });

  test("a folder of the repository is read alone", async () => {
    const files = await readGitHubArchive("u", { ...source, path: "games" }, "http://archive.test", answering(gitArchive(repositoryFolder(), "r-v3")));
    expect([...files.keys()].sort()).toEqual(["ark/README.md", "ark/ark.json"]);
  });

  test("a download past the cap, a gzip bomb, junk and a 404 are clear errors", async () => {
    const small = { ...ARCHIVE_LIMITS, downloadBytes: 1000 };
    const big = gitArchive(repositoryFolder(), "r-v3");
    await expect(readGitHubArchive("u", source, "http://a", answering(new Uint8Array(Math.max(2000, big.byteLength))), small)).rejects.toMatchObject({ code: "ErrTemplateRepositoryFailed", metadata: { reason: "archive too large" } });
    const bomb = Bun.gzipSync(new Uint8Array(20 * 1024 * 1024));
    await expect(readGitHubArchive("u", source, "http://a", answering(bomb), { ...ARCHIVE_LIMITS, unpackedBytes: 1024 * 1024 })).rejects.toMatchObject({ metadata: { reason: "archive too large" } });
    await expect(readGitHubArchive("u", source, "http://a", answering(new TextEncoder().encode("<html>nope</html>")))).rejects.toMatchObject({ metadata: { reason: "archive unreadable" } });
    const missing = (async () => new Response("Not Found", { status: 404 })) as unknown as typeof fetch;
    await expect(readGitHubArchive("u", source, "http://a", missing)).rejects.toMatchObject({ metadata: { reason: "no such repository or branch on GitHub" } });
  });
});

describe("archiveFetcher", () => {
  const files = new Map([
    ["ark/ark.json", new TextEncoder().encode("{}")],
    ["ark/README.md", new TextEncoder().encode("# ARK")],
    ["top.json", new TextEncoder().encode("[]")],
  ]);
  const serve = archiveFetcher("https://github.com/o/r/tree/v3", files);

  test("lists folders and serves files below its base, and nothing else", async () => {
    const root = await (await serve("https://github.com/o/r/tree/v3/")).text();
    expect(root).toContain('href="ark/"');
    expect(root).toContain('href="top.json"');
    expect(await (await serve("https://github.com/o/r/tree/v3/ark/")).text()).toContain('href="README.md"');
    expect(await (await serve("https://github.com/o/r/tree/v3/ark/ark.json")).text()).toBe("{}");
    expect((await serve("https://github.com/o/r/tree/v3/missing/")).status).toBe(404);
    expect((await serve("https://github.com/o/r/tree/v3/ark/nope.json")).status).toBe(404);
    expect((await serve("https://elsewhere.example/ark/ark.json")).status).toBe(404);
  });
});
