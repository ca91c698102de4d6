// Test scaffolding for the processor and template tests (never imported by the daemon): a local
// stand-in for every site install steps reach (Mojang, Forge, Sponge, Fabric, Adoptium, SteamCMD,
// and the sites templates reach through a base-URL variable: the PaperMC API, GitHub releases,
// Factorio's and Minecraft Bedrock's downloads), serving test/fixtures/sources/ plus generated
// answers whose URLs point back at itself, and a StepContext over a fresh temporary server
// folder whose execute really runs the command.
import { createHash } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, normalize } from "node:path";
import type { SourceUrls } from "../../daemon/config";
import { Jail } from "../../daemon/files/jail";
import type { StepContext } from "../../daemon/processors/types";
import { renderMessage } from "../../core/live/daemon-message";
import { english } from "../../locales/english";

export const FIXTURES = join(import.meta.dir, "..", "fixtures", "sources");
/** Recorded answers of the platforms' services (test/fixtures/platforms/README.md). */
const PLATFORMS = join(import.meta.dir, "..", "fixtures", "platforms");

export interface FixtureSources {
  sources: SourceUrls;
  base: string;
  /** A URL whose connection drops mid-body. */
  droppingUrl: string;
  /** Base URLs of the sites templates take as a variable, served here too. */
  sites: FixtureSites;
  /** Every request's path and query, in order. */
  hits: string[];
  /** A StepContext over a fresh server folder and binaries folder. */
  context(signal?: AbortSignal): TestContext;
  /** A fresh temporary folder, removed by stop(). */
  tempDir(prefix: string): string;
  /** Stops the server and removes every temporary folder. */
  stop(): void;
}

export interface FixtureSites {
  /** The PaperMC API (a template's downloadBase): PAPERMC_BUILDS, jars that are shell scripts. */
  papermc: string;
  /** github.com: TSHOCK_RELEASE's zip, answered with a redirect as GitHub does. */
  github: string;
  /** factorio.com: FACTORIO_VERSION's headless tar.xz (only where xz is installed). */
  factorio: string;
  /** Minecraft Bedrock's download folder: BEDROCK_VERSION's zip. */
  bedrock: string;
  /** An Adoptium API with Java 8 as well as 17 (`sources.java` has 17 only). */
  javaWith8: string;
  /** Purpur's download API (v2; a template's downloadBase): PURPUR_BUILDS, jars that are shell scripts. */
  purpur: string;
  /** Quilt's meta (v3; a template's metaBase): its installers, newest first, on `quiltMaven`. */
  quiltMeta: string;
  /** Quilt's Maven repository (a template's mavenBase): the installer stand-in and its .sha256. */
  quiltMaven: string;
}

/**
 * The builds the PaperMC stand-in (Fill, API v3) has, oldest first, per project and version. Each
 * jar is a shell script (see the fixture java) that prints "<project> <version> build <n>" and its
 * arguments and reads the console until its stop command. Paper 1.20.4 build 490 is listed with
 * a checksum its bytes do not have, as a corrupted mirror would. A version's `latest` is its
 * newest STABLE build, else its newest.
 */
export const PAPERMC_BUILDS: Record<string, Record<string, { build: number; channel: "STABLE" | "BETA" | "ALPHA" }[]>> = {
  paper: {
    "1.20.4": [
      { build: 490, channel: "STABLE" },
      { build: 496, channel: "STABLE" },
      { build: 497, channel: "STABLE" },
      { build: 498, channel: "BETA" },
    ],
    "1.21": [
      { build: 3, channel: "ALPHA" },
      { build: 5, channel: "ALPHA" },
    ],
  },
  velocity: {
    "3.3.0-SNAPSHOT": [
      { build: 430, channel: "STABLE" },
      { build: 436, channel: "STABLE" },
    ],
  },
};
const PAPERMC_STOP: Record<string, string> = { paper: "stop", velocity: "end" };
/**
 * Purpur's builds per Minecraft version, oldest first as its API lists them (`builds.all`, the
 * last its `latest`); its answers are built in the shapes of Purpur's download API (v2:
 * /v2/purpur/{version} and /v2/purpur/{version}/{build}, whose jar's checksum is an MD5), no
 * recorded answer with a known licence having been found.
 */
export const PURPUR_BUILDS: Record<string, number[]> = { "1.21.1": [2327, 2328, 2329], "1.20.4": [2176] };
/** The build whose listed MD5 is not its jar's. */
const PURPUR_BAD_CHECKSUM = 2328;
const PAPERMC_BAD_CHECKSUM = "paper-1.20.4-490.jar";

/** The TShock release the GitHub stand-in has: its tag and its Linux zip, which holds a tar. */
export const TSHOCK_RELEASE = { tag: "v6.1.0", asset: "TShock-6.1.0-for-Terraria-1.4.5.6-linux-x64-Release.zip" };
/** The Factorio version the factorio.com stand-in offers, as "stable", "latest" or itself. */
export const FACTORIO_VERSION = "2.0.28";
/** The Minecraft Bedrock server version the stand-in offers. */
export const BEDROCK_VERSION = "1.26.36.1";

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
    "OpenJDK21.tar.gz": tarGz(join(work, "java21.tar.gz"), ["-C", join(FIXTURES, "java"), "jdk-21.0.5"]),
    "OpenJDK8.tar.gz": tarGz(join(work, "java8.tar.gz"), ["-C", join(FIXTURES, "java"), "jdk8u392-b08"]),
    ...siteArchives(join(work, "sites")),
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
  const sites: FixtureSites = {
    papermc: `${base}/papermc`,
    github: `${base}/github`,
    factorio: `${base}/factorio`,
    bedrock: `${base}/bedrock`,
    javaWith8: `${base}/jdks`,
    purpur: `${base}/purpur`,
    quiltMeta: `${base}/quilt-meta`,
    quiltMaven: `${base}/quilt-maven`,
  };
  const sources: SourceUrls = {
    mojang: `${base}/mojang`,
    forge: `${base}/forge`,
    sponge: `${base}/sponge`,
    fabric: `${base}/fabric`,
    java: `${base}/java`,
    steamcmd: `${base}/steamcmd`,
    neoforge: `${base}/neoforge`,
    curseforge: `${base}/curseforge`,
    restic: `${base}/restic`,
    // No add-on file is fetched by install steps: an origin nothing answers on.
    modrinthCdn: "http://127.0.0.1:1",
    curseforgeCdn: "http://127.0.0.1:1",
    hangarCdn: "http://127.0.0.1:1",
    spigetCdn: "http://127.0.0.1:1",
    github: "http://127.0.0.1:1",
    githubRaw: "http://127.0.0.1:1",
    githubReleaseAssets: "http://127.0.0.1:1",
    githubObjects: "http://127.0.0.1:1",
    gitlab: "http://127.0.0.1:1",
  };
  return {
    base,
    droppingUrl: `http://127.0.0.1:${dropping.port}/partial.bin`,
    hits,
    sources,
    sites,
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
    const versions = ["23w31a", "1.20.4", "1.20.1", "1.19.4", "0.30-classic"].map((id) => ({ id, url: `${base}/mojang/v1/packages/${id}.json` }));
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
  // Adoptium answers with a redirect to the build; only Java 17 and 21 exist here.
  const java = /^\/java\/v3\/binary\/latest\/(17|21)\/ga\/linux\/(x64|aarch64)\/jdk\/hotspot\/normal\/eclipse$/.exec(path);
  if (java) return Response.redirect(`${base}/java/download/OpenJDK${java[1]}.tar.gz`, 307);
  // NeoForge's Maven: its recorded listing (test/fixtures/platforms), and an installer for any build.
  if (path === "/neoforge/releases/net/neoforged/neoforge/maven-metadata.xml") return new Response(Bun.file(join(PLATFORMS, "neoforge", "maven-metadata.xml")));
  const neoforge = /^\/neoforge\/releases\/net\/neoforged\/neoforge\/([0-9][0-9A-Za-z.+-]{0,40})\/neoforge-\1-installer\.jar$/.exec(path);
  if (neoforge) return new Response(neoForgeInstaller(neoforge[1]!));
  if (/^\/evil-java\/v3\/binary\/latest\/16\//.test(path)) return new Response(Bun.file(archives["evil.tar.gz"]!));
  const archive = archives[path.split("/").pop() ?? ""];
  if (archive && (path.startsWith("/java/download/") || path === "/steamcmd/client/installer/steamcmd_linux.tar.gz")) {
    return new Response(Bun.file(archive));
  }
  const site = siteAnswer(url, base, archives);
  if (site) return site;
  // An absolute path normalizes without climbing above "/", so this stays inside FIXTURES.
  const file = join(FIXTURES, normalize(decodeURIComponent(path)));
  return statSync(file, { throwIfNoEntry: false })?.isFile() ? new Response(Bun.file(file)) : new Response("not found", { status: 404 });
}

/**
 * A stand-in for NeoForge's installer `version`: like the real one, `--installServer` leaves run.sh,
 * user_jvm_args.txt and the argument file libraries/net/neoforged/neoforge/<version>/unix_args.txt
 * (the fixture java prints its options and main class).
 */
function neoForgeInstaller(version: string): string {
  const dir = `libraries/net/neoforged/neoforge/${version}`;
  return `#!/bin/sh
# fixture NeoForge installer ${version}
[ "$1" = --installServer ] || { echo "fixture NeoForge installer ${version}: only --installServer is supported" >&2; exit 2; }
mkdir -p ${dir}
printf '%s\\n' -DlibraryDirectory=libraries cpw.mods.bootstraplauncher.BootstrapLauncher '--launchTarget forgeserver' '--fml.neoForgeVersion ${version}' > ${dir}/unix_args.txt
[ -f user_jvm_args.txt ] || printf '%s\\n' '# -Xmx4G' > user_jvm_args.txt
printf '%s\\n' '#!/usr/bin/env sh' 'java @user_jvm_args.txt @${dir}/unix_args.txt "$@"' > run.sh
echo "installer log" > "$0.log"
echo "The server installed successfully"
`;
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
    log: (line) => void lines.push(renderMessage(line, english)),
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

// ---- The sites templates reach through a base-URL variable ----

/** A shell-script stand-in for a server program: prints its arguments, ends on `stop`. */
function standIn(label: string, stop: string, extra = ""): string {
  return [
    "#!/bin/sh",
    `echo "${label} (Kiln test fixture) starting in $(pwd) with: $*"`,
    extra,
    `while IFS= read -r line; do [ "$line" = '${stop}' ] && { echo "${label}: saved and stopped"; exit 0; }; done`,
    "",
  ].filter((line) => line !== "").join("\n") + "\n";
}

function paperJar(project: string, version: string, build: number): string {
  // Paper, like vanilla, refuses to start without the EULA; Velocity has none.
  const eula = project === "paper"
    ? `grep -qx 'eula=true' eula.txt 2>/dev/null || { echo "You need to agree to the EULA in order to run the server."; exit 1; }`
    : "";
  return standIn(`${project} ${version} build ${build}`, PAPERMC_STOP[project]!, eula);
}

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The archives of the template sites, built into `dir` from files made here. */
function siteArchives(dir: string): Record<string, string> {
  const tree = (root: string, files: Record<string, string>) => {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
      if (text.startsWith("#!")) chmodSync(join(root, path), 0o755);
    }
  };
  mkdirSync(dir, { recursive: true });
  const archives: Record<string, string> = {};

  // TShock's Linux zip holds a tar, so that the executable bits survive.
  const tshock = join(dir, "tshock");
  tree(tshock, {
    "TShock.Server": standIn("TShock 6.1.0 for Terraria 1.4.5.6", "off", [
      // Like the real server with -autocreate: a missing world is created.
      `world=''; create=''; while [ $# -gt 0 ]; do case "$1" in -world) world=$2; shift;; -autocreate) create=$2; shift;; esac; shift; done`,
      `if [ -n "$world" ] && [ ! -f "$world" ]; then [ -n "$create" ] || { echo "no world $world"; exit 1; }; mkdir -p "$(dirname "$world")"; echo "world of size $create" > "$world"; echo "Created world $world"; fi`,
    ].join("\n")),
    "ServerPlugins/TShockAPI.dll": "stand-in for TShockAPI.dll\n",
    "bin/OTAPI.dll": "stand-in for OTAPI.dll\n",
  });
  const tar = Bun.spawnSync(["tar", "-cf", join(dir, "TShock-Beta-linux-x64-Release.tar"), "-C", tshock, "TShock.Server", "ServerPlugins", "bin"]);
  if (tar.exitCode !== 0) throw new Error(`tar failed: ${tar.stderr.toString()}`);
  archives[TSHOCK_RELEASE.asset] = writeZip(join(dir, TSHOCK_RELEASE.asset), [
    { name: "TShock-Beta-linux-x64-Release.tar", data: readFileSync(join(dir, "TShock-Beta-linux-x64-Release.tar")) },
  ]);

  const bedrock = `bedrock-server-${BEDROCK_VERSION}.zip`;
  archives[bedrock] = writeZip(join(dir, bedrock), [
    { name: "bedrock_server", data: standIn(`Bedrock server ${BEDROCK_VERSION}`, "stop", `echo "LD_LIBRARY_PATH=$LD_LIBRARY_PATH"`), mode: 0o755 },
    { name: "server.properties", data: "server-name=Dedicated Server\ngamemode=survival\ndifficulty=easy\nserver-port=19132\nserver-portv6=19133\nlevel-name=Bedrock level\n" },
    { name: "permissions.json", data: "[]\n" },
    { name: "allowlist.json", data: "[]\n" },
    { name: "bedrock_server_how_to.html", data: "<p>stand-in for the how-to</p>\n" },
  ]);

  // Factorio ships as .tar.xz; without xz there is none to serve, and its tests are skipped.
  if (Bun.which("xz")) {
    const factorio = join(dir, "factorio-root");
    tree(factorio, {
      "factorio/bin/x64/factorio": [
        "#!/bin/sh",
        `echo "Factorio ${FACTORIO_VERSION} headless (Kiln test fixture) in $(pwd) with: $*"`,
        `if [ "$1" = --create ]; then mkdir -p "$(dirname "$2")"; echo "stand-in for a new map" > "$2"; echo "Created $2"; exit 0; fi`,
        `save=''; while [ $# -gt 0 ]; do [ "$1" = --start-server ] && save=$2; shift; done`,
        `[ -f "$save" ] || { echo "Error: save $save not found"; exit 1; }`,
        `while IFS= read -r line; do [ "$line" = /quit ] && { echo "Quitting: saved $save"; exit 0; }; done`,
        "",
      ].join("\n"),
      "factorio/data/server-settings.example.json": JSON.stringify({
        name: "Name of the game as it will appear in the game listing",
        description: "Description of the game that will appear in the listing",
        visibility: { public: true, lan: true },
        username: "",
        token: "",
        game_password: "",
      }, null, 2) + "\n",
      "factorio/config-path.cfg": "config-path=__PATH__executable__/../../config\nuse-system-read-write-data-directories=false\n",
    });
    const name = `factorio-headless_linux_${FACTORIO_VERSION}.tar.xz`;
    const xz = Bun.spawnSync(["tar", "-cJf", join(dir, name), "-C", factorio, "factorio"]);
    if (xz.exitCode !== 0) throw new Error(`tar failed: ${xz.stderr.toString()}`);
    archives[name] = join(dir, name);
  }
  return archives;
}

/** Answers for the template sites, or undefined for a path that is none of theirs. */
function siteAnswer(url: URL, base: string, archives: Record<string, string>): Response | undefined {
  const path = url.pathname;
  const jdk = /^\/jdks\/v3\/binary\/latest\/(8|17)\/ga\/linux\/(x64|aarch64)\/jdk\/hotspot\/normal\/eclipse$/.exec(path);
  if (jdk) return Response.redirect(`${base}/jdks/download/OpenJDK${jdk[1]}.tar.gz`, 307);
  if (/^\/jdks\/download\/OpenJDK(8|17)\.tar\.gz$/.test(path)) return new Response(Bun.file(archives[path.split("/").pop()!]!));

  const papermc = /^\/papermc\/v3\/projects\/([^/]+)\/versions\/([^/]+)\/builds\/(latest|\d+)$/.exec(path);
  if (papermc) {
    const [, project, version, which] = papermc as unknown as [string, string, string, string];
    // PaperMC's own answer, recorded (test/fixtures/platforms): its file's origin pointed here.
    if (project === "paper" && version === "1.21.8" && which === "60") {
      return new Response(readFileSync(join(PLATFORMS, "papermc/projects_paper_1_21_8_builds_60.json"), "utf8").replaceAll("https://fill-data.papermc.io", `${base}/papermc-data`), { headers: { "content-type": "application/json" } });
    }
    const builds = PAPERMC_BUILDS[project]?.[version];
    if (!builds) return Response.json({ ok: false, error: "version not found" }, { status: 404 });
    const b = which === "latest" ? (builds.findLast((x) => x.channel === "STABLE") ?? builds.at(-1)!) : builds.find((x) => x.build === Number(which));
    if (!b) return Response.json({ ok: false, error: "build not found" }, { status: 404 });
    const name = `${project}-${version}-${b.build}.jar`;
    const bytes = paperJar(project, version, b.build);
    const checksum = name === PAPERMC_BAD_CHECKSUM ? "0".repeat(64) : sha256(bytes);
    return Response.json({
      id: b.build,
      time: "2024-01-01T00:00:00.000Z",
      channel: b.channel,
      // A message with braces, commas and quoted keys, as commit messages can have.
      commits: [{ sha: "0".repeat(40), time: "2024-01-01T00:00:00Z", message: `Fix {"id":9999,"url":"http://127.0.0.1:1/evil.jar","sha256":"${"1".repeat(64)}"}, again` }],
      downloads: { "server:default": { name, checksums: { sha256: checksum }, size: bytes.length, url: `${base}/papermc-data/v1/objects/${sha256(bytes)}/${name}` } },
    });
  }
  // Quilt: its meta's installer list (built in its shape: no recorded answer with a known licence was
  // found; the newest first, an older one after it) and its Maven's installer with the .sha256 beside it.
  // Under /quilt-meta/stale the meta names 0.9.1 first, whose published checksum is not its bytes'.
  const quiltMeta = /^\/quilt-meta(\/stale)?\/v3\/versions\/installer$/.exec(path);
  if (quiltMeta) {
    const installer = (version: string) => ({ url: `${base}/quilt-maven/repository/release/org/quiltmc/quilt-installer/${version}/quilt-installer-${version}.jar`, maven: `org.quiltmc:quilt-installer:${version}`, version });
    return Response.json(quiltMeta[1] ? [installer("0.9.1")] : [installer("0.9.2"), installer("0.9.1")]);
  }
  const quiltInstaller = /^\/quilt-maven\/repository\/release\/org\/quiltmc\/quilt-installer\/(0\.9\.[12])\/quilt-installer-\1\.jar(\.sha256)?$/.exec(path);
  if (quiltInstaller) {
    const bytes = readFileSync(join(FIXTURES, "quilt/quilt-installer-0.9.2.jar"));
    return new Response(quiltInstaller[2] ? (quiltInstaller[1] === "0.9.2" ? sha256(bytes) : sha256("other bytes")) : bytes);
  }

  const purpur = /^\/purpur\/v2\/purpur\/([^/]+)(?:\/(latest|\d+)(\/download)?)?$/.exec(path);
  if (purpur) {
    const [, version, which, download] = purpur as unknown as [string, string, string | undefined, string | undefined];
    const builds = PURPUR_BUILDS[version];
    if (!builds) return Response.json({ error: "version not found" }, { status: 404 });
    if (!which) return Response.json({ project: "purpur", version, builds: { latest: String(builds.at(-1)), all: builds.map(String) } });
    const build = which === "latest" ? builds.at(-1)! : builds.find((b) => b === Number(which));
    if (!build) return Response.json({ error: "build not found" }, { status: 404 });
    const bytes = standIn(`purpur ${version} build ${build}`, "stop", `grep -qx 'eula=true' eula.txt 2>/dev/null || { echo "You need to agree to the EULA in order to run the server."; exit 1; }`);
    if (download) return new Response(bytes, { headers: { "content-type": "application/java-archive" } });
    const md5 = build === PURPUR_BAD_CHECKSUM ? "0".repeat(32) : createHash("md5").update(bytes).digest("hex");
    return Response.json({
      project: "purpur",
      version,
      build: String(build),
      result: "SUCCESS",
      timestamp: 1718000000000,
      duration: 90000,
      // A message with braces, commas and quoted keys, as commit messages can have.
      commits: [{ author: "a", email: "a@example.org", description: `Fix {"build":"9999","md5":"${"1".repeat(32)}"}, again`, hash: "0".repeat(40), timestamp: 1718000000000 }],
      md5,
    });
  }

  // Fill's file host: a jar by its name (the recorded 1.21.8 build 60 gets a stand-in whose bytes are not PaperMC's).
  const paperObject = /^\/papermc-data\/v1\/objects\/[0-9a-f]{64}\/(paper|velocity)-(.+)-(\d+)\.jar$/.exec(path);
  if (paperObject) return new Response(paperJar(paperObject[1]!, paperObject[2]!, Number(paperObject[3])));

  // GitHub answers a release download with a redirect to its storage.
  if (path === `/github/Pryaxis/TShock/releases/download/${TSHOCK_RELEASE.tag}/${TSHOCK_RELEASE.asset}`) {
    return Response.redirect(`${base}/github-storage/release-asset?id=1`, 302);
  }
  if (path === "/github-storage/release-asset") return new Response(Bun.file(archives[TSHOCK_RELEASE.asset]!));

  const factorio = /^\/factorio\/get-download\/([^/]+)\/headless\/linux64$/.exec(path)?.[1];
  const factorioArchive = `factorio-headless_linux_${FACTORIO_VERSION}.tar.xz`;
  if (factorio && [FACTORIO_VERSION, "stable", "latest"].includes(factorio) && archives[factorioArchive]) {
    return Response.redirect(`${base}/factorio/download/${factorioArchive}`, 302);
  }
  if (path === `/factorio/download/${factorioArchive}` && archives[factorioArchive]) return new Response(Bun.file(archives[factorioArchive]));

  if (path === `/bedrock/bin-linux/bedrock-server-${BEDROCK_VERSION}.zip`) {
    return new Response(Bun.file(archives[`bedrock-server-${BEDROCK_VERSION}.zip`]!));
  }
  return undefined;
}

/** Writes a zip (entries stored, Unix modes kept) to `path`; no zip tool needed. */
function writeZip(path: string, entries: { name: string; data: string | Uint8Array; mode?: number }[]): string {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  const DOS_DATE = (0 << 9) | (1 << 5) | 1; // 1980-01-01
  for (const entry of entries) {
    const name = encoder.encode(entry.name);
    const data = typeof entry.data === "string" ? encoder.encode(entry.data) : entry.data;
    const crc = Bun.hash.crc32(data);
    const local = new Uint8Array(30 + name.length);
    const l = new DataView(local.buffer);
    l.setUint32(0, 0x04034b50, true);
    l.setUint16(4, 10, true); // version needed
    l.setUint16(12, DOS_DATE, true);
    l.setUint32(14, crc, true);
    l.setUint32(18, data.length, true);
    l.setUint32(22, data.length, true);
    l.setUint16(26, name.length, true);
    local.set(name, 30);
    const record = new Uint8Array(46 + name.length);
    const c = new DataView(record.buffer);
    c.setUint32(0, 0x02014b50, true);
    c.setUint16(4, (3 << 8) | 20, true); // made by Unix, so unzip applies the mode
    c.setUint16(6, 10, true);
    c.setUint16(14, DOS_DATE, true);
    c.setUint32(16, crc, true);
    c.setUint32(20, data.length, true);
    c.setUint32(24, data.length, true);
    c.setUint16(28, name.length, true);
    c.setUint32(38, ((0o100000 | (entry.mode ?? 0o644)) << 16) >>> 0, true);
    c.setUint32(42, offset, true);
    record.set(name, 46);
    parts.push(local, data);
    central.push(record);
    offset += local.length + data.length;
  }
  const centralSize = central.reduce((n, r) => n + r.length, 0);
  const end = new Uint8Array(22);
  const e = new DataView(end.buffer);
  e.setUint32(0, 0x06054b50, true);
  e.setUint16(8, entries.length, true);
  e.setUint16(10, entries.length, true);
  e.setUint32(12, centralSize, true);
  e.setUint32(16, offset, true);
  writeFileSync(path, Buffer.concat([...parts, ...central, end]));
  return path;
}
