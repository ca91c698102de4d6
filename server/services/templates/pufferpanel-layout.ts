// A repository laid out as pufferpanel/templates is: a folder per game holding its templates as
// `<name>.json` (one or more: `ark.json`, `ark-docker.json`), its readme (`README.md`, or
// `<name>.md` beside one template), and files that are not templates (`data.json`, v3's test
// data; `.skip`). PufferPanel clones that repository with git. Kiln reads a checkout of one branch
// over plain HTTP, from the directory listings any web server makes of it (nginx `autoindex on`,
// Apache `Options Indexes`, `python3 -m http.server`): the base URL's listing names the folders,
// each folder's listing its files. Only links naming a direct child of the listed folder, with a
// plain name, are followed: a listing cannot lead the panel anywhere else.
import { templateIdOf } from "../../../core/templates/ids";
import { fetchText, repositoryFailed } from "./repository-http";

export interface LayoutEntry {
  /** the Kiln template id the file imports as */
  id: string;
  /** the file's name without `.json`, as PufferPanel names the template */
  name: string;
  /** the template file below the base URL (encoded path) */
  path: string;
  /** the readme below the base URL (encoded path), when the folder has one */
  readmePath?: string;
}

/** A folder or file name a listing may offer: no path, no climbing, no hidden file, not absurdly long. */
const PLAIN_NAME = /^[A-Za-z0-9][A-Za-z0-9_.+-]{0,127}$/;
/** Most folders read from one listing, and most links read from one listing page. */
const MAX_FOLDERS = 500;
const MAX_LINKS = 5000;
/** Listings fetched at once. */
const PARALLEL = 8;
/**
 * Templates one repository offers at most, in any layout: every one offered is read for the
 * listing, so a repository's listings naming millions of files (5,000 links a listing, hundreds
 * of folders) made the panel fetch each and hold them all. parkervcp/eggs offers under a thousand.
 */
export const MAX_TEMPLATES = 10_000;

/** ErrTemplateRepositoryFailed unless `count` templates are within MAX_TEMPLATES. */
export function assertTemplateCount(base: string, count: number): void {
  if (count > MAX_TEMPLATES) throw repositoryFailed(base, "too many templates");
}
/** Files of a folder that are never templates. */
const NOT_TEMPLATES = new Set(["data.json", "package.json", "spec.json"]);

const isPlainName = (name: string) => PLAIN_NAME.test(name) && !name.includes("..");

/** The plain names a directory listing links to, as folders (links ending in "/") and files. */
export function listingLinks(html: string, dirUrl: string): { folders: string[]; files: string[] } {
  const dir = new URL(dirUrl.endsWith("/") ? dirUrl : `${dirUrl}/`);
  const folders = new Set<string>();
  const files = new Set<string>();
  let count = 0;
  for (const m of html.matchAll(/\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>"']+))/gi)) {
    if (++count > MAX_LINKS) break;
    const href = (m[1] ?? m[2] ?? m[3] ?? "").replace(/&amp;/g, "&");
    let target: URL;
    try {
      target = new URL(href, dir);
    } catch {
      continue;
    }
    if (target.origin !== dir.origin || target.search || !target.pathname.startsWith(dir.pathname)) continue;
    const rest = target.pathname.slice(dir.pathname.length);
    const folder = rest.endsWith("/");
    let name: string;
    try {
      name = decodeURIComponent(folder ? rest.slice(0, -1) : rest);
    } catch {
      continue;
    }
    if (!isPlainName(name)) continue;
    (folder ? folders : files).add(name);
  }
  return { folders: [...folders], files: [...files] };
}

export { templateIdOf } from "../../../core/templates/ids";

/** Runs `task` over `items`, at most `limit` at a time, keeping their order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** Every template of the repository at `base`, read from its directory listings. */
export async function readLayout(base: string, fetcher: typeof fetch): Promise<LayoutEntry[]> {
  const root = await fetchText(base, "", fetcher, "text/html");
  if (root === undefined) throw repositoryFailed(base, "no index.json and no directory listing");
  const folders = listingLinks(root, `${base.replace(/\/+$/, "")}/`).folders.slice(0, MAX_FOLDERS);
  const perFolder = await mapLimited(folders, PARALLEL, async (folder) => {
    const path = `${encodeURIComponent(folder)}/`;
    const html = await fetchText(base, path, fetcher, "text/html");
    if (html === undefined) return [];
    const { files } = listingLinks(html, `${base.replace(/\/+$/, "")}/${path}`);
    const readmeOf = (name: string) => files.find((f) => f.toLowerCase() === `${name.toLowerCase()}.md`) ?? files.find((f) => f.toLowerCase() === "readme.md");
    return files
      .filter((f) => f.toLowerCase().endsWith(".json") && !NOT_TEMPLATES.has(f.toLowerCase()))
      .flatMap((file): LayoutEntry[] => {
        const name = file.slice(0, -".json".length);
        const id = templateIdOf(name);
        const readme = readmeOf(name);
        return id ? [{ id, name, path: `${path}${encodeURIComponent(file)}`, readmePath: readme ? `${path}${encodeURIComponent(readme)}` : undefined }] : [];
      });
  });
  // Two files that would import under one id: the first (in folder order) is offered.
  const seen = new Set<string>();
  const entries = perFolder.flat().filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)));
  assertTemplateCount(base, entries.length);
  return entries;
}
