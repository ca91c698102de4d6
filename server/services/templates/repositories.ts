// Template repositories (the import dialog): the library built into Kiln, which works offline,
// plus any HTTP repositories an administrator lists in the settings. An HTTP repository is a base
// URL in one of two layouts:
// - Kiln's: `index.json` ({ name?, templates: [{ name, display, type, readme }] }) and one
//   `<name>.json` per template;
// - pufferpanel/templates' (when there is no index.json): a checkout of one branch served with
//   directory listings, a folder per game holding `<name>.json` and its readme (./pufferpanel-layout);
// - an egg repository's (pelican-eggs/*, parkervcp/eggs; when the PufferPanel reading finds no
//   template, or files named as eggs): nested folders holding `egg-<name>.json` (./egg-layout).
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
import { storeTemplate, type TemplateSummary } from ".";

/** The id of the built-in library; HTTP repositories are known by their URL. */
export const LIBRARY_ID = "kiln";
/** How long a repository's listing is reused (PufferPanel refreshes its clone as often). */
const LISTING_TTL_MS = 5 * 60_000;

export interface RepositoryEntry extends TemplateSummary {
  readme: string;
}

export interface RepositoryListing {
  /** `kiln` for the library, else the repository's URL. */
  id: string;
  /** The repository's own name from its index, else its URL. */
  name: string;
  builtIn: boolean;
  /** `kiln` (index.json), `pufferpanel` (pufferpanel/templates' folders) or `egg` (an egg repository's); absent for the library */
  layout?: "kiln" | "pufferpanel" | "egg";
  templates: RepositoryEntry[];
  /** Set when the repository did not answer with an index; `templates` is then empty. */
  error?: { code: ErrorCode; msg: string; metadata?: ErrorMetadata };
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
export function repositoryUrls(db: Db): string[] {
  return (getSetting(db, SETTING_KEYS.templateRepositories) ?? "").split("\n").map((u) => u.trim()).filter(Boolean);
}

function libraryListing(): RepositoryListing {
  const templates = libraryIndex().map((t) => ({ ...t, id: t.name })).sort((a, b) => a.display.localeCompare(b.display));
  return { id: LIBRARY_ID, name: LIBRARY_ID, builtIn: true, templates };
}

interface HttpRepository {
  listing: RepositoryListing;
  /** pufferpanel layout: where each template id's files are */
  files?: Map<string, LayoutEntry>;
}

const cache = new Map<string, { at: number; repository: Promise<HttpRepository> }>();

/** A repository's listing, read afresh when older than LISTING_TTL_MS; a failed read is not kept. */
function readRepository(url: string, fetcher: typeof fetch): Promise<HttpRepository> {
  const hit = cache.get(url);
  if (hit && Date.now() - hit.at < LISTING_TTL_MS) return hit.repository;
  const repository = readFresh(url, fetcher);
  cache.set(url, { at: Date.now(), repository });
  repository.catch(() => cache.get(url)?.repository === repository && cache.delete(url));
  return repository;
}

async function readFresh(url: string, fetcher: typeof fetch): Promise<HttpRepository> {
  const index = await fetchJson(url, "index.json", fetcher);
  if (index !== undefined) {
    const parsed = indexSchema.safeParse(index);
    if (!parsed.success) throw new KilnError("ErrTemplateRepositoryFailed", { url, reason: "index.json is not a template index" });
    const templates = parsed.data.templates.map((t) => ({ ...t, id: t.name, display: t.display || t.name }));
    return { listing: { id: url, name: parsed.data.name || url, builtIn: false, layout: "kiln", templates } };
  }
  // An egg repository may hold eggs one folder deep too; its files are named egg-….json.
  const puffer = await readLayout(url, fetcher);
  const layout = puffer.length > 0 && !puffer.some((e) => isEggFileName(`${e.name}.json`)) ? "pufferpanel" : "egg";
  const entries = layout === "pufferpanel" ? puffer : await readEggLayout(url, fetcher);
  const readmes = new Map<string, Promise<string>>();
  const readmeOf = (path: string) => {
    if (!readmes.has(path)) readmes.set(path, fetchText(url, path, fetcher, "text/plain").then((t) => t ?? "", () => ""));
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
    const about = readme || (egg && typeof t.description === "string" ? t.description : "");
    return { id: entry.id, name: entry.id, display, type: egg ? "egg" : typeof t.type === "string" && t.type ? t.type : "other", readme: about };
  });
  templates.sort((a, b) => a.display.localeCompare(b.display));
  return { listing: { id: url, name: url, builtIn: false, layout, templates }, files: new Map(entries.map((e) => [e.id, e])) };
}

/** A template or egg file of a repository: JSON, or YAML for an egg written so (Pelican's exports). */
async function fetchDocument(base: string, path: string, fetcher: typeof fetch): Promise<unknown> {
  if (!isYamlPath(path)) return fetchJson(base, path, fetcher);
  const text = await fetchText(base, path, fetcher, "application/yaml, text/plain");
  return text === undefined ? undefined : readYamlDocument(text, base);
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

async function httpListing(url: string, fetcher: typeof fetch): Promise<RepositoryListing> {
  try {
    return (await readRepository(url, fetcher)).listing;
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { id: url, name: url, builtIn: false, templates: [], error: { code: error.code, msg: error.message, metadata: error.metadata } };
  }
}

/** Every repository with what it offers; one that does not answer is listed with its error. */
export async function listRepositories(db: Db, fetcher: typeof fetch = fetch): Promise<RepositoryListing[]> {
  return [libraryListing(), ...(await Promise.all(repositoryUrls(db).map((url) => httpListing(url, fetcher))))];
}

interface Fetched {
  source: unknown;
  origin: TemplateOrigin;
}

/** The template as the repository holds it, with where it came from (its readme added from a PufferPanel folder). */
async function fetchTemplate(db: Db, repository: string, name: string, fetcher: typeof fetch): Promise<Fetched> {
  if (!TEMPLATE_ID.test(name)) throw new KilnError("ErrNoTemplate", { name });
  if (repository === LIBRARY_ID) {
    const source = Object.hasOwn(SHIPPED_TEMPLATE_SOURCES, name) ? SHIPPED_TEMPLATE_SOURCES[name] : undefined;
    if (source === undefined) throw new KilnError("ErrNoTemplate", { name });
    return { source, origin: "other" };
  }
  // Only repositories from the settings are fetched: the API never reaches an URL a caller names.
  if (!repositoryUrls(db).includes(repository)) throw new KilnError("ErrNoTemplate", { name }, `no template repository ${repository}`);
  const { files } = await readRepository(repository, fetcher);
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

/**
 * Imports one template under its repository name, replacing a stored template with that id.
 * Nothing is written unless the whole template arrived, converted and passed the schema.
 * Answers the stored template, the format it was read as and the conversion's notes.
 */
export async function importTemplate(db: Db, name: string, repository = LIBRARY_ID, fetcher: typeof fetch = fetch) {
  const { source, origin } = await fetchTemplate(db, repository, name, fetcher);
  return storeTemplate(db, name, source, origin, repository === LIBRARY_ID ? "kiln" : undefined);
}
