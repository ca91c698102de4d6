// The node's extract preview against real folders: what extracting an archive into a folder would
// replace and what it could not place, with nothing written; the same name rules, links and limits
// as a real extraction; a destination that does not exist yet is said so.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, echoTemplate, type TestNode } from "./helpers/node";
import { tempDir } from "./helpers/process";
import { FILE, FOLDER, LINK, rawTar, rawZip } from "../daemon/files/extract-test-archives";

let t: TestNode;
let folder: string;
const ID = "preview1";
const outside = tempDir("kiln-preview-outside-");
writeFileSync(join(outside, "config.yml"), "outside");

beforeAll(async () => {
  t = await startTestNode({ extractLimits: { maxBytes: 1_000_000, maxEntries: 50 } });
  await t.json("PUT", `/daemon/server/${ID}`, echoTemplate());
  folder = t.folder(ID);
  mkdirSync(join(folder, "plugins", "essentials"), { recursive: true });
  writeFileSync(join(folder, "plugins", "config.yml"), "mine");
  writeFileSync(join(folder, "server.properties"), "mine");
  writeFileSync(join(folder, "pack.zip"), rawZip([
    { name: "plugins/", mode: FOLDER },
    { name: "plugins/config.yml", data: "theirs", mode: FILE },
    { name: "plugins/new.jar", data: "jar", mode: FILE },
    { name: "plugins/essentials", data: "a file where a folder is", mode: FILE },
    { name: "server.properties", data: "theirs", mode: FILE },
    { name: "README.txt", data: "hi", mode: FILE },
  ]));
});
afterAll(() => t.stop());

const preview = (query = "") => t.fetch(`${t.node.url}/daemon/server/${ID}/extract-preview/pack.zip${query}`);
const snapshot = () => JSON.stringify([readdirSync(folder).sort(), readdirSync(join(folder, "plugins")).sort(), readFileSync(join(folder, "server.properties"), "utf8")]);

describe("extract preview", () => {
  test("names the files it would replace and those it cannot place, writing nothing", async () => {
    const before = snapshot();
    const res = await preview();
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      destination: "",
      destinationExists: true,
      entries: 6,
      overwrites: ["plugins/config.yml", "server.properties"],
      overwriteCount: 2,
      conflicts: ["plugins/essentials"],
    });
    expect(snapshot()).toBe(before);
  });

  test("into another folder: nothing replaced there; one not made yet is said so", async () => {
    mkdirSync(join(folder, "other"));
    expect(await (await preview("?destination=other")).json()).toMatchObject({ destination: "other", destinationExists: true, overwrites: [], conflicts: [] });
    expect(await (await preview("?destination=/fresh/place")).json()).toMatchObject({ destination: "fresh/place", destinationExists: false, entries: 6, overwrites: [], overwriteCount: 0 });
  });

  test("a link where a file would land counts as replaced, and is never followed", async () => {
    mkdirSync(join(folder, "linked"));
    symlinkSync(join(outside, "config.yml"), join(folder, "linked", "README.txt"));
    const answer = await (await preview("?destination=linked")).json();
    expect(answer.overwrites).toEqual(["linked/README.txt"]);
    expect(readFileSync(join(outside, "config.yml"), "utf8")).toBe("outside");
  });

  test("names that climb out, links out, bombs and a destination outside are refused as extracting would", async () => {
    writeFileSync(join(folder, "evil.tar"), rawTar([{ name: "../../escape.txt", data: "x" }]));
    const climb = await t.fetch(`${t.node.url}/daemon/server/${ID}/extract-preview/evil.tar`);
    expect((await climb.json()).error.code).toBe("ErrPathOutside");
    writeFileSync(join(folder, "link.zip"), rawZip([{ name: "out", data: "/etc/passwd", mode: LINK }]));
    expect((await (await t.fetch(`${t.node.url}/daemon/server/${ID}/extract-preview/link.zip`)).json()).error.code).toBe("ErrPathOutside");
    writeFileSync(join(folder, "bomb.zip"), rawZip([{ name: "big.bin", data: Buffer.alloc(2_000_000), mode: FILE, deflate: true }]));
    expect((await (await t.fetch(`${t.node.url}/daemon/server/${ID}/extract-preview/bomb.zip`)).json()).error.code).toBe("ErrArchiveTooLarge");
    expect((await (await preview("?destination=../..")).json()).error.code).toBe("ErrPathOutside");
    expect(readdirSync(folder).some((name) => name.startsWith(".kiln-extract"))).toBe(false);
  });
});
