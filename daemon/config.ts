// A node's configuration: a JSON file (KILN_DAEMON_CONFIG, else /etc/kiln/daemon.json when it
// exists) overlaid by KILN_DAEMON_* environment variables. Read once by the composition root.
import { dirname, resolve } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { z } from "../core/zod";
import { envCount, envPeriodMs, envPort, LONGEST_TIMER_SECONDS, parseConfigFile } from "../core/config";
import { SPIGET_FILE_HOST } from "../core/mods/types";
import { DEFAULT_EXTRACT_LIMITS, type ExtractLimits } from "./files/extract-limits";
import { parseRange } from "./environment/network/addresses";
import { DEFAULT_ISOLATION, type IsolationSettings } from "./environment/sandbox";
import { DEFAULT_SFTP_LIMITS, type SftpLimits } from "./sftp/gate";
import type { SftpPlaces } from "./sftp/server";

/** Where install steps fetch from; tests point these at local fixture servers. */
export interface SourceUrls {
  /** Mojang's launcher metadata (version manifest). */
  mojang: string;
  /** Forge's Maven repository. */
  forge: string;
  /** Sponge's download API. */
  sponge: string;
  /** Fabric's metadata API. */
  fabric: string;
  /** Java builds (Adoptium API). */
  java: string;
  /** SteamCMD's download host. */
  steamcmd: string;
  /** NeoForge's Maven repository. */
  neoforge: string;
  /** CurseForge's API (needs the node's curseforgeKey). */
  curseforge: string;
  /** restic's release downloads, for a node without restic on its PATH (backups). */
  restic: string;
  /** Modrinth's file host: the only origin the node downloads Modrinth's add-on files from. */
  modrinthCdn: string;
  /** CurseForge's file host (its API's downloadUrl): the only origin the node downloads CurseForge's add-on files from. */
  curseforgeCdn: string;
  /** Hangar's file host (its API's downloadUrl): the only origin the node downloads Hangar's plugin files from. */
  hangarCdn: string;
  /** Spiget's file host (where its downloads redirect): the only origin the node downloads Spiget's plugin files from. */
  spigetCdn: string;
  /**
   * The other hosts Modrinth's modpack format lets a pack's index name: GitHub, its raw files, the
   * hosts its release downloads redirect to (release-assets since 2025; objects before), and GitLab.
   */
  github: string;
  githubRaw: string;
  githubReleaseAssets: string;
  githubObjects: string;
  gitlab: string;
}

export const DEFAULT_SOURCES: SourceUrls = {
  mojang: "https://launchermeta.mojang.com",
  forge: "https://maven.minecraftforge.net",
  sponge: "https://dl-api.spongepowered.org",
  fabric: "https://meta.fabricmc.net",
  java: "https://api.adoptium.net",
  steamcmd: "https://steamcdn-a.akamaihd.net",
  neoforge: "https://maven.neoforged.net",
  curseforge: "https://api.curseforge.com",
  restic: "https://github.com/restic/restic/releases/download",
  modrinthCdn: "https://cdn.modrinth.com",
  curseforgeCdn: "https://edge.forgecdn.net",
  hangarCdn: "https://hangarcdn.papermc.io",
  spigetCdn: SPIGET_FILE_HOST,
  github: "https://github.com",
  githubRaw: "https://raw.githubusercontent.com",
  githubReleaseAssets: "https://release-assets.githubusercontent.com",
  githubObjects: "https://objects.githubusercontent.com",
  gitlab: "https://gitlab.com",
};

export interface DaemonConfig {
  host: string;
  port: number;
  sftpPort: number;
  /**
   * Where SFTP listens when not on `host`: the panel's local node keeps its API on loopback, but
   * its SFTP port is for users.
   */
  sftpHost?: string;
  /** Holds servers/ (definitions and folders) and binaries/ (Java, SteamCMD). */
  dataDir: string;
  /** The panel this node belongs to (SFTP logins are checked there). */
  panelUrl: string;
  /** Shared with the panel; proves calls in both directions. */
  secret: string;
  /** The node's id on the panel (its deployment config names it): tokens for another node are refused. */
  id?: number;
  sources: SourceUrls;
  /** The Docker Engine socket. */
  dockerSocket: string;
  /** Caps on what one archive extraction may unpack (decompression bombs). */
  extractLimits: ExtractLimits;
  /**
   * Steps may download from this machine's loopback and link-local addresses and the node's own
   * services (a mirror on the loopback, a test rig); off, only the configured sources may be there.
   */
  internalDownloads?: boolean;
  /** How server processes are fenced in (sandbox, own uids); DEFAULT_ISOLATION when not given. */
  isolation?: IsolationSettings;
  /** Caps on SFTP connections (daemon/sftp/server's SftpPlaces for logged-in ones); the defaults for what is not given. */
  sftpLimits?: Partial<SftpLimits & SftpPlaces>;
  /** How often a running server's folder is measured against its disk space; DEFAULT_DISK_CHECK_MS when not given. */
  diskCheckMs?: number;
  /** How often each running server is asked who plays (its template's query); DEFAULT_QUERY_INTERVAL_MS when not given. */
  queryIntervalMs?: number;
  /**
   * CurseForge's API key for the curseforge install step (PufferPanel's daemon needs one too): the
   * config's, or, for the panel's own node, asked for at each install (the panel's setting).
   */
  curseforgeKey?: CurseForgeKey;
}

/** A key as configured, or where to read it when a step needs it. */
export type CurseForgeKey = string | (() => Promise<string | undefined>);

/** A minute: a du walk of every running server's folder is cheap at that pace, and a server over its space is stopped soon enough. */
export const DEFAULT_DISK_CHECK_MS = 60_000;
/** 15 s: a join shows in the server list within 20 s, at well under 1% of a core for 100 servers (bench/query-cost.ts). */
export const DEFAULT_QUERY_INTERVAL_MS = 15_000;

export const DEFAULT_DAEMON_CONFIG_PATH = "/etc/kiln/daemon.json";
export const DEFAULT_DOCKER_SOCKET = "/var/run/docker.sock";

const url = z.string().check(z.url());
/** A text of at least `min` characters. */
const textFrom = (min: number) => z.string().check(z.minLength(min));
const portNumber = z.number().check(z.int(), z.gte(0), z.lte(65535));
const positiveInt = z.number().check(z.int(), z.positive());
/** A timer's period in seconds (core/config's LONGEST_TIMER_SECONDS: past it a timer fires at once). */
const periodSeconds = z.number().check(z.int(), z.positive(), z.lte(LONGEST_TIMER_SECONDS));
const fileSchema = z.strictObject({
  host: z.optional(textFrom(1)),
  port: z.optional(portNumber),
  sftpPort: z.optional(portNumber),
  data: z.optional(textFrom(1)),
  panelUrl: z.optional(url),
  secret: z.optional(textFrom(16)),
  id: z.optional(positiveInt),
  dockerSocket: z.optional(textFrom(1)),
  extractMaxBytes: z.optional(positiveInt),
  extractMaxEntries: z.optional(positiveInt),
  isolation: z.optional(z.enum(["auto", "required"])),
  bwrapPath: z.optional(textFrom(1)),
  ipPath: z.optional(textFrom(1)),
  nftPath: z.optional(textFrom(1)),
  networkRange: z.optional(z.string().check(z.refine((range) => parseRange(range) !== null, 'expected an IPv4 /16 such as "10.213.0.0/16"'))),
  uidRange: z.optional(
    z
      .tuple([z.number().check(z.int(), z.gte(1000)), z.number().check(z.int(), z.lte(2 ** 31 - 2))])
      .check(z.refine(([from, to]) => from <= to, "the first uid must not be above the last")),
  ),
  sftpMaxUnauthenticated: z.optional(positiveInt),
  sftpMaxUnauthenticatedPerAddress: z.optional(positiveInt),
  diskCheckSeconds: z.optional(periodSeconds),
  querySeconds: z.optional(periodSeconds),
  sources: z.optional(z.partial(z.strictObject(Object.fromEntries(Object.keys(DEFAULT_SOURCES).map((key) => [key, url])) as Record<keyof SourceUrls, typeof url>))),
  curseforgeKey: z.optional(textFrom(1)),
  internalDownloads: z.optional(z.boolean()),
});

export class DaemonConfigError extends Error {}

/** The node's secret and id, as its token checks and its calls to the panel use them. */
export function nodeCredentials(config: Pick<DaemonConfig, "secret" | "id">): { secret: string; id?: number } {
  return config.id === undefined ? { secret: config.secret } : { secret: config.secret, id: config.id };
}

export function loadDaemonConfig(env: Record<string, string | undefined>, cwd = process.cwd()): DaemonConfig {
  const path = env.KILN_DAEMON_CONFIG ?? (existsSync(DEFAULT_DAEMON_CONFIG_PATH) ? DEFAULT_DAEMON_CONFIG_PATH : undefined);
  const file = path ? readFile(resolve(cwd, path)) : {};
  const secret = env.KILN_DAEMON_SECRET ?? file.secret;
  if (!secret || secret.length < 16) {
    throw new DaemonConfigError("the node secret is missing or shorter than 16 characters (KILN_DAEMON_SECRET or \"secret\" in the config file; the panel's node page shows it)");
  }
  return {
    host: env.KILN_DAEMON_HOST ?? file.host ?? "0.0.0.0",
    port: port(env.KILN_DAEMON_PORT, "KILN_DAEMON_PORT") ?? file.port ?? 8081,
    sftpPort: port(env.KILN_DAEMON_SFTP_PORT, "KILN_DAEMON_SFTP_PORT") ?? file.sftpPort ?? 5657,
    dataDir: resolve(cwd, env.KILN_DAEMON_DATA ?? file.data ?? "/var/lib/kiln"),
    panelUrl: env.KILN_DAEMON_PANEL_URL ?? file.panelUrl ?? "http://localhost:8080",
    secret,
    id: count(env.KILN_DAEMON_ID, "KILN_DAEMON_ID") ?? file.id,
    sources: { ...DEFAULT_SOURCES, ...file.sources },
    dockerSocket: env.KILN_DOCKER_SOCKET ?? file.dockerSocket ?? DEFAULT_DOCKER_SOCKET,
    isolation: {
      mode: isolationMode(env.KILN_DAEMON_ISOLATION) ?? file.isolation ?? DEFAULT_ISOLATION.mode,
      bwrapPath: file.bwrapPath ?? DEFAULT_ISOLATION.bwrapPath,
      uidRange: file.uidRange ?? DEFAULT_ISOLATION.uidRange,
      ipPath: file.ipPath ?? DEFAULT_ISOLATION.ipPath,
      nftPath: file.nftPath ?? DEFAULT_ISOLATION.nftPath,
      networkRange: file.networkRange ?? DEFAULT_ISOLATION.networkRange,
      // The config file (it holds the secret) must not show through the sandbox's /etc.
      hiddenPaths: path ? [dirname(resolve(cwd, path))] : [],
    },
    extractLimits: {
      maxBytes: count(env.KILN_DAEMON_EXTRACT_MAX_BYTES, "KILN_DAEMON_EXTRACT_MAX_BYTES") ?? file.extractMaxBytes ?? DEFAULT_EXTRACT_LIMITS.maxBytes,
      maxEntries: count(env.KILN_DAEMON_EXTRACT_MAX_ENTRIES, "KILN_DAEMON_EXTRACT_MAX_ENTRIES") ?? file.extractMaxEntries ?? DEFAULT_EXTRACT_LIMITS.maxEntries,
    },
    sftpLimits: {
      unauthenticated: count(env.KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED, "KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED") ?? file.sftpMaxUnauthenticated ?? DEFAULT_SFTP_LIMITS.unauthenticated,
      unauthenticatedPerAddress:
        count(env.KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED_PER_ADDRESS, "KILN_DAEMON_SFTP_MAX_UNAUTHENTICATED_PER_ADDRESS") ?? file.sftpMaxUnauthenticatedPerAddress ?? DEFAULT_SFTP_LIMITS.unauthenticatedPerAddress,
    },
    curseforgeKey: env.KILN_DAEMON_CURSEFORGE_KEY ?? file.curseforgeKey,
    internalDownloads: file.internalDownloads ?? false,
    diskCheckMs: period(env.KILN_DAEMON_DISK_CHECK_SECONDS, "KILN_DAEMON_DISK_CHECK_SECONDS") ?? (file.diskCheckSeconds ?? DEFAULT_DISK_CHECK_MS / 1000) * 1000,
    queryIntervalMs: period(env.KILN_DAEMON_QUERY_SECONDS, "KILN_DAEMON_QUERY_SECONDS") ?? (file.querySeconds ?? DEFAULT_QUERY_INTERVAL_MS / 1000) * 1000,
  };
}

function readFile(path: string): z.infer<typeof fileSchema> {
  return parseConfigFile(fileSchema, path, existsSync(path) ? readFileSync(path, "utf8") : undefined, DaemonConfigError);
}

const port = (value: string | undefined, name: string) => envPort(value, name, DaemonConfigError);

function isolationMode(value: string | undefined): IsolationSettings["mode"] | undefined {
  if (value === undefined) return undefined;
  if (value !== "auto" && value !== "required") throw new DaemonConfigError(`KILN_DAEMON_ISOLATION must be "auto" or "required", got "${value}"`);
  return value;
}

const count = (value: string | undefined, name: string) => envCount(value, name, DaemonConfigError);
const period = (value: string | undefined, name: string) => envPeriodMs(value, name, DaemonConfigError);
