// Template repositories (the import dialog): the library built into Kiln, which works offline,
// plus any HTTP repositories an administrator lists in the settings. An HTTP repository is a base
// URL serving `index.json` ({ name?, templates: [{ name, display, type, readme }] }) and one
// `<name>.json` per template, in Kiln's format or the version-1 format (converted on import).
import { z } from "zod";
import type { Db } from "../../../db";
import { KilnError, type ErrorCode, type ErrorMetadata } from "../../../core/errors";
import { convertV1Template, looksLikeV1Template } from "../../../core/definition/v1";
import { SHIPPED_TEMPLATE_SOURCES } from "../../../templates";
import { getSetting, SETTING_KEYS } from "../settings";
import { libraryIndex } from "./repository-files";
import { TEMPLATE_ID } from "../../../core/definition/constants";
import { putTemplate, type TemplateSummary } from ".";

/** The id of the built-in library; HTTP repositories are known by their URL. */
export const LIBRARY_ID = "kiln";
const TIMEOUT_MS = 10_000;
/** An index or a template larger than this is not one (and is not read whole into memory). */
const MAX_BYTES = 2 * 1024 * 1024;

export interface RepositoryEntry extends TemplateSummary {
  readme: string;
}

export interface RepositoryListing {
  /** `kiln` for the library, else the repository's URL. */
  id: string;
  /** The repository's own name from its index, else its URL. */
  name: string;
  builtIn: boolean;
  templates: RepositoryEntry[];
  /** Set when the repository did not answer with an index; `templates` is then empty. */
  error?: { code: ErrorCode; msg: string; metadata?: ErrorMetadata };
}

const indexSchema = z.object({
  name: z.string().max(200).optional(),
  templates: z.array(
    z.object({
      name: z.string().regex(TEMPLATE_ID),
      display: z.string().default(""),
      type: z.string().default("other"),
      readme: z.string().default(""),
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

function failed(url: string, reason: string): KilnError {
  return new KilnError("ErrTemplateRepositoryFailed", { url, reason }, `template repository ${url}: ${reason}`);
}

/** GETs `path` below the repository's base URL and parses it as JSON, within the time and size limits. */
async function fetchJson(base: string, path: string, fetcher: typeof fetch): Promise<unknown> {
  const url = `${base.replace(/\/+$/, "")}/${path}`;
  let response: Response;
  try {
    response = await fetcher(url, { signal: AbortSignal.timeout(TIMEOUT_MS), headers: { accept: "application/json" } });
  } catch (error) {
    throw failed(base, error instanceof Error && error.name === "TimeoutError" ? "no answer" : "not reachable");
  }
  if (response.status === 404) return undefined;
  if (!response.ok) throw failed(base, `HTTP ${response.status}`);
  if (Number(response.headers.get("content-length") ?? 0) > MAX_BYTES) throw failed(base, "answer too large");
  const text = await readLimited(response, base);
  try {
    return JSON.parse(text);
  } catch {
    throw failed(base, "answer is not JSON");
  }
}

async function readLimited(response: Response, base: string): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_BYTES) throw failed(base, "answer too large");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function httpListing(url: string, fetcher: typeof fetch): Promise<RepositoryListing> {
  try {
    const raw = await fetchJson(url, "index.json", fetcher);
    const parsed = indexSchema.safeParse(raw);
    if (!parsed.success) throw failed(url, "index.json is not a template index");
    const templates = parsed.data.templates.map((t) => ({ ...t, id: t.name, display: t.display || t.name }));
    return { id: url, name: parsed.data.name || url, builtIn: false, templates };
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    return { id: url, name: url, builtIn: false, templates: [], error: { code: error.code, msg: error.message, metadata: error.metadata } };
  }
}

/** Every repository with what it offers; one that does not answer is listed with its error. */
export async function listRepositories(db: Db, fetcher: typeof fetch = fetch): Promise<RepositoryListing[]> {
  return [libraryListing(), ...(await Promise.all(repositoryUrls(db).map((url) => httpListing(url, fetcher))))];
}

/** The template as the repository holds it, converted to Kiln's format when it is a version-1 one. */
async function fetchTemplate(db: Db, repository: string, name: string, fetcher: typeof fetch): Promise<unknown> {
  if (!TEMPLATE_ID.test(name)) throw new KilnError("ErrNoTemplate", { name });
  let source: unknown;
  if (repository === LIBRARY_ID) source = Object.hasOwn(SHIPPED_TEMPLATE_SOURCES, name) ? SHIPPED_TEMPLATE_SOURCES[name] : undefined;
  else if (repositoryUrls(db).includes(repository)) source = await fetchJson(repository, `${name}.json`, fetcher);
  // Only repositories from the settings are fetched: the API never reaches an URL a caller names.
  else throw new KilnError("ErrNoTemplate", { name }, `no template repository ${repository}`);
  if (source === undefined) throw new KilnError("ErrNoTemplate", { name });
  return looksLikeV1Template(source) ? convertV1Template(source, name) : source;
}

/**
 * Imports one template under its repository name, replacing a stored template with that id.
 * Nothing is written unless the whole template arrived and passed the schema.
 */
export async function importTemplate(db: Db, name: string, repository = LIBRARY_ID, fetcher: typeof fetch = fetch) {
  const source = await fetchTemplate(db, repository, name, fetcher);
  return putTemplate(db, name, source);
}
