// Every egg of the public egg repositories (pelican-eggs/minecraft, parkervcp/eggs, or any others
// put beside them) converted by the panel and compared field by field with what Pelican and Wings
// do with it (./egg-reading). The eggs are not part of Kiln: the harness reads a folder holding one
// checkout per repository from KILN_EGGS, else ../shared/fixtures/eggs; with neither it skips with
// the reason. Each egg goes through storeTemplate (what PUT /api/templates/{id} runs) and each
// repository through the import dialog's path (served with directory listings, listed, imported
// with POST /api/templates/import/{name}). Kiln's own small egg fixtures are tested always, in
// core/definition/egg.test.ts.
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { testPanel, loginAs } from "../helpers/app";
import { serveFolder } from "../helpers/template-folder-server";
import { SCOPES } from "../../core/scopes";
import { KilnError } from "../../core/errors";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { storeTemplate } from "../../server/services/templates";
import { eggVersion } from "../../core/definition/egg";
import { eggProblems } from "./egg-reading";
import { readYamlDocument } from "../../server/services/templates/yaml-document";

const DEFAULT_DIR = resolve(import.meta.dir, "../../../shared/fixtures/eggs");
const dir = process.env.KILN_EGGS || (existsSync(DEFAULT_DIR) ? DEFAULT_DIR : undefined);
const repositories = dir ? readdirSync(dir).filter((name) => !name.startsWith(".") && statSync(join(dir, name)).isDirectory()) : [];

if (!dir || repositories.length === 0) {
  console.warn(`skipping the egg harness: ${dir ? `${dir} holds no repository folder` : `KILN_EGGS is not set and ${DEFAULT_DIR} does not exist`} (a folder with checkouts of pelican-eggs/minecraft and parkervcp/eggs)`);
}

/** Every JSON or YAML file below `root` that is an egg Kiln reads (its meta.version says so). */
function eggFiles(root: string): Array<{ path: string; egg: Record<string, unknown> }> {
  const found: Array<{ path: string; egg: Record<string, unknown> }> = [];
  const walk = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      if (entry.name.startsWith(".")) continue;
      const path = join(folder, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(json|ya?ml)$/.test(entry.name)) {
        try {
          const text = readFileSync(path, "utf8");
          const egg = entry.name.endsWith(".json") ? JSON.parse(text) : readYamlDocument(text, "harness");
          if (eggVersion(egg)) found.push({ path, egg });
        } catch {
          // not JSON or YAML: no egg
        }
      }
    }
  };
  walk(root);
  return found.sort((a, b) => a.path.localeCompare(b.path));
}

describe.skipIf(!dir || repositories.length === 0)("egg repositories", () => {
  for (const repository of repositories) {
    test(`every egg of ${repository} converts with nothing silently lost, or is refused with its reasons`, async () => {
      const root = join(dir!, repository);
      const panel = await testPanel();
      const eggs = eggFiles(root);
      let converted = 0;
      const refused: string[] = [];
      const lost: string[] = [];
      for (const [i, { path, egg }] of eggs.entries()) {
        const file = relative(root, path);
        try {
          const { template, notes } = await storeTemplate(panel.db, `egg-${i}`, egg);
          const problems = eggProblems(egg, template, notes);
          if (problems.length === 0) converted++;
          else lost.push(`${file}: ${problems.join("; ")}`);
        } catch (error) {
          if (!(error instanceof KilnError)) throw error;
          refused.push(`${file}: ${error.code} ${error.message}`);
        }
      }
      const rate = converted / eggs.length;
      console.log(`${repository}: ${converted} of ${eggs.length} eggs convert (${(rate * 100).toFixed(1)}%), ${refused.length} refused with their reasons`);
      for (const line of [...refused, ...lost]) console.log(`  ${line}`);
      expect(eggs.length).toBeGreaterThan(0);
      // Nothing silently lost: a conversion differs from Pelican's reading only where it says so.
      expect(lost).toEqual([]);
      expect(rate).toBeGreaterThanOrEqual(0.98);
    }, 300_000);

    test(`${repository} served with directory listings: the import dialog offers its eggs and imports them`, async () => {
      const served = serveFolder(join(dir!, repository));
      try {
        const panel = await testPanel();
        await setSetting(panel.db, SETTING_KEYS.templateRepositories, served.url);
        const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
        const listing = await (await panel.request("/api/templates/import/repositories", { token })).json();
        const offered = listing.repositories.find((r: { id: string }) => r.id === served.url);
        expect(offered.layout).toBe("egg");
        expect(offered.templates.length).toBeGreaterThan(0);
        let imported = 0;
        for (const { name } of offered.templates as Array<{ name: string }>) {
          const res = await panel.request(`/api/templates/import/${encodeURIComponent(name)}`, { token, method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ repository: served.url }) });
          if (res.ok) {
            expect(res.headers.get("kiln-import-format")).toBe("egg");
            imported++;
          } else expect((await res.json()).error.code).toMatch(/^ErrTemplate/);
        }
        console.log(`${repository}: ${offered.templates.length} eggs offered by the import dialog, ${imported} imported`);
        expect(imported / offered.templates.length).toBeGreaterThanOrEqual(0.98);
      } finally {
        served.stop();
      }
    }, 600_000);
  }
});
