// POST /oauth2/token: the client_credentials grant (RFC 6749 section 4.4). The client proves
// itself by HTTP Basic auth or by client_id and client_secret in the form body.
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { clientAddress } from "../request";
import { requestToken } from "../services/oauth2";
import { KilnError } from "../../core/errors";

/**
 * The client id and secret from an HTTP Basic header (form-urlencoded inside, RFC 6749 section
 * 2.3.1); null when there is none. A header that is there but cannot be read is "invalid".
 */
function basicCredentials(header: string | undefined): [string, string] | null | "invalid" {
  if (header === undefined || !/^Basic(\s|$)/i.test(header)) return null;
  const match = /^Basic\s+([A-Za-z0-9+/]+=*)$/i.exec(header);
  if (!match) return "invalid";
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return "invalid";
  try {
    return [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
  } catch {
    return "invalid";
  }
}

export function oauth2TokenRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.post("/oauth2/token", async (c) => {
    // RFC 6749 errors have their own shape; responses must not be cached (section 5.1).
    c.header("Cache-Control", "no-store");
    const form = await c.req.parseBody().catch(() => ({}) as Record<string, unknown>);
    if (form.grant_type !== "client_credentials") return c.json({ error: "unsupported_grant_type" }, 400);
    const basic = basicCredentials(c.req.header("authorization"));
    if (basic === "invalid") return c.json({ error: "invalid_request", error_description: "the Basic authorization header cannot be read" }, 400);
    const [id, secret] = basic ?? [form.client_id, form.client_secret];
    try {
      return c.json(await requestToken(deps.db, deps.throttle, clientAddress(c, deps.config.trustProxy), id, secret));
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      if (error.code === "ErrTooManyRequests") return c.json({ error: "invalid_client", error_description: "too many attempts" }, 429);
      return c.json({ error: "invalid_client" }, 401, { "WWW-Authenticate": 'Basic realm="kiln"' });
    }
  });
  return app;
}
