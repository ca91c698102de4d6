// /api/webhooks: endpoints for events, their deliveries and a test send (services/webhooks/store
// decides who may manage which).
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { requireLogin } from "../middleware/require";
import { readBody } from "../request";
import { paging, pagingAnswer } from "../paging";
import { Webhooks } from "../services/webhooks/store";

export function webhookRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  app.use("/api/webhooks/*", requireLogin());
  const webhooks = new Webhooks(deps.db, { panelPort: deps.config.port });
  const id = (c: Context<KilnEnv>) => {
    const raw = c.req.param("id") ?? "";
    if (!/^\d{1,12}$/.test(raw)) throw new KilnError("ErrNotFound", { id: raw });
    return Number(raw);
  };

  app.get("/api/webhooks", async (c) => c.json({ webhooks: await webhooks.list(c.get("user")!, c.req.query("server") || undefined) }));
  app.post("/api/webhooks", async (c) => c.json(await webhooks.create(c.get("user")!, await readBody(c)), 201));
  app.get("/api/webhooks/:id", async (c) => c.json(await webhooks.get(c.get("user")!, id(c))));
  app.put("/api/webhooks/:id", async (c) => c.json(await webhooks.update(c.get("user")!, id(c), await readBody(c))));
  app.delete("/api/webhooks/:id", async (c) => {
    await webhooks.delete(c.get("user")!, id(c));
    return c.body(null, 204);
  });
  app.post("/api/webhooks/:id/test", async (c) => c.json(await webhooks.sendTest(c.get("user")!, id(c)), 202));
  app.get("/api/webhooks/:id/deliveries", async (c) => {
    const { page, limit } = paging(c);
    const { deliveries, total } = await webhooks.deliveries(c.get("user")!, id(c), page, limit);
    return c.json({ deliveries, paging: pagingAnswer(page, limit, total) });
  });
  return app;
}
