// Imports every template of one branch folder (pufferpanel/templates' layout) through the panel's
// real import path: the folder is served over HTTP with directory listings, set as a template
// repository in the panel's settings, and each template imported with POST
// /api/templates/import/{name}. Each stored template is then compared with PufferPanel's reading
// of the same file (./pufferpanel-reading).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testPanel, loginAs } from "../helpers/app";
import { serveFolder, templateFiles } from "../helpers/template-folder-server";
import { SCOPES } from "../../core/scopes";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { templateIdOf } from "../../server/services/templates/pufferpanel-layout";
import type { Template } from "../../core/definition";
import { differences, kilnReading, pufferPanelReading, type Branch } from "./pufferpanel-reading";

export interface TemplateOutcome {
  /** `<folder>/<file>` in the branch */
  file: string;
  id: string;
  /** the format the panel read it as (the Kiln-Import-Format answer) */
  format?: string;
  /** why it did not import, or where its meaning changed */
  problems: string[];
  stored?: Template;
}

export interface BranchOutcome {
  branch: Branch;
  outcomes: TemplateOutcome[];
  /** the paths the panel asked the repository for */
  hits: string[];
}

/** The format each branch's templates are written in (v2.6 is a 2.x format). */
const FORMAT_OF: Record<Branch, string> = { v3: "v3", "v2.6": "v2", v2: "v2", v1: "v1" };

export async function importBranch(root: string, branch: Branch): Promise<BranchOutcome> {
  const folder = join(root, branch);
  const repository = serveFolder(folder);
  try {
    const panel = await testPanel();
    setSetting(panel.db, SETTING_KEYS.templateRepositories, repository.url);
    const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    const outcomes: TemplateOutcome[] = [];
    for (const { folder: dir, file, name } of templateFiles(folder)) {
      const id = templateIdOf(name) ?? name;
      const outcome: TemplateOutcome = { file: `${dir}/${file}`, id, problems: [] };
      outcomes.push(outcome);
      let raw: unknown;
      try {
        raw = JSON.parse(readFileSync(join(folder, dir, file), "utf8"));
      } catch (error) {
        outcome.problems.push(`not JSON: ${(error as Error).message}`);
        continue;
      }
      const res = await panel.request(`/api/templates/import/${encodeURIComponent(id)}`, {
        token,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ repository: repository.url }),
      });
      const body = await res.json();
      if (!res.ok) {
        outcome.problems.push(`refused: ${body.error?.code} ${body.error?.msg ?? ""} ${JSON.stringify(body.error?.metadata ?? {})}`.trim());
        continue;
      }
      outcome.format = res.headers.get("kiln-import-format") ?? undefined;
      if (outcome.format !== FORMAT_OF[branch]) outcome.problems.push(`read as ${outcome.format}, not as ${FORMAT_OF[branch]}`);
      outcome.stored = body as Template;
      outcome.problems.push(...differences(pufferPanelReading(raw, branch), kilnReading(outcome.stored)));
    }
    return { branch, outcomes, hits: repository.hits };
  } finally {
    repository.stop();
  }
}

/** A printable summary: per branch how many imported unchanged, and each problem. */
export function summary(results: BranchOutcome[]): string {
  const lines: string[] = [];
  for (const { branch, outcomes } of results) {
    const good = outcomes.filter((o) => o.problems.length === 0).length;
    lines.push(`${branch}: ${good} of ${outcomes.length} templates import with PufferPanel's meaning`);
    for (const o of outcomes) for (const p of o.problems) lines.push(`  ${o.file}: ${p}`);
  }
  return lines.join("\n");
}
