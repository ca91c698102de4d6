// The template screens: list with the import dialog, add, edit and delete. The
// editor saves through /api/templates; the forms here are the script-free path and the import
// buttons, writing through the same services.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES, hasScope } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { deleteTemplate, getTemplate, listTemplates, putTemplate } from "../services/templates";
import { importTargets, importTemplate, listRepositoriesWithin, repositoryListing, repositoryUrls, LIBRARY_ID } from "../services/templates/repositories";
import { stashImportNotes, stashedImportNotes } from "../services/templates/import-notes-stash";
import { TemplatesPage } from "../../views/pages/templates/TemplatesPage";
import { TemplatePage } from "../../views/pages/templates/TemplatePage";
import { RepositorySection } from "../../views/pages/templates/RepositorySection";
import { errorMessageKey } from "../../core/errors/message-key";

/**
 * How long the import dialog waits for the repositories before it is sent: one that has not
 * answered by then shows as loading and fills in on its own (the library is always there).
 */
const IMPORT_WAIT_MS = 2_000;

/** What a new template starts as: one standard environment, nothing else. */
const EMPTY_TEMPLATE = { display: "", type: "", install: [], run: { command: "", stop: "stop" }, data: {}, environment: { type: "standard" }, supportedEnvironments: [{ type: "standard" }] };

export function templatePageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const canEdit = (c: Context<KilnEnv>) => hasScope(c.get("user")!.scopes, SCOPES.templatesEdit);
  const message = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);
  const flash = (c: Context<KilnEnv>, key: string) => setFlash(c, key, isHttps(c, deps.config.trustProxy));
  const view = requireScope(SCOPES.templatesView);
  const edit = requireScope(SCOPES.templatesEdit);

  /** The import dialog's content: every repository (quick ones whole, slow ones pending), or the one asked for, waited for. */
  const importDialog = async (c: Context<KilnEnv>) => {
    const query = (c.req.query("q") ?? "").trim().slice(0, 200);
    const asked = c.req.query("repository") || undefined;
    const known = [LIBRARY_ID, ...await repositoryUrls(deps.db)];
    const repository = asked && known.includes(asked) ? asked : undefined;
    const repositories = repository ? [await repositoryListing(deps.db, repository, deps.config)] : await listRepositoriesWithin(deps.db, IMPORT_WAIT_MS, deps.config);
    const choices = known.map((id) => ({ id, name: id === LIBRARY_ID ? c.get("t")("templates.library") : id }));
    return { repositories, targetOf: importTargets(await listTemplates(deps.db)), query, repository, choices };
  };

  const listPage = async (c: Context<KilnEnv>, withImport: boolean, error?: string, status = 200) =>
    render(
      c,
      deps,
      <TemplatesPage templates={await listTemplates(deps.db)} canEdit={canEdit(c)} importDialog={withImport && canEdit(c) ? await importDialog(c) : undefined} error={error} />,
      status as 200,
    );

  app.get("/template", requirePageLogin(), view, (c) => listPage(c, c.req.query("import") !== undefined));

  // One repository's section of the import dialog, waited for: the dialog's script puts it in
  // place of a repository that was still loading when the dialog was sent.
  app.get("/template/import/section", requirePageLogin(), edit, async (c) => {
    const repo = await repositoryListing(deps.db, c.req.query("repository") ?? "", deps.config);
    const targetOf = importTargets(await listTemplates(deps.db));
    return render(c, deps, <RepositorySection repo={repo} query={(c.req.query("q") ?? "").trim().slice(0, 200)} targetOf={(offerId) => targetOf(repo, offerId)} />);
  });

  app.post("/template/import/:name", requirePageLogin(), edit, async (c) => {
    const form = await c.req.parseBody();
    const name = c.req.param("name");
    const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
    let imported: Awaited<ReturnType<typeof importTemplate>>;
    try {
      imported = await importTemplate(deps.db, name, { repository: text(form.repository), as: text(form.as), sources: deps.config });
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return listPage(c, true, message(c, error), error.status);
    }
    const { format, notes } = imported;
    const id = imported.template.id;
    flash(c, format === "egg" ? "templates.importedEgg" : format !== "kiln" ? "templates.importedConverted" : "templates.imported");
    // A converted template's page lists what the conversion changed, once.
    const query = format === "kiln" ? "" : `?imported=${await stashImportNotes(deps.db, { id, format, notes })}`;
    return c.redirect(`/template/${encodeURIComponent(id)}${query}`, 303);
  });

  interface Shown {
    /** the catalogue message of a refused save */
    error?: string;
    status?: number;
    /** the text as posted, when it was not JSON (shown as typed, with where it breaks) */
    text?: string;
    /** the name typed on Add, shown again */
    name?: string;
  }
  const editorPage = async (c: Context<KilnEnv>, templateId: string | undefined, template: object, shown: Shown = {}) => {
    const display = templateId === undefined ? undefined : (await getTemplate(deps.db, templateId)).display;
    const stashed = templateId === undefined ? undefined : await stashedImportNotes(deps.db, c.req.query("imported"), templateId);
    return render(
      c,
      deps,
      <TemplatePage templateId={templateId} display={display} template={template} text={shown.text} name={shown.name} canEdit={canEdit(c)} error={shown.error} imported={stashed && { format: stashed.format, notes: stashed.notes }} />,
      (shown.status ?? 200) as 200,
    );
  };
  const refused = (c: Context<KilnEnv>, error: unknown, text: string, value: unknown): Shown => {
    if (!(error instanceof KilnError)) throw error;
    return { error: message(c, error), status: error.status, text: value === undefined ? text : undefined };
  };

  /** The template as stored, without the id the API adds (it is the URL, not part of the template). */
  const stored = async (id: string) => {
    const { id: _id, ...template } = await getTemplate(deps.db, id);
    return template;
  };

  /** A posted JSON text, or the error to show with it. */
  const postedTemplate = async (c: Context<KilnEnv>): Promise<{ name: string; text: string; value?: unknown }> => {
    const form = await c.req.parseBody();
    const text = typeof form.template === "string" ? form.template : "";
    const name = typeof form.name === "string" ? form.name.trim() : "";
    try {
      return { name, text, value: JSON.parse(text) };
    } catch {
      return { name, text };
    }
  };

  app.get("/addtemplate", requirePageLogin(), edit, async (c) => await editorPage(c, undefined, EMPTY_TEMPLATE));
  app.post("/addtemplate", requirePageLogin(), edit, async (c) => {
    const { name, text, value } = await postedTemplate(c);
    const shown = (value && typeof value === "object" ? value : EMPTY_TEMPLATE) as object;
    // Add never replaces: a stored template of that name is edited on its own screen.
    if ((await listTemplates(deps.db)).some((t) => t.id === name)) {
      return await editorPage(c, undefined, shown, { error: c.get("t")("templates.nameTaken", { name }), status: 409, name });
    }
    try {
      if (value === undefined) throw new KilnError("ErrInvalidJson");
      await putTemplate(deps.db, name, value);
    } catch (error) {
      return await editorPage(c, undefined, shown, { ...refused(c, error, text, value), name });
    }
    flash(c, "templates.saved");
    return c.redirect(`/template/${encodeURIComponent(name)}`, 303);
  });

  app.get("/template/:id", requirePageLogin(), view, async (c) => await editorPage(c, c.req.param("id"), await stored(c.req.param("id"))));
  app.post("/template/:id", requirePageLogin(), edit, async (c) => {
    const id = c.req.param("id");
    // The edit screen edits what is stored: a template deleted meanwhile is not made again.
    await getTemplate(deps.db, id);
    const { text, value } = await postedTemplate(c);
    try {
      if (value === undefined) throw new KilnError("ErrInvalidJson");
      await putTemplate(deps.db, id, value);
    } catch (error) {
      return await editorPage(c, id, value && typeof value === "object" ? value : await stored(id), refused(c, error, text, value));
    }
    flash(c, "templates.saved");
    return c.redirect(`/template/${encodeURIComponent(id)}`, 303);
  });

  app.post("/template/:id/delete", requirePageLogin(), edit, async (c) => {
    await deleteTemplate(deps.db, c.req.param("id"));
    flash(c, "templates.deleted");
    return c.redirect("/template", 303);
  });

  return app;
}
