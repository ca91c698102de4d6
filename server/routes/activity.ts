// /api/activity and /api/servers/{id}/activity: the activity log as its reader may see it
// (services/activity/list), a page at a time, or every matching row as CSV (?format=csv).
import { Hono, type Context } from "hono";
import { stream } from "hono/streaming";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { paging, pagingAnswer } from "../paging";
import { allActivity, listActivity, type ActivityFilter } from "../services/activity/list";
import { activityCsvHeader, activityCsvRow } from "../services/activity/csv";

export function activityRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/activity", requireLogin());
  app.use("/api/servers/:id/activity", requireLogin());

  const answer = async (c: Context<KilnEnv>, serverId?: string) => {
    const filter = activityFilter(c, serverId);
    if (c.req.query("format") === "csv") {
      const rows = allActivity(deps.db, c.get("user")!, filter);
      c.header("content-type", "text/csv; charset=utf-8");
      c.header("content-disposition", `attachment; filename="kiln-activity.csv"`);
      return stream(c, async (out) => {
        await out.write(activityCsvHeader());
        for await (const row of rows) await out.write(activityCsvRow(row));
      });
    }
    const { page, limit } = paging(c);
    const { events, total } = await listActivity(deps.db, c.get("user")!, { ...filter, page, limit });
    return c.json({ events, paging: pagingAnswer(page, limit, total) });
  };
  app.get("/api/activity", async (c) => await answer(c));
  app.get("/api/servers/:id/activity", async (c) => await answer(c, c.req.param("id")));
  return app;
}

/** The filter a query asks for; a malformed one is a field error naming it. */
export function activityFilter(c: Context, serverId?: string): Omit<ActivityFilter, "page" | "limit"> {
  const q = (name: string) => {
    const value = c.req.query(name);
    return value === undefined || value === "" ? undefined : value;
  };
  const user = q("user");
  if (user !== undefined && !/^\d{1,12}$/.test(user)) throw new KilnError("ErrFieldNotBetween", { field: "user" });
  const server = serverId ?? q("server");
  if (server !== undefined && !/^[A-Za-z0-9_-]{1,64}$/.test(server)) throw new KilnError("ErrNotFound", { id: server });
  return { serverId: server, userId: user === undefined ? undefined : Number(user), event: q("event"), since: time(q("since"), "since"), until: time(q("until"), "until") };
}

/** An ISO date or date-time, or Unix milliseconds. */
function time(value: string | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const at = /^\d{1,15}$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(at)) throw new KilnError("ErrFieldNotBetween", { field });
  return at;
}
