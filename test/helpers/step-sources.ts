// Test scaffolding for the processor tests (never imported by the daemon): a local stand-in
// for every site install steps reach (Mojang, Forge, Sponge, Fabric, Adoptium, SteamCMD),
// serving test/fixtures/sources/ plus generated answers whose URLs point back at itself, and
// a StepContext over a fresh temporary server folder whose execute really runs the command.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import type { SourceUrls } from "../../daemon/config";
import { Jail } from "../../daemon/files/jail";
import type { StepContext } from "../../daemon/processors/types";

export const FIXTURES = join(import.meta.dir, "..", "fixtures", "sources");

export interface FixtureSources {
  sources: SourceUrls;
  base: string;
  /** A URL whose connection drops mid-body. */
  droppingUrl: string;
  /** Every request's path and query, in order. */
  hits: string[];
  /** A StepContext over a fresh server folder and binaries folder. */
  context(signal?: AbortSignal): TestContext;
  /** A fresh temporary folder, removed by stop(). */
  tempDir(prefix: string): string;
  /** Stops the server and removes every temporary folder. */
  stop(): void;
}

/** Makes a .tar.gz with the system tar; the fixtures' executable bits come from git. */
function tarGz(out: string, args: string[]): string {
  const tar = Bun.spawnSync(["tar", "-czf", out, ...args]);
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
  return out;
}

const sha1 = (path: string) => createHash("sha1").update(readFileSync(join(FIXTURES, path))).digest("hex");

export function startFixtureSources(): FixtureSources {
  const temps: string[] = [];
  const tempDir = (prefix: string) => {
    const dir = mkdtempSync(join(tmpdir(), `kiln-${prefix}-`));
    temps.push(dir);
    return dir;
  };
  const work = tempDir("sources");
  const archives: Record<string, string> = {
    "OpenJDK17.tar.gz": tarGz(join(work, "java17.tar.gz"), ["-C", join(FIXTURES, "java"), "jdk-17.0.1"]),
    "steamcmd_linux.tar.gz": tarGz(join(work, "steamcmd.tar.gz"), ["-C", join(FIXTURES, "steamcmd"), "steamcmd.sh"]),
    // A Java build that also holds "../evil", as a tampered mirror might serve (-P keeps the "..").
    "evil.tar.gz": tarGz(join(work, "evil.tar.gz"), [
      "-P", "--transform", "s,^evil$,../evil,",
      "-C", join(FIXTURES, "java"), "jdk-17.0.1",
      "-C", join(FIXTURES, "files"), "evil",
    ]),
  };
  const hits: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req): Response {
      const url = new URL(req.url);
      hits.push(url.pathname + url.search);
      return answer(url, base, archives);
    },
  });
  const base: string = `http://127.0.0.1:${server.port}`;
  const dropping = startDroppingServer();
  const sources: SourceUrls = {
    mojang: `${base}/mojang`,
    forge: `${base}/forge`,
    sponge: `${base}/sponge`,
    fabric: `${base}/fabric`,
    java: `${base}/java`,
    steamcmd: `${base}/steamcmd`,
  };
  return {
    base,
    droppingUrl: `http://127.0.0.1:${dropping.port}/partial.bin`,
    hits,
    sources,
    tempDir,
    // Nested one level down so that "../x" from the server folder is still ours to look at.
    context(signal) {
      const serverDir = join(tempDir("server"), "folder");
      mkdirSync(serverDir);
      return makeContext(sources, serverDir, join(tempDir("binaries"), "binaries"), signal);
    },
    stop() {
      void server.stop(true);
      dropping.stop(true);
      for (const dir of temps) rmSync(dir, { recursive: true, force: true });
    },
  };
}

function answer(url: URL, base: string, archives: Record<string, string>): Response {
  const path = url.pathname;
  if (path === "/mojang/mc/game/version_manifest.json") {
    const versions = ["23w31a", "1.20.1", "1.19.4", "0.30-classic"].map((id) => ({ id, url: `${base}/mojang/v1/packages/${id}.json` }));
    return Response.json({ latest: { release: "1.20.1", snapshot: "23w31a" }, versions });
  }
  const mojang = /^\/mojang\/v1\/packages\/(.+)\.json$/.exec(path)?.[1];
  if (mojang) {
    const jar = (id: string) => ({ url: `${base}/mojang/server-${id}.jar`, sha1: sha1(`mojang/server-${id}.jar`) });
    if (mojang === "0.30-classic") return Response.json({ downloads: {} });
    // 1.19.4's listed checksum does not match the bytes served, as a corrupted mirror would.
    if (mojang === "1.19.4") return Response.json({ downloads: { server: { ...jar("1.20.1"), sha1: "0".repeat(40) } } });
    return Response.json({ downloads: { server: jar(mojang) } });
  }
  if (path === "/sponge/v1/org.spongepowered/spongeforge/downloads") {
    const stable = url.searchParams.get("type") === "stable";
    const [version, forge] = stable ? ["1.12.2-2860-7.4.8", "14.23.5.2860"] : ["1.12.2-2838-8.0.0-RC1", "14.23.5.2838"];
    return Response.json([
      { version, artifacts: { "": { url: `${base}/sponge/spongeforge-${version}.jar` } }, dependencies: { minecraft: "1.12.2", forge } },
    ]);
  }
  if (path === "/fabric/v2/versions/installer") {
    return Response.json([
      { url: `${base}/fabric/fabric-installer-1.0.2-beta.jar`, maven: "net.fabricmc:fabric-installer:1.0.2-beta", version: "1.0.2-beta", stable: false },
      { url: `${base}/fabric/fabric-installer-1.0.1.jar`, maven: "net.fabricmc:fabric-installer:1.0.1", version: "1.0.1", stable: true },
      { url: `${base}/fabric/fabric-installer-1.0.0.jar`, maven: "net.fabricmc:fabric-installer:1.0.0", version: "1.0.0", stable: true },
    ]);
  }
  // Adoptium answers with a redirect to the build; only Java 17 exists here.
  if (/^\/java\/v3\/binary\/latest\/17\/ga\/linux\/(x64|aarch64)\/jdk\/hotspot\/normal\/eclipse$/.test(path)) {
    return Response.redirect(`${base}/java/download/OpenJDK17.tar.gz`, 307);
  }
  if (/^\/evil-java\/v3\/binary\/latest\/16\//.test(path)) return new Response(Bun.file(archives["evil.tar.gz"]!));
  const archive = archives[path.split("/").pop() ?? ""];
  if (archive && (path.startsWith("/java/download/") || path === "/steamcmd/client/installer/steamcmd_linux.tar.gz")) {
    return new Response(Bun.file(archive));
  }
  // An absolute path normalizes without climbing above "/", so this stays inside FIXTURES.
  const file = join(FIXTURES, normalize(decodeURIComponent(path)));
  return statSync(file, { throwIfNoEntry: false })?.isFile() ? new Response(Bun.file(file)) : new Response("not found", { status: 404 });
}

/** A raw listener that promises a megabyte, sends 64 KiB and hangs up: a dropped connection. */
function startDroppingServer() {
  return Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      data(socket) {
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${1024 * 1024}\r\n\r\n`);
        socket.write(new Uint8Array(64 * 1024).fill(120));
        socket.end();
      },
    },
  });
}

export interface TestContext {
  ctx: StepContext;
  /** The server's folder (real path). */
  root: string;
  binariesDir: string;
  /** The daemon's console lines. */
  lines: string[];
  /** Each execute call's argv and options. */
  executed: { argv: string[]; host: boolean }[];
  /** Everything the commands printed. */
  output(): string;
}

function makeContext(sources: SourceUrls, serverDir: string, binariesDir: string, signal?: AbortSignal): TestContext {
  const jail = new Jail(serverDir);
  const lines: string[] = [];
  const executed: TestContext["executed"] = [];
  let printed = "";
  const ctx: StepContext = {
    jail,
    binariesDir,
    sources,
    signal,
    log: (line) => void lines.push(line),
    async execute(argv, options) {
      executed.push({ argv, host: options?.host ?? false });
      const proc = Bun.spawn(argv, {
        cwd: join(jail.root, options?.workingDirectory ?? ""),
        env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...options?.env },
        stdout: "pipe",
        stderr: "pipe",
      });
      const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
      printed += out + err;
      await proc.exited;
      return { code: proc.exitCode, signal: proc.signalCode === null ? null : String(proc.signalCode) };
    },
  };
  return { ctx, root: jail.root, binariesDir, lines, executed, output: () => printed };
}
