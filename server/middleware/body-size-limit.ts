// The panel's own routes read their bodies whole (JSON, forms), so they are capped; file uploads
// through the daemon proxy and modpack uploads are streamed to the node (which caps what it
// writes) and are the exceptions.
import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { KilnError } from "../../core/errors";

export const MAX_PANEL_BODY_BYTES = 16 * 1024 * 1024;
const UPLOAD = /^\/proxy\/daemon\/server\/[^/]+\/file(\/|$)/;
const PACK_UPLOAD = /^\/api\/servers\/[^/]+\/modpacks\/uploads$|^\/server\/[^/]+\/mods\/packs\/upload$/;

export function bodySizeLimit(): MiddlewareHandler {
  const limit = bodyLimit({
    maxSize: MAX_PANEL_BODY_BYTES,
    onError: () => {
      throw new KilnError("ErrMessageTooLarge", { max: MAX_PANEL_BODY_BYTES });
    },
  });
  return (c, next) => ((c.req.method === "PUT" && UPLOAD.test(c.req.path)) || (c.req.method === "POST" && PACK_UPLOAD.test(c.req.path)) ? next() : limit(c, next));
}
