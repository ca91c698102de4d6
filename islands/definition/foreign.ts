// How the template editor reads a text that arrives whole (pasted and switched to the editor, or
// opened from a file): a template in one of PufferPanel's formats or an egg is held with the
// offer to convert it, anything else is Kiln's own and edited as it is. Pure, so the editor's hook
// (./useEditorModes) and the compatibility harness (test/compat) take the very same path.
import type { detectTemplateFormat, importTemplate, TemplateFormat } from "../../core/definition/import";
import type { ImportNote } from "../../core/definition/import-notes";
import type { Json } from "./convert";

/** The importer's functions: passed in by the template editor, so other editors do not ship them. */
export interface ImportSupport {
  detect: typeof detectTemplateFormat;
  convert: typeof importTemplate;
}

export interface Foreign {
  format: Exclude<TemplateFormat, "kiln">;
  json: Json;
  /**
   * Read as PufferPanel 2.x only because its variables leave required or userEdit unsaid (no
   * marker of either format): the offer says which reading converting takes.
   */
  unmarked: boolean;
}

export interface Converted {
  format: Exclude<TemplateFormat, "kiln">;
  notes: ImportNote[];
}

/**
 * The offer to make for `parsed`, or null to edit it as it is. A 2.x or v3 template whose
 * conversion would change nothing (one Kiln stored, or written in Kiln's terms) is simply edited:
 * the offer appears only when converting means something. Not a template at all: edited as JSON,
 * and refused with its reason when saved.
 */
export function findForeign(parsed: Json | null, importer: ImportSupport | undefined): Foreign | null {
  const format = parsed && importer ? importer.detect(parsed) : "kiln";
  if (!parsed || !importer || format === "kiln" || format === null) return null;
  if (format === "v1" || format === "egg") return { format, json: parsed, unmarked: false };
  const { notes } = importer.convert(parsed);
  if (notes.length === 0) return null;
  return { format, json: parsed, unmarked: notes.some((note) => note.rule === "unmarkedV2") };
}

/** What pressing Convert makes of the offer: the Kiln template and what changed. Throws the importer's refusal. */
export function convertForeign(foreign: Foreign, importer: ImportSupport, name: string): { template: Json; converted: Converted } {
  const result = importer.convert(foreign.json, { name });
  return { template: result.template, converted: { format: foreign.format, notes: result.notes } };
}
