// The one entry every template import goes through (PUT /api/templates/{id}, the import dialog's
// repositories, the template editor's file and paste conversion): recognise the format, convert
// it to Kiln's, and say what the conversion did. Pure and zod-free; the caller validates the
// result with templateSchema and checkTemplateScripts.
//
// Formats, recognised in this order:
// - v1: PufferPanel 1.x (`pufferd`, run.program/arguments, install.commands) → ./v1;
// - v3: anything written in v3's terms (the `host` environment, `if` conditions, run.command
//   entries, run.stdin, groups, icon, …) → ./v3;
// - v2: PufferPanel 2.x markers Kiln never writes (`internal` variables, the legacy run.program),
//   or any other template from a PufferPanel repository → ./v2;
// - kiln: the rest, taken as written (Kiln's own defaults apply: required and userEdit true).
// A template that Kiln stored after an import is idempotent under its converter (its flags and
// descriptions are already written out), so reading it again changes nothing.
import { rewriteTemplateScripts } from "./script-rewrite";
import type { ImportNote } from "./import-notes";
import { convertV1Template, looksLikeV1Template } from "./v1";
import { convertV2Template, looksLikeV2Template, type Json } from "./v2";
import { convertV3Template, looksLikeV3Template } from "./v3";

export const TEMPLATE_FORMATS = ["kiln", "v1", "v2", "v3"] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

/** Where a template came from: a PufferPanel repository makes an unmarked template a 2.x one. */
export type TemplateOrigin = "pufferpanel" | "other";

export function detectTemplateFormat(value: unknown, origin: TemplateOrigin = "other"): TemplateFormat {
  if (looksLikeV1Template(value)) return "v1";
  if (looksLikeV3Template(value)) return "v3";
  if (origin === "pufferpanel" || looksLikeV2Template(value)) return "v2";
  return "kiln";
}

export interface ImportedTemplate {
  format: TemplateFormat;
  /** Kiln template JSON, for templateSchema */
  template: Json;
  notes: ImportNote[];
}

export interface ImportOptions {
  /** the template's name (a 1.x template took it from its file name) */
  name?: string;
  origin?: TemplateOrigin;
}

/**
 * `value` as a Kiln template with the notes of its conversion. A Kiln template comes back as it
 * is (its scripts are checked, not rewritten: Kiln's own templates say what they mean); the
 * others are converted, then `${variable}`s in their shell scripts rewritten (./script-rewrite).
 */
export function importTemplate(value: unknown, { name, origin = "other" }: ImportOptions = {}): ImportedTemplate {
  const format = detectTemplateFormat(value, origin);
  const notes: ImportNote[] = [];
  if (format === "kiln") return { format, template: value as Json, notes };
  const converted = format === "v1" ? convertV1Template(value, name, notes) : format === "v3" ? convertV3Template(value, notes) : convertV2Template(value, notes);
  return { format, template: rewriteTemplateScripts(converted, notes), notes };
}
