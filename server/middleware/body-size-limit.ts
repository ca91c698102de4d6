// The panel's own routes read their bodies whole (JSON, forms), so they are capped; file uploads
// through the daemon proxy and modpack uploads are streamed to the node (which caps what it
// writes) and are the exceptions.
import type { Context, Next } from "hono";
import { bodyLimit } from "hono/body-limit";
import { KilnError } from "../../core/errors";

export const MAX_PANEL_BODY_BYTES = 16 * 1024 * 1024;
const UPLOAD = /^\/proxy\/daemon\/server\/[^/]+\/file(\/|$)/;
const PACK_UPLOAD = /^\/api\/servers\/[^/]+\/modpacks\/uploads$|^\/server\/[^/]+\/mods\/packs\/upload$/;

const limit = bodyLimit({
  maxSize: MAX_PANEL_BODY_BYTES,
  onError: () => {
    throw new KilnError("ErrMessageTooLarge", { max: MAX_PANEL_BODY_BYTES });
  },
});

/** Goes on to `next` with the request's body capped (whatever its method), unless it is a streamed upload. */
export function limitBody(c: Context, next: Next): Promise<void | Response> {
  const { method } = c.req;
  if ((method === "PUT" && UPLOAD.test(c.req.path)) || (method === "POST" && PACK_UPLOAD.test(c.req.path))) return next();
  return limit(c, next);
}
