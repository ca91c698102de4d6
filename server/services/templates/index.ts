// Templates: stored whole as JSON, validated with core/definition's schema on every write.
// The templates Kiln ships are added on the first start; later edits and deletions are kept.
import { recordEvent } from "../activity/record";
import { eq, count } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { assertNoReservedKeys, checkTemplateScripts, templateSchema, type Template } from "../../../core/definition";
import { TEMPLATE_ID } from "../../../core/definition/constants";
import { assertJsonDepth } from "../../../core/definition/json-depth";
import { templateFieldError } from "../../../core/definition/template-errors";
import { importTemplate, templateSource, type ImportedTemplate, type TemplateOrigin, type TemplateSource } from "../../../core/definition/import";

export interface TemplateSummary {
  id: string;
  name: string;
  display: string;
  type: string;
  /** where it came from; absent for a template stored before Kiln recorded it */
  source?: TemplateSource;
  /** the repository it was imported from, when it was */
  repository?: string;
}

export async function listTemplates(db: Db): Promise<TemplateSummary[]> {
  return (await db
    .select({ id: schema.templates.id, display: schema.templates.display, type: schema.templates.type, definition: schema.templates.definition })
    .from(schema.templates)
    .orderBy(schema.templates.display)
    .all())
    .map(({ definition, ...t }) => {
      const { source, repository } = (definition ?? {}) as { source?: TemplateSource; repository?: string };
      return { ...t, name: t.id, ...(source ? { source } : {}), ...(repository ? { repository } : {}) };
    });
}

/** Every stored template, whole, in one read (for a service that looks for templates by what they install). */
export async function allTemplates(db: Db): Promise<(Template & { id: string })[]> {
  return (await db.select().from(schema.templates).orderBy(schema.templates.id).all()).map((row) => ({ ...(row.definition as Template), id: row.id, name: row.id }));
}

export async function getTemplate(db: Db, id: string): Promise<Template & { id: string }> {
  const row = await db.select().from(schema.templates).where(eq(schema.templates.id, id)).get();
  if (!row) throw new KilnError("ErrNoTemplate", { name: id });
  return { ...(row.definition as Template), id: row.id, name: row.id };
}

/**
 * Validates and stores a whole template under `id` (created or replaced). A template in one of
 * PufferPanel's formats is converted first (core/definition/import), so it keeps its meaning.
 */
export async function putTemplate(db: Db, id: string, input: unknown): Promise<Template & { id: string }> {
  return (await storeTemplate(db, id, input)).template;
}

/**
 * putTemplate, answering also the format the template was read as and the conversion's notes;
 * `origin` says whether it came from a PufferPanel repository (an unmarked template is then 2.x).
 * The template's `source` is recorded unless it names one: `source` when given (the library's
 * templates are Kiln's), else what its format says (an egg, PufferPanel's, Kiln's).
 */
export async function storeTemplate(db: Db, id: string, input: unknown, origin?: TemplateOrigin, source?: TemplateSource, repository?: string): Promise<Omit<ImportedTemplate, "template"> & { template: Template & { id: string } }> {
  if (!TEMPLATE_ID.test(id)) throw new KilnError("ErrFieldHasURICharacters", { field: "id" });
  assertJsonDepth(input);
  assertNoReservedKeys(input);
  const { format, template, notes } = importTemplate(input, { name: id, origin });
  const parsed = templateSchema.safeParse({ source: source ?? templateSource(format), ...template, ...(repository ? { repository } : {}) });
  // The answer names the field and what would be accepted there, so the caller can put it right.
  if (!parsed.success) throw templateFieldError(parsed.error);
  // A script takes variables from its environment: spliced into its text, a value could run as code.
  checkTemplateScripts(parsed.data);
  const { id: _ignored, ...definition } = { ...parsed.data, name: id };
  const values = { display: definition.display || id, type: definition.type, definition, updatedAt: new Date() };
  await db.insert(schema.templates).values({ id, ...values }).onConflictDoUpdate({ target: schema.templates.id, set: values }).run();
  // Saved by hand or brought in from a file or repository (then its format or repository is named).
  if (repository || origin || format !== "kiln") await recordEvent(db, "template.imported", { properties: { name: id, source: repository ?? format } });
  else await recordEvent(db, "template.saved", { properties: { name: id } });
  return { format, notes, template: await getTemplate(db, id) };
}

export async function deleteTemplate(db: Db, id: string): Promise<void> {
  await getTemplate(db, id);
  await db.delete(schema.templates).where(eq(schema.templates.id, id)).run();
  await recordEvent(db, "template.deleted", { properties: { name: id } });
}

/**
 * The templates a new panel starts with: a few common ones, so a server can be made at once; the
 * rest of the library is a click away in the import dialog.
 */
export const STARTER_TEMPLATES: readonly string[] = ["minecraft-vanilla", "minecraft-fabric", "valheim", "nodejs-app", "python-app"];

/** On the first start (no template stored yet), the given templates are added. */
export async function seedTemplates(db: Db, shipped: ReadonlyArray<{ name: string }>): Promise<number> {
  const [{ n }] = (await db.select({ n: count() }).from(schema.templates).all()) as [{ n: number }];
  if (n > 0) return 0;
  for (const template of shipped) await storeTemplate(db, template.name, template, undefined, "kiln", "kiln");
  return shipped.length;
}
