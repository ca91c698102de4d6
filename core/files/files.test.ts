import { describe, expect, test } from "bun:test";
import { archiveName, zipEntryName, sftpDetails, baseName, cleanNewName, crumbs, editRefusal, encodePath, extensionOf, isArchive, isExtractable, isImage, joinPath, MAX_EDITABLE_SIZE, normalizePath, parentPath } from ".";

describe("archiveName", () => {
  test("folder name plus .zip, then (2), (3) … on clashes", () => {
    expect(archiveName("world", [])).toBe("world.zip");
    expect(archiveName("world", ["world.zip"])).toBe("world (2).zip");
    expect(archiveName("world", new Set(["world.zip", "world (2).zip", "world (3).zip"]))).toBe("world (4).zip");
    // A gap is filled: the first free name wins.
    expect(archiveName("world", ["world.zip", "world (3).zip"])).toBe("world (2).zip");
  });

  test("the root folder (an empty name) is 'server'; a path uses its last segment", () => {
    expect(archiveName("", [])).toBe("server.zip");
    expect(archiveName("", ["server.zip"])).toBe("server (2).zip");
    expect(archiveName("plugins/config", ["config.zip"])).toBe("config (2).zip");
    expect(archiveName("plugins/config/", [])).toBe("config.zip");
  });

  test("other names and case differences are not clashes", () => {
    expect(archiveName("world", ["World.zip", "world.tar", "world"])).toBe("world.zip");
  });
});

describe("zipEntryName", () => {
  test("backslashes and a leading drive letter become full-width; everything else is kept", () => {
    expect(zipEntryName("..\\..\\x")).toBe("..\uFF3C..\uFF3Cx");
    expect(zipEntryName("a/b\\c")).toBe("a/b\uFF3Cc");
    expect(zipEntryName("C:/x")).toBe("C\uFF1A/x");
    expect(zipEntryName("a/C:x")).toBe("a/C:x");
    expect(zipEntryName("plain/Name with spaces (2).txt")).toBe("plain/Name with spaces (2).txt");
  });
});

describe("file kinds", () => {
  test("extensions, archives, images", () => {
    expect(extensionOf("Notes.TXT")).toBe(".txt");
    expect(extensionOf(".bashrc")).toBe("");
    expect(extensionOf("Makefile")).toBe("");
    for (const name of ["a.7z", "a.bz2", "a.gz", "a.jar", "a.lz", "a.lzma", "a.rar", "a.tar", "a.tgz", "a.xz", "a.zip", "a.ZIPX"]) expect(isArchive(name)).toBe(true);
    expect(isArchive("a.txt")).toBe(false);
    for (const name of ["a.jpeg", "a.png", "a.jpg", "a.gif", "a.webp", "a.bmp", "a.tiff", "a.SVG"]) expect(isImage(name)).toBe(true);
    expect(isImage("a.ico")).toBe(false);
  });

  test("what the daemon extracts", () => {
    for (const name of ["a.zip", "a.jar", "a.tar", "a.tar.gz", "a.tgz", "a.gz"]) expect(isExtractable(name)).toBe(true);
    for (const name of ["a.7z", "a.rar", "a.xz", "zip", ".zip"]) expect(isExtractable(name)).toBe(false);
  });

  test("archives and files over 20971520 bytes are not edited", () => {
    expect(MAX_EDITABLE_SIZE).toBe(20971520);
    expect(editRefusal("server.properties", MAX_EDITABLE_SIZE)).toBeNull();
    expect(editRefusal("big.log", MAX_EDITABLE_SIZE + 1)).toBe("tooLarge");
    expect(editRefusal("world.zip", 10)).toBe("archive");
  });
});

describe("paths", () => {
  test("join, parent, base name, normalise", () => {
    expect(joinPath("", "a")).toBe("a");
    expect(joinPath("a/b", "c")).toBe("a/b/c");
    expect(parentPath("a/b/c")).toBe("a/b");
    expect(parentPath("c")).toBe("");
    expect(baseName("a/b/c")).toBe("c");
    expect(baseName("")).toBe("");
    expect(normalizePath("/a//./b/../c/")).toBe("a/c");
    expect(normalizePath("../../a")).toBe("a");
  });

  test("each segment is URL-encoded on its own", () => {
    expect(encodePath("my files/a#b?c%d")).toBe("my%20files/a%23b%3Fc%25d");
    expect(encodePath("")).toBe("");
  });

  test("breadcrumbs", () => {
    expect(crumbs("")).toEqual([]);
    expect(crumbs("a/b")).toEqual([{ name: "a", path: "a" }, { name: "b", path: "a/b" }]);
  });

  test("a new name is trimmed and must be one non-empty name", () => {
    expect(cleanNewName("  notes.txt ")).toBe("notes.txt");
    for (const bad of ["", "   ", ".", "..", "a/b"]) expect(cleanNewName(bad)).toBeNull();
  });
});

describe("SFTP details", () => {
  test("the node's host and SFTP port; the username is email#id, URL-encoded in the link", () => {
    const d = sftpDetails("play.example.com", 2022, "panel.example.com", "ann+x@example.com", "ab12cd34");
    expect(d.address).toBe("play.example.com:2022");
    expect(d.username).toBe("ann+x@example.com#ab12cd34");
    expect(d.url).toBe("sftp://ann%2Bx%40example.com%23ab12cd34@play.example.com:2022");
  });

  test("the local node's {ip} (or no host) is the browser's host; IPv6 goes in brackets", () => {
    expect(sftpDetails("{ip}", 5657, "10.0.0.5", "a@b.c", "s1").address).toBe("10.0.0.5:5657");
    expect(sftpDetails("", 5657, "localhost", "a@b.c", "s1").host).toBe("localhost");
    expect(sftpDetails("2001:db8::1", 22, "x", "a@b.c", "s1").address).toBe("[2001:db8::1]:22");
    expect(sftpDetails("{ip}", 22, "[::1]", "a@b.c", "s1").address).toBe("[::1]:22");
  });
});
