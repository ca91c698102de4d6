// Kiln's library as an HTTP template repository: its index, and the files (index.json and
// <name>.json) that host it anywhere for another panel's settings (`bun scripts/template-repository.ts DIR`).
import { SHIPPED_TEMPLATE_SOURCES } from "../../../templates";

export interface IndexEntry {
  name: string;
  display: string;
  type: string;
  readme: string;
}

export function libraryIndex(): IndexEntry[] {
  return Object.entries(SHIPPED_TEMPLATE_SOURCES).map(([id, source]) => {
    const t = source as { display?: string; type?: string; readme?: string };
    return { name: id, display: t.display || id, type: t.type || "other", readme: t.readme ?? "" };
  });
}

export function libraryRepositoryFiles(name = "Kiln library"): Record<string, string> {
  const files: Record<string, string> = { "index.json": `${JSON.stringify({ name, templates: libraryIndex() }, null, 2)}\n` };
  for (const [id, source] of Object.entries(SHIPPED_TEMPLATE_SOURCES)) files[`${id}.json`] = `${JSON.stringify(source, null, 2)}\n`;
  return files;
}
