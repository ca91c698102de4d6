// The one entry every template import goes through (PUT /api/templates/{id}, the import dialog's
// repositories, the template editor's file and paste conversion): recognise the format, convert
// it to Kiln's, and say what the conversion did. Pure and zod-free; the caller validates the
// result with templateSchema and checkTemplateScripts.
//
// Formats, recognised in this order:
// - egg: a Pterodactyl or Pelican egg (meta.version PTDL_v1, PTDL_v2, PLCN_v1–PLCN_v3) → ./egg;
// - v1: PufferPanel 1.x (`pufferd`, run.program/arguments, install.commands) → ./v1;
// - v3: anything written in v3's terms (the `host` environment, `if` conditions, run.command
//   entries, run.stdin, groups, icon, …) → ./v3;
// - v2: PufferPanel 2.x markers Kiln never writes (`internal` variables, the legacy run.program),
//   any other template from a PufferPanel repository, or one that no marker tells apart from
//   Kiln's format and is written as 2.x writes (./v2 looksLikeUnmarkedV2: a variable's required or
//   userEdit unsaid, a number as text; Kiln always writes both flags and typed values, and the
//   safe reading of a missing flag is PufferPanel's false) → ./v2;
// - kiln: an object with some of a template's fields, taken as written (Kiln's own defaults
//   apply: required and userEdit true).
// Anything else (no template field, not an object, an egg of an unknown version) is refused with
// ErrTemplateUnrecognised: it is never stored as an empty template.
// A template that Kiln stored after an import is idempotent under its converter (its flags and
// descriptions are already written out), so reading it again changes nothing.
import { rewriteTemplateScripts } from "./script-rewrite";
import type { ImportNote } from "./import-notes";
import { convertV1Template, looksLikeV1Template } from "./v1";
import { convertV2Template, hasKilnTemplateField, isObject, looksLikeUnmarkedV2, looksLikeV2Template, type Json } from "./v2";
import { convertV3Template, looksLikeV3Template } from "./v3";
import { convertEgg, looksLikeEgg } from "./egg";
import { KilnError } from "../errors";

export const TEMPLATE_FORMATS = ["kiln", "v1", "v2", "v3", "egg"] as const;
export type TemplateFormat = (typeof TEMPLATE_FORMATS)[number];

/** Where a template came from: a PufferPanel repository makes an unmarked template a 2.x one. */
export type TemplateOrigin = "pufferpanel" | "other";

/** Fields of Kiln's and PufferPanel's template formats: an object with none of them is no template. */
const TEMPLATE_FIELDS = ["pufferd", "name", "display", "type", "readme", "install", "run", "data", "environment", "supportedEnvironments", "requirements", "groups", "limits", "fileDenylist", "source", "id"];

/** Where Kiln records a template came from (the template list shows it). */
export type TemplateSource = "kiln" | "pufferpanel" | "egg";

/** The format of `value`, or null when it is no template Kiln reads. */
export function detectTemplateFormat(value: unknown, origin: TemplateOrigin = "other"): TemplateFormat | null {
  if (looksLikeEgg(value)) return "egg";
  if (!isObject(value) || !TEMPLATE_FIELDS.some((field) => field in value)) return null;
  // An egg of a version Kiln does not know is refused, not read as a template by its `name`.
  if (isObject(value.meta) && /^(PTDL|PLCN)_v/.test(String(value.meta.version))) return null;
  if (looksLikeV1Template(value)) return "v1";
  if (looksLikeV3Template(value) && !hasKilnTemplateField(value)) return "v3";
  if (origin === "pufferpanel" || looksLikeV2Template(value) || looksLikeUnmarkedV2(value)) return "v2";
  return "kiln";
}

/** Read as 2.x only because its flags are unsaid (no marker, no PufferPanel repository): the editor asks first. */
export function isUnmarkedV2(value: unknown, origin: TemplateOrigin = "other"): boolean {
  return detectTemplateFormat(value, origin) === "v2" && origin !== "pufferpanel" && !looksLikeV2Template(value);
}

/** The source a template read as `format` records, unless it already names one. */
export function templateSource(format: TemplateFormat): TemplateSource {
  return format === "egg" ? "egg" : format === "kiln" ? "kiln" : "pufferpanel";
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
 * Throws ErrTemplateUnrecognised for what is no template, and ErrTemplateFieldInvalid for an egg
 * that cannot run (./egg says which field).
 */
export function importTemplate(value: unknown, { name, origin = "other" }: ImportOptions = {}): ImportedTemplate {
  const format = detectTemplateFormat(value, origin);
  const notes: ImportNote[] = [];
  if (format === null) throw new KilnError("ErrTemplateUnrecognised", {}, "not a Kiln or PufferPanel template, nor a Pterodactyl or Pelican egg");
  if (format === "kiln") return { format, template: value as Json, notes };
  // Which reading was taken, when nothing but the unsaid flags decided it.
  if (isUnmarkedV2(value, origin)) notes.push({ rule: "unmarkedV2", field: "data" });
  const converted =
    format === "egg" ? convertEgg(value, notes) : format === "v1" ? convertV1Template(value, name, notes) : format === "v3" ? convertV3Template(value, notes) : convertV2Template(value, notes);
  return { format, template: rewriteTemplateScripts(converted, notes), notes };
}
