// Test support only: server folders laid out as each platform's install leaves them, with jars
// made by yazl holding the entries the real ones hold (version.json, MANIFEST.MF, versions.list,
// install.properties), for ./detect-platform's unit tests and its attack tests.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { ZipFile } from "yazl";

export async function yazlJar(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A folder holding `files` (path → content; a path ending in "/" is a folder). */
export function serverFolder(files: Record<string, string | Buffer>): string {
  const root = mkdtempSync(join(tmpdir(), "kiln-platform-"));
  for (const [path, content] of Object.entries(files)) {
    if (path.endsWith("/")) {
      mkdirSync(join(root, path), { recursive: true });
      continue;
    }
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

/** Mojang's version.json as the server jars since 1.14 carry it. */
export function mojangVersion(id: string): string {
  return JSON.stringify({ id, name: id, world_version: 3465, series_id: "main", protocol_version: 763, pack_version: { resource: 15, data: 15 }, build_time: "2023-06-12T10:14:58+00:00", java_component: "java-runtime-gamma", java_version: 17, stable: true });
}

/** Vanilla's 1.18+ bundler: version.json plus the server jar it unpacks. */
export function vanillaJar(game: string): Promise<Buffer> {
  return yazlJar({
    "META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\nMain-Class: net.minecraft.bundler.Main\r\n\r\n",
    "META-INF/versions.list": `${"a".repeat(64)}\t${game}\t${game}/server-${game}.jar\n`,
    "version.json": mojangVersion(game),
  });
}

/** Paperclip (Paper's and Purpur's download): Main-Class io.papermc.paperclip.Main, versions.list naming the patched jar. */
export function paperclipJar(project: "paper" | "purpur", game: string): Promise<Buffer> {
  return yazlJar({
    "META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\nMain-Class: io.papermc.paperclip.Main\r\n\r\n",
    "META-INF/versions.list": `${"b".repeat(64)}\t${project}-${game}\t${project}-${game}.jar\n`,
    "META-INF/download-context": `${"c".repeat(64)}\thttps://piston-data.mojang.com/server.jar\tmojang_${game}.jar\n`,
  });
}

/** The launch jar Fabric's installer writes: a manifest whose class path names the loader and the mappings. */
export function fabricLaunchJar(loader: string, game: string): Promise<Buffer> {
  const classPath = `libraries/org/ow2/asm/asm/9.6/asm-9.6.jar libraries/net/fabricmc/intermediary/${game}/intermediary-${game}.jar libraries/net/fabricmc/fabric-loader/${loader}/fabric-loader-${loader}.jar`;
  // MANIFEST.MF lines are at most 72 bytes; longer values continue on lines starting with a space.
  const wrapped = `Class-Path: ${classPath}`.match(/.{1,70}/g)!.join("\r\n ");
  return yazlJar({
    "META-INF/MANIFEST.MF": `Manifest-Version: 1.0\r\nMain-Class: net.fabricmc.loader.impl.launch.server.FabricServerLauncher\r\n${wrapped}\r\n\r\n`,
    "fabric-server-launch.properties": "launch.mainClass=net.fabricmc.loader.impl.launch.knot.KnotServer\n",
  });
}

/** Fabric's single-file server launcher (meta.fabricmc.net .../server/jar). */
export function fabricServerLauncherJar(loader: string, game: string): Promise<Buffer> {
  return yazlJar({
    "META-INF/MANIFEST.MF": "Manifest-Version: 1.0\r\nMain-Class: net.fabricmc.installer.ServerLauncher\r\n\r\n",
    "install.properties": `fabric-loader-version=${loader}\ngame-version=${game}\n`,
  });
}
