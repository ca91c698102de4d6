// GET /api/openapi.json and the /api/docs page that shows it.
import { Hono } from "hono";
import { z } from "../../core/zod";
import pkg from "../../package.json";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render, brandName } from "../render";
import { OPERATIONS, API_SCHEMAS } from "../api-docs/operations";
import { openApiDocument } from "../api-docs/openapi";
import { ApiDocsPage } from "../../views/pages/ApiDocsPage";

export function apiDocsRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.get("/api/openapi.json", async (c) => c.json(openApiDocument(pkg.version, await brandName(deps))));
  app.get("/api/docs", (c) => {
    const schemas = Object.fromEntries(Object.entries(API_SCHEMAS).map(([name, schema]) => [name, z.toJSONSchema(schema)]));
    return render(c, deps, <ApiDocsPage operations={OPERATIONS} schemas={schemas} />);
  });
  return app;
}
