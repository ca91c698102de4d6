// A GitHub repository's archive made to cost the panel more than its download: a tar header whose
// size is no number (the reader once kept the whole stream and re-read it from the start at every
// chunk: hours of CPU for a 64 KiB download), and an archive of a million empty template files
// (a 6 MiB download that held a gigabyte of memory and a minute of listing), and paths of 60 KiB
// no layout reads (hundreds of megabytes of names from a 1 MiB download). The archive is
// served over HTTP by a real server, as codeload.github.com serves one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readGitHubArchive, ARCHIVE_LIMITS } from "../../server/services/templates/github-archive";

const source = { owner: "o", repo: "r", ref: "main", path: "" };
const encoder = new TextEncoder();

/** A ustar header block for a regular file `name` whose size field reads `size`. */
function header(name: string, size: string): Uint8Array {
  const block = new Uint8Array(512);
  block.set(encoder.encode(name), 0);
  block.set(encoder.encode(size.padStart(11, "0") + "\0"), 124);
  block[156] = 0x30;
  return block;
}

/** A pax extended header block for a record of `size` bytes. */
function paxHeader(size: number): Uint8Array {
  const block = header("r-main/pax", size.toString(8));
  block[156] = "x".charCodeAt(0);
  return block;
}

let server: ReturnType<typeof Bun.serve>;
const archives = new Map<string, Uint8Array>();

beforeAll(() => {
  server = Bun.serve({ port: 0, fetch: (request) => {
    const body = archives.get(new URL(request.url).pathname.split("/")[2] ?? "");
    return body ? new Response(body as Uint8Array<ArrayBuffer>) : new Response("not found", { status: 404 });
  } });
});
afterAll(() => server.stop(true));

const read = (repo: string) => readGitHubArchive(`https://github.com/o/${repo}`, { ...source, repo }, `http://127.0.0.1:${server.port}`, fetch);

describe("GitHub archive bombs", () => {
  test("a header whose size is not an octal number is refused at once, not re-read for every chunk", async () => {
    // 32 MiB after the header (32 KiB gzipped), never a zero block: the old reader took minutes.
    const tar = new Uint8Array(32 * 1024 * 1024).fill(1);
    tar.set(header("r-main/egg-x.json", "zzzzzzzzzzz"), 0);
    archives.set("nan", Bun.gzipSync(tar));
    const started = performance.now();
    await expect(read("nan")).rejects.toMatchObject({ code: "ErrTemplateRepositoryFailed", metadata: { reason: "archive unreadable" } });
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 15_000);

  test("an archive of more template files than any repository holds is refused, not kept", async () => {
    const count = ARCHIVE_LIMITS.keptFiles + 1;
    const tar = new Uint8Array((count + 2) * 512);
    for (let i = 0; i < count; i++) tar.set(header(`r-main/f${i % 100}/egg-x${i}.json`, "0"), i * 512);
    archives.set("many", Bun.gzipSync(tar));
    await expect(read("many")).rejects.toMatchObject({ code: "ErrTemplateRepositoryFailed", metadata: { reason: "archive has too many files" } });
  });

  test("paths longer than any layout reads are passed over, not held", async () => {
    // pax records name each entry with a 60 KiB path: 300 of them were 18 MB of names from a tiny download.
    const parts: Uint8Array[] = [];
    for (let i = 0; i < 300; i++) {
      const record = encoder.encode(`00000 path=r-main/${"a".repeat(60_000)}${i}.json\n`);
      parts.push(paxHeader(record.byteLength), record, new Uint8Array((512 - (record.byteLength % 512)) % 512), header("r-main/x.json", "2"), encoder.encode("{}"), new Uint8Array(510));
    }
    parts.push(header("r-main/games/egg-kept.json", "2"), encoder.encode("{}"), new Uint8Array(510), new Uint8Array(1024));
    archives.set("long", Bun.gzipSync(Buffer.concat(parts)));
    expect([...(await read("long")).keys()]).toEqual(["games/egg-kept.json"]);
  });

  test("a repository within the caps is still read whole", async () => {
    const tar = new Uint8Array(4 * 512);
    tar.set(header("r-main/a/egg-a.json", "2"), 0);
    tar.set(encoder.encode("{}"), 512);
    archives.set("fine", Bun.gzipSync(tar));
    expect([...(await read("fine")).keys()]).toEqual(["a/egg-a.json"]);
  });
});
