// Template repositories (the import dialog): the library built into Kiln, which works offline,
// plus any HTTP repositories an administrator lists in the settings. An HTTP repository is a base
// URL in one of two layouts:
// - Kiln's: `index.json` ({ name?, templates: [{ name, display, type, readme }] }) and one
//   `<name>.json` per template;
// - pufferpanel/templates' (when there is no index.json): a checkout of one branch served with
//   directory listings, a folder per game holding `<name>.json` and its readme (./pufferpanel-layout);
// - an egg repository's (pelican-eggs/*, parkervcp/eggs; when the PufferPanel reading finds no
//   template, or files named as eggs): nested folders holding `egg-<name>.json` (./egg-layout).
// A GitHub repository URL (https://github.com/<owner>/<repo>[/tree/<ref>[/<folder>]]) is read
// from its archive in any of these layouts (./github-archive).
// Templates are imported through core/definition/import, so v1, v2, v2.6 and v3 templates keep
// their meaning and eggs are converted; from a PufferPanel-layout repository an unmarked template
// is read as 2.x.
import { z } from "../../../core/zod";
import type { Db } from "../../../db";
import { KilnError, type ErrorCode, type ErrorMetadata } from "../../../core/errors";
import type { TemplateOrigin } from "../../../core/definition/import";
import { SHIPPED_TEMPLATE_SOURCES } from "../../../templates";
import { getSetting, SETTING_KEYS } from "../settings";
import { libraryIndex } from "./repository-files";
import { TEMPLATE_ID } from "../../../core/definition/constants";
import { fetchJson, fetchText } from "./repository-http";
import { mapLimited, readLayout, type LayoutEntry } from "./pufferpanel-layout";
import { isEggFileName, readEggLayout } from "./egg-layout";
import { isYamlPath, readYamlDocument } from "./yaml-document";
import { eggVersion } from "../../../core/definition/egg";
import { getTemplate, storeTemplate, type TemplateSummary } from ".";
import { archiveFetcher, gitHubSource, readGitHubArchive } from "./github-archive";

/** The id of the built-in library; HTTP repositories are known by their URL. */
export const LIBRARY_ID = "kiln";
/** How long a repository's listing is reused (PufferPanel refreshes its clone as often). */
const LISTING_TTL_MS = 5 * 60_000;
/**
 * What a listing keeps of an offer's readme (a folder's README, an egg's description): the
 * dialog shows each whole, and a readme may be 2 MiB, so a repository of hundreds of folders held
 * and rendered gigabytes. Importing reads the whole readme again; the longest in parkervcp/eggs is 10 KB.
 */
export const LISTED_README_CHARS = 16 * 1024;

/** Where the repositories' outside parts are reached (the panel's config). */
export interface RepositorySources {
  githubArchiveUrl: string;
  /** The longest one repository's reading may take, READ_TIMEOUT_MS unless given (tests). */
  repositoryReadTimeoutMs?: number;
}
/**
 * The longest one repository's reading (its listings and every offer it lists) may take: each
 * request has 10 s, but up to 2,000 listings and 10,000 offers, 8 at a time, each answered just
 * within its 10 s, held the list and every import from that repository for hours. Past it every
 * request still open fails as "no answer". parkervcp/eggs is read in seconds.
 */
const READ_TIMEOUT_MS = 120_000;
const DEFAULT_SOURCES: RepositorySources = { githubArchiveUrl: "https://codeload.github.com" };

export interface RepositoryEntry extends TemplateSummary {
  readme: string;
}

export interface RepositoryListing {
  /** `kiln` for the library, else the repository's URL. */
  id: string;
  /** The repository's own name from its index, else its URL. */
  name: string;
  builtIn: boolean;
  /** A short name for ids renamed on a collision (`<id>-<namespace>`): kiln, a GitHub owner, a host. */
  namespace: string;
  /** `kiln` (index.json), `pufferpanel` (pufferpanel/templates' folders) or `egg` (an egg repository's); absent for the library */
  layout?: "kiln" | "pufferpanel" | "egg";
  templates: RepositoryEntry[];
  /** Set when the repository did not answer with an index; `templates` is then empty. */
  error?: { code: ErrorCode; msg: string; metadata?: ErrorMetadata };
  /** Still being read when the dialog could wait no longer (listRepositoriesWithin): shown as loading. */
  pending?: boolean;
}

const indexSchema = z.object({
  name: z.optional(z.string().check(z.maxLength(200))),
  templates: z.array(
    z.object({
      name: z.string().check(z.regex(TEMPLATE_ID)),
      display: z._default(z.string(), ""),
      type: z._default(z.string(), "other"),
      readme: z._default(z.string(), ""),
    }),
  ),
});

/** The HTTP repositories from the settings, one URL per line. */
export async function repositoryUrls(db: Db): Promise<string[]> {
  return (await getSetting(db, SETTING_KEYS.templateRepositories) ?? "").split("\n").map((u) => u.trim()).filter(Boolean);
}

function libraryListing(): RepositoryListing {
  const templates = libraryIndex().map((t) => ({ ...t, id: t.name })).sort((a, b) => a.display.localeCompare(b.display));
  return { id: LIBRARY_ID, name: LIBRARY_ID, builtIn: true, namespace: LIBRARY_ID, templates };
}

interface HttpRepository {
  listing: RepositoryListing;
  /** pufferpanel layout: where each template id's files are */
  files?: Map<string, LayoutEntry>;
  /** What reads the repository's files: the network, or a GitHub archive read once. */
  fetcher: typeof fetch;
}

/**
 * The short name of a repository for renamed ids: a GitHub URL's owner (pufferpanel,
 * parkervcp), else the host's first label; letters, digits and "-" only.
 */
export function namespaceOf(url: string): string {
  const github = gitHubSource(url);
  let name = github?.owner ?? "";
  if (!name) {
    try {
      name = new URL(url).hostname.split(".").find((label) => label !== "www") ?? "";
    } catch {
      name = "";
    }
  }
  return name.toLowerCase().replace(/[^a-z0-9-]+/g, "-").replace(/^-+|-+$/g, "").slice(0, 24) || "repo";
}

const cache = new Map<string, { at: number; repository: Promise<HttpRepository> }>();

/** A repository's listing, read afresh when older than LISTING_TTL_MS; a failed read is not kept. */
function readRepository(url: string, fetcher: typeof fetch, sources: RepositorySources): Promise<HttpRepository> {
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < LISTING_TTL_MS) return hit.repository;
  const github = gitHubSource(url);
  const deadline = AbortSignal.timeout(sources.repositoryReadTimeoutMs ?? READ_TIMEOUT_MS);
  const repository = github
    ? readGitHubArchive(url, github, sources.githubArchiveUrl, fetcher).then((files) => readFresh(url, archiveFetcher(url, files)))
    : readFresh(url, withinDeadline(fetcher, deadline)).then((read) => ({ ...read, fetcher })); // imports later have their own time
  cache.set(url, { at: Date.now(), repository });
  repository.catch(() => cache.get(url)?.repository === repository && cache.delete(url));
  return repository;
}

/** `fetcher`, each request also ended by `deadline` (its own time limit still holds). */
function withinDeadline(fetcher: typeof fetch, deadline: AbortSignal): typeof fetch {
  return ((input: string | URL | Request, init?: RequestInit) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    return fetcher(input, { ...init, signal });
  }) as typeof fetch;
}

async function readFresh(url: string, fetcher: typeof fetch): Promise<HttpRepository> {
  const index = await fetchJson(url, "index.json", fetcher);
  if (index !== undefined) {
    const parsed = indexSchema.safeParse(index);
    if (!parsed.success) throw new KilnError("ErrTemplateRepositoryFailed", { url, reason: "index.json is not a template index" });
    const templates = parsed.data.templates.map((t) => ({ ...t, id: t.name, display: t.display || t.name }));
    return { listing: { id: url, name: parsed.data.name || url, builtIn: false, namespace: namespaceOf(url), layout: "kiln", templates }, fetcher };
  }
  // An egg repository may hold eggs one folder deep too; its files are named egg-….json.
  const puffer = await readLayout(url, fetcher);
  const layout = puffer.length > 0 && !puffer.some((e) => isEggFileName(`${e.name}.json`)) ? "pufferpanel" : "egg";
  const entries = layout === "pufferpanel" ? puffer : await readEggLayout(url, fetcher);
  const readmes = new Map<string, Promise<string>>();
  const readmeOf = (path: string) => {
    if (!readmes.has(path)) readmes.set(path, fetchText(url, path, fetcher, "text/plain").then((t) => (t ?? "").slice(0, LISTED_README_CHARS), () => ""));
    return readmes.get(path)!;
  };
  const templates = await mapLimited(entries, 8, async (entry): Promise<RepositoryEntry> => {
    const readme = entry.readmePath ? await readmeOf(entry.readmePath) : "";
    // A file that cannot be read is still offered under its name: importing it says why it fails.
    const source = await fetchDocument(url, entry.path, fetcher).catch(() => undefined);
    const t = (isRecord(source) && isRecord(source.pufferd) ? source.pufferd : isRecord(source) ? source : {}) as { display?: unknown; type?: unknown; name?: unknown; description?: unknown };
    // An egg names itself in `name` and describes itself in `description` (the folder's README is longer).
    const egg = eggVersion(source) !== undefined;
    const shown = egg ? t.name : t.display;
    const display = typeof shown === "string" && shown ? shown : entry.name;
    const about = readme || (egg && typeof t.description === "string" ? t.description.slice(0, LISTED_README_CHARS) : "");
    return { id: entry.id, name: entry.id, display, type: egg ? "egg" : typeof t.type === "string" && t.type ? t.type : "other", readme: about };
  });
  templates.sort((a, b) => a.display.localeCompare(b.display));
  return { listing: { id: url, name: url, builtIn: false, namespace: namespaceOf(url), layout, templates }, files: new Map(entries.map((e) => [e.id, e])), fetcher };
}

/** A template or egg file of a repository: JSON, or YAML for an egg written so (Pelican's exports). */
async function fetchDocument(base: string, path: string, fetcher: typeof fetch): Promise<unknown> {
  if (!isYamlPath(path)) return fetchJson(base, path, fetcher);
  const text = await fetchText(base, path, fetcher, "application/yaml, text/plain");
  return text === undefined ? undefined : readYamlDocument(text, base);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

async function httpListing(url: string, fetcher: typeof fetch, sources: RepositorySources): Promise<RepositoryListing> {
  try {
    return (await readRepository(url, fetcher, sources)).listing;
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { id: url, name: url, builtIn: false, namespace: namespaceOf(url), templates: [], error: { code: error.code, msg: error.message, metadata: error.metadata } };
  }
}

/** Every repository with what it offers; one that does not answer is listed with its error. */
export async function listRepositories(db: Db, sources: RepositorySources = DEFAULT_SOURCES, fetcher: typeof fetch = fetch): Promise<RepositoryListing[]> {
  return [libraryListing(), ...(await Promise.all((await repositoryUrls(db)).map((url) => httpListing(url, fetcher, sources))))];
}

/**
 * Every repository, each read on its own: what has not answered within `waitMs` is listed as
 * pending (its reading goes on, and its listing is kept for the next look), so one slow
 * repository never holds up the others.
 */
export async function listRepositoriesWithin(db: Db, waitMs: number, sources: RepositorySources = DEFAULT_SOURCES, fetcher: typeof fetch = fetch): Promise<RepositoryListing[]> {
  const deadline = Bun.sleep(waitMs).then(() => null);
  const http = await Promise.all(
    (await repositoryUrls(db)).map(async (url) => (await Promise.race([httpListing(url, fetcher, sources), deadline])) ?? { id: url, name: url, builtIn: false, namespace: namespaceOf(url), templates: [], pending: true }),
  );
  return [libraryListing(), ...http];
}

/** One repository's listing (the library, or a repository from the settings), waited for whole. */
export async function repositoryListing(db: Db, id: string, sources: RepositorySources = DEFAULT_SOURCES, fetcher: typeof fetch = fetch): Promise<RepositoryListing> {
  if (id === LIBRARY_ID) return libraryListing();
  // Only repositories from the settings are read: the API never reaches an URL a caller names.
  if (!(await repositoryUrls(db)).includes(id)) throw new KilnError("ErrNoTemplate", { name: id }, `no template repository ${id}`);
  return httpListing(id, fetcher, sources);
}

interface Fetched {
  source: unknown;
  origin: TemplateOrigin;
}

/** The template as the repository holds it, with where it came from (its readme added from a PufferPanel folder). */
async function fetchTemplate(db: Db, repository: string, name: string, sources: RepositorySources, network: typeof fetch): Promise<Fetched> {
  if (!TEMPLATE_ID.test(name)) throw new KilnError("ErrNoTemplate", { name });
  if (repository === LIBRARY_ID) {
    const source = Object.hasOwn(SHIPPED_TEMPLATE_SOURCES, name) ? SHIPPED_TEMPLATE_SOURCES[name] : undefined;
    if (source === undefined) throw new KilnError("ErrNoTemplate", { name });
    return { source, origin: "other" };
  }
  // Only repositories from the settings are fetched: the API never reaches an URL a caller names.
  if (!(await repositoryUrls(db)).includes(repository)) throw new KilnError("ErrNoTemplate", { name }, `no template repository ${repository}`);
  const { files, fetcher } = await readRepository(repository, network, sources);
  if (!files) {
    const source = await fetchJson(repository, `${name}.json`, fetcher);
    if (source === undefined) throw new KilnError("ErrNoTemplate", { name });
    return { source, origin: "other" };
  }
  const entry = files.get(name);
  const source = entry ? await fetchDocument(repository, entry.path, fetcher) : undefined;
  if (!entry || source === undefined) throw new KilnError("ErrNoTemplate", { name });
  // PufferPanel stores the folder's readme with the template; a template's own readme wins (an
  // egg's description is its readme).
  if (entry.readmePath && isRecord(source) && !("readme" in source) && !isRecord(source.pufferd) && eggVersion(source) === undefined) {
    const readme = await fetchText(repository, entry.readmePath, fetcher, "text/plain");
    if (readme) source.readme = readme;
  }
  return { source, origin: "pufferpanel" };
}

export interface ImportOptions {
  /** `kiln` (the library, the default) or a repository URL from the settings. */
  repository?: string;
  /**
   * The id to store it under: the repository's name by default, replacing a template of that id
   * (as PufferPanel's import does); another id must be free (ErrTemplateExists otherwise).
   */
  as?: string;
  sources?: RepositorySources;
  fetcher?: typeof fetch;
}

/**
 * Imports one template, under its repository name unless `as` says otherwise. Nothing is written
 * unless the whole template arrived, converted and passed the schema. The repository it came
 * from is recorded with it. Answers the stored template, its format and the conversion's notes.
 */
export async function importTemplate(db: Db, name: string, options: ImportOptions = {}) {
  const repository = options.repository || LIBRARY_ID;
  const id = options.as || name;
  if (options.as && !TEMPLATE_ID.test(options.as)) throw new KilnError("ErrFieldHasURICharacters", { field: "as" });
  if (id !== name && await templateExists(db, id)) throw new KilnError("ErrTemplateExists", { name: id });
  const { source, origin } = await fetchTemplate(db, repository, name, options.sources ?? DEFAULT_SOURCES, options.fetcher ?? fetch);
  return await storeTemplate(db, id, source, origin, repository === LIBRARY_ID ? "kiln" : undefined, repository);
}

async function templateExists(db: Db, id: string): Promise<boolean> {
  try {
    await getTemplate(db, id);
    return true;
  } catch (error) {
    if (error instanceof KilnError && error.code === "ErrNoTemplate") return false;
    throw error;
  }
}

/**
 * What importing `offer` from `repository` would do to the stored templates: "new" (no template
 * has its id), "update" (the one with its id came from this repository) or "collision" (it came
 * from elsewhere: the dialog offers to replace it or to import under `renamed`, a free id).
 */
export type ImportTarget = { kind: "new" } | { kind: "update" } | { kind: "collision"; renamed: string; from?: string };

export function importTargets(installed: readonly TemplateSummary[]): (repository: RepositoryListing, offerId: string) => ImportTarget {
  const byId = new Map(installed.map((t) => [t.id, t]));
  return (repository, offerId) => {
    const existing = byId.get(offerId);
    if (!existing) return { kind: "new" };
    // One stored without a record of its repository (made by hand, or imported before Kiln
    // recorded it) is never taken for this repository's: replacing it is a choice.
    const from = existing.repository;
    if (from === repository.id) return { kind: "update" };
    const base = `${offerId}-${repository.namespace}`.slice(0, 60);
    let renamed = base;
    for (let n = 2; byId.has(renamed) || !TEMPLATE_ID.test(renamed); n++) renamed = `${base}-${n}`;
    return { kind: "collision", renamed, from };
  };
}
