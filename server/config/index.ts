// Kiln's configuration: a JSON file (KILN_CONFIG) overlaid by KILN_* environment variables.
// Read once by the composition root and passed down; nothing else reads the environment.
import { join, resolve } from "node:path";
import { existsSync, readFileSync } from "node:fs";
import { z } from "../../core/zod";
import { envCount, envPeriodMs, envPort, parseConfigFile } from "../../core/config";
import { SOCKET_SWEEP_MS } from "../live-proxy/socket-places";
import type { SourceUrls } from "../../daemon/config";
import { buildableCheckout, servedExecutable } from "../kiln-executable";
import { DEFAULT_RETRIES, type WebhookRetries } from "../services/webhooks/worker";
import { DEFAULT_SSO_SOURCES, type SsoSources } from "../services/sso/client";
import { DEFAULT_REBALANCE, type RebalanceThresholds } from "../services/placement/thresholds";

const fileSchema = z.strictObject({
  port: z.optional(z.number().check(z.int(), z.gte(1), z.lte(65535))),
  host: z.optional(z.string().check(z.minLength(1))),
  data: z.optional(z.string().check(z.minLength(1))),
  trustProxy: z.optional(z.boolean()),
  /** The panel's database: postgres://… for PostgreSQL, sqlite:<path>, or absent for <data>/kiln.db. */
  database: z.optional(z.strictObject({ url: z.optional(z.string().check(z.minLength(1))) })),
  branding: z.optional(z.object({ name: z.optional(z.string()) })),
  translationUrl: z.optional(z.string().check(z.url())),
  mailgunBaseUrl: z.optional(z.string().check(z.url())),
  mailjetBaseUrl: z.optional(z.string().check(z.url())),
  githubArchiveUrl: z.optional(z.string().check(z.url())),
  /** Where Discord's and GitHub's OAuth2 endpoints are (tests point them at local stand-ins). */
  sso: z.optional(z.strictObject({ discordUrl: z.optional(z.string().check(z.url())), githubUrl: z.optional(z.string().check(z.url())), githubApiUrl: z.optional(z.string().check(z.url())) })),
  webhooks: z.optional(
    z.strictObject({
      /** Seconds to wait after each failed attempt; the last repeats. */
      retryDelays: z.optional(z.array(z.number().check(z.gte(0.01), z.lte(86_400))).check(z.minLength(1), z.maxLength(20))),
      /** Seconds after its event that a failing delivery is given up. */
      giveUpAfter: z.optional(z.number().check(z.gte(1), z.lte(7 * 86_400))),
    }),
  ),
  /** When a node counts as loaded enough for rebalancing proposals (services/placement/rebalance). */
  rebalance: z.optional(
    z.strictObject({
      memoryPercent: z.optional(z.number().check(z.gte(1), z.lte(100))),
      cpuPercent: z.optional(z.number().check(z.gte(1), z.lte(100))),
      minutes: z.optional(z.number().check(z.gte(0), z.lte(24 * 60))),
    }),
  ),
  localNode: z.optional(
    z.strictObject({
      enabled: z.optional(z.boolean()),
      /** run the local node as a process of its own (see server/local-node-process.ts) */
      ownProcess: z.optional(z.boolean()),
      port: z.optional(z.number().check(z.int(), z.gte(0), z.lte(65535))),
      sftpPort: z.optional(z.number().check(z.int(), z.gte(0), z.lte(65535))),
      sources: z.optional(z.record(z.string(), z.string().check(z.url()))),
    }),
  ),
});

export interface KilnConfig {
  port: number;
  host: string;
  /** Folder of the SQLite file and the local node's data. */
  dataDir: string;
  /** Where the panel's database is: a postgres:// URL, or a SQLite file (default <data>/kiln.db). */
  database: string;
  /** Trust X-Forwarded-Proto from a reverse proxy when deciding whether the cookie is Secure. */
  trustProxy: boolean;
  branding: { name?: string };
  translationUrl: string;
  /** Where the Mailgun and Mailjet APIs live; tests point these at local servers. */
  mailgunBaseUrl: string;
  mailjetBaseUrl: string;
  /** Where a GitHub repository's archive is downloaded (a template repository given as a GitHub URL); tests point it at recorded answers. */
  githubArchiveUrl: string;
  /** Where the OAuth2-only identity providers (Discord, GitHub) are reached (services/sso/client). */
  ssoSources: SsoSources;
  /** A node above memoryPercent (of its memory in use) or cpuPercent (busy) for `minutes` gets rebalancing proposals. */
  rebalance: RebalanceThresholds;
  /** When webhook deliveries are tried again (services/webhooks/worker: 10 s, 30 s, 2 min, 10 min, hourly, for a day). */
  webhookRetries: WebhookRetries;
  /**
   * The node `kiln panel` runs in its own process. It listens on loopback only (the panel is
   * its one client), on a free port unless one is set; its data lives in <data>/node.
   */
  localNode: { enabled: boolean; ownProcess: boolean; port: number; sftpPort: number; sources: Partial<SourceUrls> };
  /**
   * The kiln executable the panel offers new nodes for download: KILN_NODE_EXECUTABLE (a build for
   * the nodes' system, when it is not the panel's), else the panel's own, or a checkout's
   * dist/kiln (see kiln-executable); null when it has none. It may not exist yet.
   */
  executable: string | null;
  /** The checkout that builds `executable` when it is missing (services/nodes/executable); null for the compiled kiln or a chosen file. */
  executableBuild: string | null;
  /** The executable was named by KILN_NODE_EXECUTABLE, so the panel cannot say which system it is for. */
  executableChosen: boolean;
  /**
   * How often the live-socket rows of panels gone are swept (live-proxy/socket-places):
   * KILN_SOCKET_SWEEP_SECONDS, a test knob (a test of a killed panel's rows need not wait the production 30 s).
   */
  socketSweepMs: number;
  /** First-start admin, when no user exists yet. */
  firstAdmin?: { email?: string; password?: string; username?: string };
}

export class ConfigError extends Error {}

const DEFAULT_TRANSLATION_URL = "https://translate.kiln.gg/projects/kiln/";

export function loadConfig(env: Record<string, string | undefined>, cwd = process.cwd()): KilnConfig {
  const fromFile = readConfigFile(env.KILN_CONFIG, cwd);
  const port = envPort(env.KILN_PORT, "KILN_PORT", ConfigError) ?? fromFile.port ?? 8080;
  const data = env.KILN_DATA ?? fromFile.data ?? "./data";
  return {
    port,
    host: env.KILN_HOST ?? fromFile.host ?? "0.0.0.0",
    dataDir: resolve(cwd, data),
    database: databaseLocation(env.KILN_DATABASE_URL ?? fromFile.database?.url, resolve(cwd, data), cwd),
    trustProxy: env.KILN_TRUST_PROXY !== undefined ? env.KILN_TRUST_PROXY === "1" || env.KILN_TRUST_PROXY === "true" : (fromFile.trustProxy ?? false),
    branding: { name: env.KILN_BRAND_NAME ?? fromFile.branding?.name },
    translationUrl: fromFile.translationUrl ?? DEFAULT_TRANSLATION_URL,
    mailgunBaseUrl: env.KILN_MAILGUN_URL ?? fromFile.mailgunBaseUrl ?? "https://api.mailgun.net",
    mailjetBaseUrl: env.KILN_MAILJET_URL ?? fromFile.mailjetBaseUrl ?? "https://api.mailjet.com",
    githubArchiveUrl: env.KILN_GITHUB_ARCHIVE_URL ?? fromFile.githubArchiveUrl ?? "https://codeload.github.com",
    ssoSources: {
      discord: (fromFile.sso?.discordUrl ?? DEFAULT_SSO_SOURCES.discord).replace(/\/+$/, ""),
      github: (fromFile.sso?.githubUrl ?? DEFAULT_SSO_SOURCES.github).replace(/\/+$/, ""),
      githubApi: (fromFile.sso?.githubApiUrl ?? DEFAULT_SSO_SOURCES.githubApi).replace(/\/+$/, ""),
    },
    webhookRetries: {
      delaysMs: fromFile.webhooks?.retryDelays?.map((s) => s * 1000) ?? DEFAULT_RETRIES.delaysMs,
      giveUpAfterMs: fromFile.webhooks?.giveUpAfter !== undefined ? fromFile.webhooks.giveUpAfter * 1000 : DEFAULT_RETRIES.giveUpAfterMs,
    },
    rebalance: { ...DEFAULT_REBALANCE, ...fromFile.rebalance },
    localNode: {
      enabled: env.KILN_LOCAL_NODE !== undefined ? env.KILN_LOCAL_NODE !== "0" && env.KILN_LOCAL_NODE !== "false" : (fromFile.localNode?.enabled ?? true),
      ownProcess: env.KILN_LOCAL_NODE !== undefined ? env.KILN_LOCAL_NODE === "process" : (fromFile.localNode?.ownProcess ?? false),
      port: fromFile.localNode?.port ?? 0,
      sftpPort: envPort(env.KILN_SFTP_PORT, "KILN_SFTP_PORT", ConfigError) ?? fromFile.localNode?.sftpPort ?? 5657,
      sources: fromFile.localNode?.sources ?? {},
    },
    executable: env.KILN_NODE_EXECUTABLE ? resolve(cwd, env.KILN_NODE_EXECUTABLE) : servedExecutable(),
    executableBuild: env.KILN_NODE_EXECUTABLE ? null : buildableCheckout(),
    executableChosen: Boolean(env.KILN_NODE_EXECUTABLE),
    socketSweepMs: envPeriodMs(env.KILN_SOCKET_SWEEP_SECONDS, "KILN_SOCKET_SWEEP_SECONDS", ConfigError) ?? SOCKET_SWEEP_MS,
    firstAdmin: env.KILN_ADMIN_EMAIL || env.KILN_ADMIN_PASSWORD
      ? { email: env.KILN_ADMIN_EMAIL, password: env.KILN_ADMIN_PASSWORD, username: env.KILN_ADMIN_USERNAME }
      : undefined,
  };
}

/** A postgres:// URL as given; "sqlite:<path>" or nothing: a SQLite file (relative to the working folder). */
function databaseLocation(url: string | undefined, dataDir: string, cwd: string): string {
  if (!url) return join(dataDir, "kiln.db");
  if (/^postgres(ql)?:\/\/./.test(url)) return url;
  if (url.startsWith("sqlite:") && url.length > "sqlite:".length) return resolve(cwd, url.slice("sqlite:".length));
  throw new ConfigError("the database URL must start with postgres:// or sqlite: (KILN_DATABASE_URL or database.url)");
}

function readConfigFile(path: string | undefined, cwd: string): z.infer<typeof fileSchema> {
  if (!path) return {};
  const full = resolve(cwd, path);
  return parseConfigFile(fileSchema, full, existsSync(full) ? readFileSync(full, "utf8") : undefined, ConfigError);
}
