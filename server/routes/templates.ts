// /api/templates (spec section 7 "Templates"): list, read, create or replace, delete.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireScope } from "../middleware/require";
import { deleteTemplate, getTemplate, listTemplates, putTemplate } from "../services/templates";

export function templateRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/api/templates", requireScope(SCOPES.templatesView), (c) => c.json(listTemplates(deps.db)));

  app.get("/api/templates/:id", requireScope(SCOPES.templatesView), (c) => c.json(getTemplate(deps.db, c.req.param("id"))));

  app.put("/api/templates/:id", requireScope(SCOPES.templatesEdit), async (c) => {
    let body: unknown;
    try {
      body = await c.req.json();
    } catch {
      throw new KilnError("ErrInvalidJson");
    }
    return c.json(putTemplate(deps.db, c.req.param("id"), body));
  });

  app.delete("/api/templates/:id", requireScope(SCOPES.templatesEdit), (c) => {
    deleteTemplate(deps.db, c.req.param("id"));
    return c.body(null, 204);
  });

  return app;
}
