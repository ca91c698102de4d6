// Imports every template of one branch folder (pufferpanel/templates' layout) through one of the
// panel's doors, each the real path a file takes:
// - "import": the folder served over HTTP with directory listings, set as a template repository in
//   the panel's settings, each template imported with POST /api/templates/import/{name};
// - "put": each file's bytes sent as they are to PUT /api/templates/{id};
// - "paste": each file's text taken by the template editor as a paste or an opened file
//   (islands/definition/foreign: its conversion offer, accepted as a user presses Convert), through
//   the editor's form and back, then saved with PUT as the editor saves.
// Each stored template is then compared with PufferPanel's reading of the same file
// (./pufferpanel-reading).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { testPanel, loginAs } from "../helpers/app";
import { serveFolder, templateFiles } from "../helpers/template-folder-server";
import { SCOPES } from "../../core/scopes";
import { SETTING_KEYS, setSetting } from "../../server/services/settings";
import { templateIdOf } from "../../server/services/templates/pufferpanel-layout";
import { detectTemplateFormat, importTemplate } from "../../core/definition/import";
import { definitionToForm, formToDefinition, parseDefinitionJson } from "../../islands/definition/convert";
import { convertForeign, findForeign } from "../../islands/definition/foreign";
import type { Template } from "../../core/definition";
import { differences, kilnReading, pufferPanelReading, type Branch } from "./pufferpanel-reading";

export const DOORS = ["import", "put", "paste"] as const;
export type Door = (typeof DOORS)[number];

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
  door: Door;
  outcomes: TemplateOutcome[];
  /** the paths the panel asked the repository for (the import door) */
  hits: string[];
}

/** The format each branch's templates are written in (v2.6 is a 2.x format). */
const FORMAT_OF: Record<Branch, string> = { v3: "v3", "v2.6": "v2", v2: "v2", v1: "v1" };

const IMPORTER = { detect: detectTemplateFormat, convert: importTemplate };

type Send = (id: string, text: string) => Promise<{ format?: string; answer: Response }>;

export async function importBranch(root: string, branch: Branch, door: Door = "import"): Promise<BranchOutcome> {
  const folder = join(root, branch);
  const repository = door === "import" ? serveFolder(folder) : null;
  try {
    const panel = await testPanel();
    if (repository) await setSetting(panel.db, SETTING_KEYS.templateRepositories, repository.url);
    const { token } = await loginAs(panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    const json = (method: string, path: string, body: unknown) => panel.request(path, { token, method, headers: { "content-type": "application/json" }, body: typeof body === "string" ? body : JSON.stringify(body) });
    const send: Record<Door, Send> = {
      import: async (id) => {
        const answer = await json("POST", `/api/templates/import/${encodeURIComponent(id)}`, { repository: repository!.url });
        return { answer, format: answer.headers.get("kiln-import-format") ?? undefined };
      },
      put: async (id, text) => {
        const answer = await json("PUT", `/api/templates/${encodeURIComponent(id)}`, text);
        return { answer, format: answer.headers.get("kiln-import-format") ?? undefined };
      },
      paste: async (id, text) => {
        const parsed = parseDefinitionJson(text);
        const foreign = findForeign(parsed, IMPORTER);
        // No offer: the editor takes it as Kiln's own (and says nothing).
        const definition = foreign ? convertForeign(foreign, IMPORTER, id).template : parsed!;
        const edited = formToDefinition(definitionToForm(definition, { template: true }));
        const answer = await json("PUT", `/api/templates/${encodeURIComponent(id)}`, edited);
        return { answer, format: foreign?.format ?? answer.headers.get("kiln-import-format") ?? undefined };
      },
    };
    const outcomes: TemplateOutcome[] = [];
    for (const { folder: dir, file, name } of templateFiles(folder)) {
      const id = templateIdOf(name) ?? name;
      const outcome: TemplateOutcome = { file: `${dir}/${file}`, id, problems: [] };
      outcomes.push(outcome);
      const text = readFileSync(join(folder, dir, file), "utf8");
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch (error) {
        outcome.problems.push(`not JSON: ${(error as Error).message}`);
        continue;
      }
      let sent: Awaited<ReturnType<Send>>;
      try {
        sent = await send[door](id, text);
      } catch (error) {
        outcome.problems.push(`the ${door} path failed: ${(error as Error).message}`);
        continue;
      }
      const body = await sent.answer.json();
      if (!sent.answer.ok) {
        outcome.problems.push(`refused: ${body.error?.code} ${body.error?.msg ?? ""} ${JSON.stringify(body.error?.metadata ?? {})}`.trim());
        continue;
      }
      outcome.format = sent.format;
      // A file read as Kiln's own is a problem only where its meaning changed (below): where the
      // two formats agree on every field, no door can tell them apart, nor needs to. The
      // repository import knows the format from where the file came from.
      if (outcome.format !== FORMAT_OF[branch] && (door === "import" || outcome.format !== "kiln")) outcome.problems.push(`read as ${outcome.format}, not as ${FORMAT_OF[branch]}`);
      outcome.stored = body as Template;
      outcome.problems.push(...differences(pufferPanelReading(raw, branch), kilnReading(outcome.stored)));
    }
    return { branch, door, outcomes, hits: repository?.hits ?? [] };
  } finally {
    repository?.stop();
  }
}

/** A printable summary: per branch how many imported unchanged, and each problem. */
export function summary(results: BranchOutcome[]): string {
  const lines: string[] = [];
  for (const { branch, door, outcomes } of results) {
    const good = outcomes.filter((o) => o.problems.length === 0).length;
    lines.push(`${branch} (${door}): ${good} of ${outcomes.length} templates keep PufferPanel's meaning`);
    for (const o of outcomes) for (const p of o.problems) lines.push(`  ${o.file}: ${p}`);
  }
  return lines.join("\n");
}
