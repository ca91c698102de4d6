// Writes Kiln's template library as an HTTP template repository into a folder (index.json and one
// <name>.json per template): `bun scripts/template-repository.ts ./public/kiln-templates`.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { libraryRepositoryFiles } from "../server/services/templates/repository-files";

const dir = process.argv[2];
if (!dir) {
  console.error("usage: bun scripts/template-repository.ts <folder>");
  process.exit(2);
}
mkdirSync(dir, { recursive: true });
const files = libraryRepositoryFiles();
for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
console.log(`wrote ${Object.keys(files).length} files to ${dir}`);
