// Builds the OpenAPI 3.1 document from OPERATIONS and the zod schemas the routes validate with.
import { z } from "../../core/zod";
import { OPERATIONS, API_SCHEMAS, METRICS_TOKEN } from "./operations";
import { ERROR_CODES } from "../../core/errors";

export function openApiDocument(version: string, brand: string): object {
  const paths: Record<string, Record<string, object>> = {};
  for (const op of OPERATIONS) {
    const params = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: "path", required: true, schema: { type: "string" } }));
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      summary: op.summary,
      "x-kiln-needs": op.needs,
      security: op.needs === "public" ? [] : op.needs === METRICS_TOKEN ? [{ metricsToken: [] }] : [{ bearer: [] }, { cookie: [] }],
      parameters: params.length > 0 ? params : undefined,
      requestBody: op.body ? { required: true, content: { "application/json": { schema: z.toJSONSchema(API_SCHEMAS[op.body]) } } } : undefined,
      responses: { "2XX": { description: "Success" }, default: { description: "Error", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } },
    };
  }
  return {
    openapi: "3.1.0",
    info: { title: `${brand} API`, version },
    paths,
    components: {
      securitySchemes: {
        bearer: { type: "http", scheme: "bearer", description: "A session token, or an access token from POST /oauth2/token" },
        cookie: { type: "apiKey", in: "cookie", name: "kiln" },
        metricsToken: { type: "http", scheme: "bearer", description: "The panel's metrics token (Settings → Metrics token), for GET /metrics only" },
      },
      schemas: {
        Error: {
          type: "object",
          properties: { error: { type: "object", properties: { code: { enum: ERROR_CODES }, msg: { type: "string" }, metadata: { type: "object" } }, required: ["code", "msg"] } },
        },
      },
    },
  };
}
