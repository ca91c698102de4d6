// /api/templates: list, read, create or replace, delete, and import
// from the template repositories.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireScope } from "../middleware/require";
import { deleteTemplate, getTemplate, listTemplates, storeTemplate } from "../services/templates";
import { importTemplate, listRepositories, repositoryListing } from "../services/templates/repositories";

export function templateRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/api/templates", requireScope(SCOPES.templatesView), async (c) => c.json(await listTemplates(deps.db)));

  // Listing reaches out to the repositories, so it is for those who may import.
  // POST answers as PufferPanel's does: the names that
  // POST /api/templates/import/{name} imports, each once, whichever repository has it.
  app.post("/api/templates/import", requireScope(SCOPES.templatesEdit), async (c) => {
    const names = (await listRepositories(deps.db, deps.config)).flatMap((repository) => repository.templates.map((t) => t.name));
    return c.json([...new Set(names)].sort());
  });

  // Kiln's richer listing: per repository, its templates with their details, and the error of a
  // repository that did not answer. (Not under /api/templates/{id}, where it would hide a
  // template of that name.) `?repository=` answers that one alone, waited for, so a client can
  // read each repository on its own and show the quick ones first.
  app.get("/api/templates/import/repositories", requireScope(SCOPES.templatesEdit), async (c) => {
    const one = c.req.query("repository");
    return c.json({ repositories: one ? [await repositoryListing(deps.db, one, deps.config)] : await listRepositories(deps.db, deps.config) });
  });

  /**
   * Body (optional): { repository, as } — `kiln` (the built-in library, the default) or a
   * repository URL from the settings; `as` stores it under another id, which must be free.
   */
  app.post("/api/templates/import/:name", requireScope(SCOPES.templatesEdit), async (c) => {
    const body = await c.req.json().catch(() => ({}));
    const text = (value: unknown) => (typeof value === "string" && value ? value : undefined);
    const repository = text(body?.repository) ?? text(c.req.query("repository"));
    const { template, format } = await importTemplate(deps.db, c.req.param("name"), { repository, as: text(body?.as) ?? text(c.req.query("as")), sources: deps.config });
    // The body stays the stored template (what PufferPanel's clients and Kiln's tests read); the
    // format it was read as is told beside it. The conversion's notes are shown by the editor.
    c.header("Kiln-Import-Format", format);
    return c.json(template);
  });

  app.get("/api/templates/:id", requireScope(SCOPES.templatesView), async (c) => c.json(await getTemplate(deps.db, c.req.param("id"))));

  app.put("/api/templates/:id", requireScope(SCOPES.templatesEdit), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new KilnError("ErrInvalidJson");
    }
    // As the import answers: the stored template, and the format it was read as beside it (an egg
    // or a PufferPanel template sent here is converted; the editor shows what changed).
    const { template, format } = await storeTemplate(deps.db, c.req.param("id"), body);
    c.header("Kiln-Import-Format", format);
    return c.json(template);
  });

  app.delete("/api/templates/:id", requireScope(SCOPES.templatesEdit), async (c) => {
    await deleteTemplate(deps.db, c.req.param("id"));
    return c.body(null, 204);
  });

  return app;
}
