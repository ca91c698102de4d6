// GET /api/servers/live?ids=a,b,c (issue 19, capability 12): the live values of the servers on the
// list page the caller is looking at, in one call the list's island polls. Each id must be a
// server the caller may see (others are left out, so a list that outlived an access change keeps
// working); CPU and memory only where they may see stats. Mounted before /api/servers/:id.
import { Hono } from "hono";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { MAX_PAGE_SIZE } from "../paging";
import { allows, serverAccess, type ServerAccess } from "../services/servers";
import { liveValues } from "../services/servers/live-values";
import { schema } from "../../db";
import { and, eq, inArray } from "drizzle-orm";

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
    const rows = wanted.length === 0 ? [] : deps.db.select({ id: schema.servers.id, nodeId: schema.servers.nodeId }).from(schema.servers).where(and(inArray(schema.servers.id, wanted), eq(schema.servers.state, "ready"))).all();
    const user = c.get("user")!;
    const access = new Map<string, ServerAccess>();
    for (const row of rows) {
      const a = serverAccess(deps.db, user, row.id);
      if (allows(a, "view")) access.set(row.id, a);
    }
    const visible = rows.filter((row) => access.has(row.id));
    return c.json({ servers: await liveValues(deps.db, visible, (id) => allows(access.get(id)!, "viewServerStats")) });
  });

  return app;
}
