import { describe, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { tempDir } from "../../test/helpers/process";
import { Jail } from "./jail";
import { createZip } from "./archive-create";
import { extractArchive, DEFAULT_EXTRACT_LIMITS } from "./extract";
import { failure } from "../../test/helpers/failure";
import { fileTree } from "../../test/helpers/file-tree";
import { zipNames } from "../../test/helpers/zip-names";

function setup() {
  const parent = tempDir("kiln-zip-");
  const root = join(parent, "server");
  mkdirSync(join(root, "world/region"), { recursive: true });
  mkdirSync(join(root, "world/empty"));
  mkdirSync(join(parent, "outside"));
  writeFileSync(join(parent, "outside/secret"), "host secret");
  writeFileSync(join(root, "world/level.dat"), randomBytes(3 * 1024 * 1024));
  writeFileSync(join(root, "world/region/r.0.0.mca"), "region");
  writeFileSync(join(root, "start.sh"), "#!/bin/sh\n", { mode: 0o755 });
  writeFileSync(join(root, "server.properties"), "motd=hello\n");
  return { parent, root, jail: new Jail(root) };
}


describe("creating zips", () => {
  test("a round trip gives the same tree and bytes", async () => {
    const { root, jail } = setup();
    const path = await createZip(jail, "backup.zip", ["world", "start.sh", "server.properties"]);
    expect(path).toBe("backup.zip");
    expect(await zipNames(join(root, "backup.zip"))).toEqual(["server.properties", "start.sh", "world/", "world/empty/", "world/level.dat", "world/region/", "world/region/r.0.0.mca"]);
    mkdirSync(join(root, "restored"));
    await extractArchive(jail, "backup.zip", "restored", DEFAULT_EXTRACT_LIMITS);
    const original = fileTree(root);
    const restored = fileTree(join(root, "restored"));
    for (const [name, value] of Object.entries(restored)) expect(original[name]).toBe(value);
    expect(Object.keys(restored).length).toBe(7);
    // No temporary file is left beside it.
    expect(readdirSync(root).filter((name) => name.startsWith("."))).toEqual([]);
  });

  test("a taken name gets ' (2)', then ' (3)'; '.zip' is added when missing", async () => {
    const { root, jail } = setup();
    expect(await createZip(jail, "world.zip", ["world"])).toBe("world.zip");
    expect(await createZip(jail, "world.zip", ["world"])).toBe("world (2).zip");
    expect(await createZip(jail, "world", ["world"])).toBe("world (3).zip");
    expect(await zipNames(join(root, "world (2).zip"))).toContain("world/level.dat");
  });

  test("entries are named from the archive's folder; sources elsewhere by their own name", async () => {
    const { root, jail } = setup();
    mkdirSync(join(root, "backups"));
    expect(await createZip(jail, "backups/a.zip", ["world/region", "start.sh"])).toBe("backups/a.zip");
    expect(await zipNames(join(root, "backups/a.zip"))).toEqual(["region/", "region/r.0.0.mca", "start.sh"]);
    expect(await createZip(jail, "world/inside.zip", ["world/region", "world/level.dat"])).toBe("world/inside.zip");
    expect(await zipNames(join(root, "world/inside.zip"))).toEqual(["level.dat", "region/", "region/r.0.0.mca"]);
  });

  test("an archive of its own folder does not contain itself", async () => {
    const { root, jail } = setup();
    await createZip(jail, "world/world.zip", ["world"]);
    const first = await zipNames(join(root, "world/world.zip"));
    expect(first).not.toContain("world.zip");
    await createZip(jail, "world/world.zip", ["world"]);
    // The second sees the first (a finished file) but never itself.
    expect(await zipNames(join(root, "world/world (2).zip"))).toContain("world.zip");
    expect(await zipNames(join(root, "world/world (2).zip"))).not.toContain("world (2).zip");
  });

  test("links inside are stored as what they point to; links out are skipped; loops end", async () => {
    const { parent, root, jail } = setup();
    symlinkSync("../start.sh", join(root, "world/start-link"));
    symlinkSync("region", join(root, "world/region-link"));
    symlinkSync(join(parent, "outside/secret"), join(root, "world/secret"));
    symlinkSync(join(parent, "outside"), join(root, "world/outside"));
    symlinkSync("..", join(root, "world/region/up"));
    await createZip(jail, "w.zip", ["world"]);
    const names = await zipNames(join(root, "w.zip"));
    expect(names).toContain("world/start-link");
    expect(names).toContain("world/region-link/r.0.0.mca");
    expect(names.some((name) => name.includes("secret") || name.includes("outside"))).toBe(false);
    mkdirSync(join(root, "out"));
    await extractArchive(jail, "w.zip", "out", DEFAULT_EXTRACT_LIMITS);
    expect(readFileSync(join(root, "out/world/start-link"), "utf8")).toBe("#!/bin/sh\n");
    expect(lstatSync(join(root, "out/world/start-link")).isFile()).toBe(true);
  });

  test("a source that cannot be read midway fails the archive and leaves no temporary file", async () => {
    const { root, jail } = setup();
    expect(Bun.spawnSync(["mkfifo", join(root, "pipe")]).exitCode).toBe(0);
    const before = fileTree(root);
    expect((await failure(createZip(jail, "a.zip", ["world", "pipe"]))).code).toBe("ErrNotFound");
    expect(fileTree(root)).toEqual(before);
  });

  test("missing sources, no sources and paths outside fail and leave nothing", async () => {
    const { root, jail } = setup();
    const before = fileTree(root);
    expect((await failure(createZip(jail, "a.zip", []))).code).toBe("ErrFieldRequired");
    expect((await failure(createZip(jail, "a.zip", ["world", "missing.txt"]))).code).toBe("ErrNotFound");
    expect((await failure(createZip(jail, "missing/a.zip", ["world"]))).code).toBe("ErrNotFound");
    expect((await failure(createZip(jail, "a.zip", ["../outside"]))).code).toBe("ErrPathOutside");
    expect((await failure(createZip(jail, "../a.zip", ["world"]))).code).toBe("ErrPathOutside");
    expect(fileTree(root)).toEqual(before);
  });
});
