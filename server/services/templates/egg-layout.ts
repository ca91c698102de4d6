// A repository laid out as the public egg repositories are (pelican-eggs/*, parkervcp/eggs):
// folders nested a few levels deep ("java/paper/", "game_eggs/steamcmd_servers/ark_survival_evolved/"),
// the eggs among their files as `egg-<name>.json` (older ones `pterodactyl-egg-<name>.json`,
// `eggs-<name>.json`; Pelican's own exports `egg-<name>.yaml`, read with ./yaml-document), a README
// beside them. Read, like PufferPanel's layout (./pufferpanel-layout),
// from the directory listings of a checkout served over HTTP, following only plain child names, to
// a bounded depth and a bounded number of folders, so a listing cannot lead the panel anywhere
// else or keep it reading forever.
import { fetchText, repositoryFailed } from "./repository-http";
import { assertTemplateCount, listingLinks, mapLimited, type LayoutEntry } from "./pufferpanel-layout";
import { EGG_FILE, eggNameOf, templateIdOf } from "../../../core/templates/ids";

/** Folder levels below the base URL that are read (parkervcp/eggs nests four deep). */
const MAX_DEPTH = 5;
/** Folders read in all: above parkervcp/eggs' several hundred. */
const MAX_FOLDERS = 2000;
const PARALLEL = 8;

/** Whether a file name is an egg's by the repositories' naming (a PufferPanel repository has none). */
export const isEggFileName = (file: string): boolean => EGG_FILE.test(file);
export { eggNameOf };

/** Every egg of the repository at `base`, read from its directory listings (empty when it holds none). */
export async function readEggLayout(base: string, fetcher: typeof fetch): Promise<LayoutEntry[]> {
  const root = `${base.replace(/\/+$/, "")}/`;
  const found: LayoutEntry[] = [];
  let budget = MAX_FOLDERS;
  let level: string[] = [""];
  for (let depth = 0; depth <= MAX_DEPTH && level.length > 0; depth++) {
    const take = level.slice(0, Math.max(0, budget));
    budget -= take.length;
    const listed = await mapLimited(take, PARALLEL, async (path) => {
      const html = await fetchText(base, path, fetcher, "text/html");
      if (html === undefined && path === "") throw repositoryFailed(base, "no index.json and no directory listing");
      return { path, links: html === undefined ? { folders: [], files: [] } : listingLinks(html, `${root}${path}`) };
    });
    level = [];
    for (const { path, links } of listed) {
      const readme = links.files.find((f) => f.toLowerCase() === "readme.md");
      // A JSON egg first: where a folder holds the same egg in both forms, it is the one offered.
      const eggs = links.files.filter((f) => EGG_FILE.test(f)).sort((a, b) => Number(!/\.json$/i.test(a)) - Number(!/\.json$/i.test(b)) || a.localeCompare(b));
      for (const file of eggs) {
        const name = eggNameOf(file);
        const id = templateIdOf(name);
        if (id) found.push({ id, name, path: `${path}${encodeURIComponent(file)}`, readmePath: readme ? `${path}${encodeURIComponent(readme)}` : undefined });
      }
      for (const folder of links.folders.sort()) level.push(`${path}${encodeURIComponent(folder)}/`);
    }
    // Counted level by level: the listings stop as soon as they name more than any repository offers.
    assertTemplateCount(base, found.length);
  }
  // Two eggs that would import under one id: the first found (shallowest, then by name) is offered.
  const seen = new Set<string>();
  return found.filter((e) => !seen.has(e.id) && Boolean(seen.add(e.id)));
}
