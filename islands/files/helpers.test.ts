// The file manager's pure parts: what a drop brings, how a listing is ordered and dated, the
// page address of a folder, and which language a file opens in.
import { describe, expect, test } from "bun:test";
import { carriesFiles, readDrop, type DropItem } from "./drop";
import { formatTime, sortEntries } from "./listing";
import { filesPageUrl, pathFromSearch } from "../../core/files/page-urls";
import { languageKey, loadLanguage } from "./languages";

const file = (name: string, size = 3, type = "text/plain") => new File([new Uint8Array(size)], name, { type });
const item = (f: File, directory = false): DropItem => ({ kind: "file", getAsFile: () => f, webkitGetAsEntry: () => ({ isDirectory: directory }) });

describe("drop", () => {
  test("folders are counted and left out; a name dropped twice is taken once", () => {
    const a = file("a.txt");
    const { files, folders } = readDrop([item(a), item(file("plugins", 0, ""), true), item(file("a.txt", 9)), item(file("b.txt"))], null);
    expect(files.map((f) => f.name)).toEqual(["a.txt", "b.txt"]);
    expect(files[0]).toBe(a);
    expect(folders).toBe(1);
  });

  test("without the entry API a typeless empty file is taken for a folder", () => {
    const plain = (f: File): DropItem => ({ kind: "file", getAsFile: () => f });
    expect(readDrop([plain(file("dir", 0, "")), plain(file("x.txt"))], null)).toMatchObject({ folders: 1 });
    expect(readDrop(null, [file("dir", 0, ""), file("x.txt"), file("x.txt")]).files.map((f) => f.name)).toEqual(["x.txt"]);
    // An empty file that says what it is, is a file.
    expect(readDrop(null, [file("empty.txt", 0)]).folders).toBe(0);
  });

  test("only a drag that carries files counts; strings are not files", () => {
    expect(readDrop([{ kind: "string", getAsFile: () => null }], null)).toEqual({ files: [], folders: 0 });
    expect(carriesFiles(["text/plain", "Files"])).toBe(true);
    expect(carriesFiles(["text/uri-list"])).toBe(false);
    expect(carriesFiles(undefined)).toBe(false);
  });
});

describe("listing", () => {
  test("folders first, then names in natural order", () => {
    const e = (name: string, isFile = true) => ({ name, isFile, size: 0, modifyTime: 0 });
    expect(sortEntries([e("b10.txt"), e("B2.txt"), e("zeta", false), e("a.txt"), e("Alpha", false)]).map((x) => x.name)).toEqual(["Alpha", "zeta", "a.txt", "B2.txt", "b10.txt"]);
  });

  test("times: the server says UTC, the browser its own zone; nothing for no time", () => {
    expect(formatTime(1_700_000_000, true)).toBe("Nov 14, 2023, 10:13 PM UTC");
    expect(formatTime(1_700_000_000, true, "de-DE")).toBe("14. Nov. 2023, 22:13 UTC");
    expect(formatTime(1_700_000_000, true, "ja-JP")).toBe("2023年11月14日 22:13 UTC");
    expect(formatTime(1_700_000_000, false)).toMatch(/^Nov 1[45], 2023, \d\d:\d3 [AP]M$/);
    expect(formatTime(0, true)).toBe("");
  });

  test("a folder's page address, and back", () => {
    expect(filesPageUrl("ab12", "")).toBe("/server/ab12?tab=files");
    const url = filesPageUrl("ab12", "my world/region&1");
    expect(url).toBe("/server/ab12?tab=files&path=my%20world%2Fregion%261");
    expect(pathFromSearch(url.slice(url.indexOf("?")))).toBe("my world/region&1");
  });
});

describe("editor languages", () => {
  test("chosen by extension or well-known name; anything else is plain text", async () => {
    expect(languageKey("config.YML")).toBe(".yml");
    expect(languageKey("ops.json")).toBe(".json");
    expect(languageKey("start.sh")).toBe(".sh");
    expect(languageKey("eula.properties")).toBe(".properties");
    expect(languageKey(".env")).toBe(".env");
    expect(languageKey("README")).toBeNull();
    expect(languageKey("latest.log")).toBeNull();
    expect(await loadLanguage("latest.log")).toBeNull();
    expect(await loadLanguage("ops.json")).not.toBeNull();
    expect(await loadLanguage("bukkit.toml")).not.toBeNull();
  });
});
