// Every template of PufferPanel's official repository (pufferpanel/templates, branches v3, v2.6,
// v2 and v1) brought to the panel through each door a file takes (the repository import, PUT
// /api/templates/{id}, the editor's paste: ./template-harness) and compared field by field with
// what PufferPanel does with it (./pufferpanel-reading). The files are not part of Kiln: the harness reads a checkout
// laid out as <dir>/{v3,v2.6,v2,v1}/<template folders> from KILN_PUFFERPANEL_TEMPLATES, else
// ../shared/fixtures/pufferpanel-templates; with neither it skips with the reason (also under
// KILN_REQUIRE_ALL: it is data, not a part of the system). Kiln's own fixtures in the same
// layout are imported by templates-fixtures.test.ts, always.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { BRANCHES } from "./pufferpanel-reading";
import { DOORS, importBranch, summary, type BranchOutcome } from "./template-harness";

const DEFAULT_DIR = resolve(import.meta.dir, "../../../shared/fixtures/pufferpanel-templates");
const dir = process.env.KILN_PUFFERPANEL_TEMPLATES || (existsSync(DEFAULT_DIR) ? DEFAULT_DIR : undefined);
const branches = dir ? BRANCHES.filter((b) => existsSync(join(dir, b))) : [];

if (!dir || branches.length === 0) {
  console.warn(
    `skipping the official-template harness: ${dir ? `${dir} holds none of ${BRANCHES.join(", ")}` : `KILN_PUFFERPANEL_TEMPLATES is not set and ${DEFAULT_DIR} does not exist`} (a checkout of pufferpanel/templates, one folder per branch)`,
  );
}

describe.skipIf(!dir || branches.length === 0)("pufferpanel/templates", () => {
  const results: BranchOutcome[] = [];
  for (const branch of branches) {
    for (const door of DOORS) {
      test(`every ${branch} template keeps PufferPanel's meaning through ${door === "import" ? "the repository import" : door === "put" ? "PUT /api/templates/{id}" : "the editor's paste"}`, async () => {
        const result = await importBranch(dir!, branch, door);
        results.push(result);
        console.log(summary([result]));
        expect(result.outcomes.length).toBeGreaterThan(0);
        expect(result.outcomes.filter((o) => o.problems.length > 0).map((o) => `${o.file}: ${o.problems.join("; ")}`)).toEqual([]);
      }, 300_000);
    }
  }
});
