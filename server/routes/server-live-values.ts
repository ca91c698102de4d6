// GET /api/servers/live?ids=a,b,c: the live values of the servers on the
// list page the caller is looking at, in one call the list's island polls. Each id must be a
// server the caller may see (others are left out, so a list that outlived an access change keeps
// working); CPU and memory only where they may see stats. Mounted before /api/servers/:id.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { MAX_PAGE_SIZE } from "../paging";
import { visibleLiveValues } from "../services/servers/live-values";

/** A server id as Kiln makes them (8 hex digits); anything else names no server. */
const SERVER_ID = /^[0-9a-f]{8}$/;

export function serverLiveValueRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();

  app.get("/api/servers/live", requireLogin(), async (c) => {
    const raw = c.req.query("ids");
    if (!raw) throw new KilnError("ErrFieldRequired", { field: "ids" });
    const ids = [...new Set(raw.split(","))];
    if (ids.length > MAX_PAGE_SIZE) throw new KilnError("ErrFieldTooLarge", { field: "ids", max: MAX_PAGE_SIZE });
    const wanted = ids.filter((id) => SERVER_ID.test(id));
    return c.json({ servers: await visibleLiveValues(deps.db, c.get("user")!, wanted) });
  });

  return app;
}
