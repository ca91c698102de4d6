// The download and command steps against the local fixture server and real processes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stepSchema } from "../../core/definition/steps";
import { runStep } from "./index";
import { startFixtureSources, type FixtureSources } from "../../test/helpers/step-sources";

let fixtures: FixtureSources;
beforeAll(() => void (fixtures = startFixtureSources()));
afterAll(() => fixtures.stop());

const run = (t: ReturnType<FixtureSources["context"]>, raw: unknown) => runStep(stepSchema.parse(raw), t.ctx);

describe("download", () => {
  test("a single URL string is a list of one; the file is named after the URL's last segment", async () => {
    const t = fixtures.context();
    await run(t, { type: "download", files: `${fixtures.base}/files/hello.txt?token=abc` });
    expect(readFileSync(join(t.root, "hello.txt"), "utf8")).toBe("hello from the fixture server\n");
    expect(t.lines).toContain(`downloading ${fixtures.base}/files/hello.txt?token=abc`);
  });

  test("several URLs, replacing an existing file", async () => {
    const t = fixtures.context();
    writeFileSync(join(t.root, "second.txt"), "old");
    await run(t, { type: "download", files: [`${fixtures.base}/files/hello.txt`, `${fixtures.base}/files/second.txt`] });
    expect(readdirSync(t.root).sort()).toEqual(["hello.txt", "second.txt"]);
    expect(readFileSync(join(t.root, "second.txt"), "utf8")).toBe("second file\n");
  });

  test("an HTTP error names the URL and status and leaves nothing behind", async () => {
    const t = fixtures.context();
    const url = `${fixtures.base}/files/missing.jar`;
    await expect(run(t, { type: "download", files: url })).rejects.toThrow(`could not fetch ${url}: the server answered HTTP 404`);
    expect(readdirSync(t.root)).toEqual([]);
  });

  test("a connection that drops mid-download leaves no half-written file", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "download", files: fixtures.droppingUrl })).rejects.toThrow("broke off");
    expect(readdirSync(t.root)).toEqual([]);
  });

  test("an unreachable host, a URL without a file name and a file:// URL fail clearly", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "download", files: "http://127.0.0.1:1/x.jar" })).rejects.toThrow("could not fetch http://127.0.0.1:1/x.jar");
    await expect(run(t, { type: "download", files: `${fixtures.base}/files/` })).rejects.toThrow("cannot tell a file name");
    await expect(run(t, { type: "download", files: "file:///etc/passwd" })).rejects.toThrow("only http and https URLs");
    await expect(run(t, { type: "download", files: "not a url" })).rejects.toThrow("not a valid URL: not a url");
    expect(readdirSync(t.root)).toEqual([]);
  });

  test("a file name that climbs out, or a link in the folder pointing outside, is refused", async () => {
    const t = fixtures.context();
    const outside = fixtures.tempDir("outside");
    writeFileSync(join(outside, "hello.txt"), "untouched");
    await expect(run(t, { type: "download", files: `${fixtures.base}/files/..%2F..%2Fhello.txt` })).rejects.toThrow("outside the server's folder");
    symlinkSync(join(outside, "hello.txt"), join(t.root, "hello.txt"));
    await expect(run(t, { type: "download", files: `${fixtures.base}/files/hello.txt` })).rejects.toThrow("outside the server's folder");
    expect(readFileSync(join(outside, "hello.txt"), "utf8")).toBe("untouched");
    expect(readdirSync(outside)).toEqual(["hello.txt"]);
    expect(readdirSync(join(t.root, ".."))).toEqual(["folder"]);
  });
  test("a cancelled install stops fetching and says so", async () => {
    const controller = new AbortController();
    const t = fixtures.context(controller.signal);
    controller.abort();
    await expect(run(t, { type: "download", files: `${fixtures.base}/files/hello.txt` })).rejects.toThrow(`could not fetch ${fixtures.base}/files/hello.txt: cancelled`);
    expect(readdirSync(t.root)).toEqual([]);
  });
});

describe("command", () => {
  test("each line is split into argv (quotes respected) and run in the server's folder", async () => {
    const t = fixtures.context();
    await run(t, { type: "command", commands: [`sh -c 'printf "%s|" "$0" "$1" > args.txt' "a b" 'c"d'`, "", "touch second"] });
    expect(readFileSync(join(t.root, "args.txt"), "utf8")).toBe(`a b|c"d|`);
    expect(readdirSync(t.root).sort()).toEqual(["args.txt", "second"]);
    expect(t.executed.map((e) => e.argv[0])).toEqual(["sh", "touch"]);
  });

  test("a non-zero exit names the command and its code; later commands do not run", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "command", commands: ["false", "touch never"] })).rejects.toThrow(`command "false" exited with code 1`);
    expect(readdirSync(t.root)).toEqual([]);
  });

  test("a command ended by a signal and an unparsable line fail clearly", async () => {
    const t = fixtures.context();
    await expect(run(t, { type: "command", commands: "sh -c 'kill -TERM $$'" })).rejects.toThrow(`command "sh -c 'kill -TERM $$'" was ended by SIGTERM`);
    await expect(run(t, { type: "command", commands: "echo 'open" })).rejects.toThrow(`cannot read the command "echo 'open": unterminated single quote`);
  });
});
