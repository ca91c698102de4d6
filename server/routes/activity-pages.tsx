// The Activity page (administrators) and the Webhooks pages with their forms. Each form posts,
// then redirects with a toast; a refusal shows on the page with what was typed kept.
import { Hono, type Context } from "hono";
import { KilnError } from "../../core/errors";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import { render } from "../render";
import { isHttps, setFlash } from "../cookies";
import { requirePageLogin, requireScope } from "../middleware/require";
import { readBody } from "../request";
import { screenPage } from "../paging";
import { listActivity } from "../services/activity/list";
import { Webhooks } from "../services/webhooks/store";
import { activityFilter } from "./activity";
import { ActivityPage, type ActivityQuery } from "../../views/pages/ActivityPage";
import { WebhooksPage, type WebhooksPageProps } from "../../views/pages/WebhooksPage";
import { WebhookPage } from "../../views/pages/WebhookPage";
import { errorMessageKey } from "../../core/errors/message-key";

const PAGE_SIZE = 25;

export function activityPageRoutes(deps: Deps) {
  const app = new Hono<KilnEnv>();
  const webhooks = new Webhooks(deps.db, { panelPort: deps.config.port });
  const say = (c: Context<KilnEnv>, error: KilnError) => c.get("t")(errorMessageKey(error.code, error.metadata), error.metadata);

  app.get("/activity", requirePageLogin(), requireScope("admin"), async (c) => {
    const q = (name: string) => c.req.query(name) ?? "";
    const query: ActivityQuery = { user: q("user"), server: q("server"), event: q("event"), since: q("since"), until: q("until") };
    const page = screenPage(c);
    try {
      const filter = activityFilter(c);
      // A date picked for "until" means the whole of that day.
      if (filter.until !== undefined && /^\d{4}-\d\d-\d\d$/.test(query.until)) filter.until += 86_400_000 - 1;
      const { events, total } = await listActivity(deps.db, c.get("user")!, { ...filter, page, limit: PAGE_SIZE });
      return render(c, deps, <ActivityPage events={events} page={page} pages={Math.max(1, Math.ceil(total / PAGE_SIZE))} query={query} />);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return render(c, deps, <ActivityPage events={[]} page={1} pages={1} query={query} error={say(c, error)} />, error.status);
    }
  });

  const listPage = async (c: Context<KilnEnv>, extra: Partial<WebhooksPageProps> = {}, status = 200) => {
    const user = c.get("user")!;
    const server = c.req.query("server") || null;
    return render(c, deps, <WebhooksPage webhooks={await webhooks.list(user)} servers={await webhooks.servers(user)} panelWide={await webhooks.isAdmin(user)} server={server} {...extra} />, status);
  };

  app.get("/webhooks", requirePageLogin(), async (c) => await listPage(c));

  app.post("/webhooks", requirePageLogin(), async (c) => {
    const body = await readBody(c);
    const values = { url: String(body.url ?? ""), events: String(body.events ?? ""), serverId: String(body.serverId ?? ""), format: String(body.format ?? "") };
    try {
      const created = await webhooks.create(c.get("user")!, {
        url: values.url,
        events: values.events.split(/[\s,]+/).filter(Boolean),
        serverId: values.serverId || null,
        ...(values.format ? { format: values.format } : {}),
        ...(body.secret ? { secret: String(body.secret) } : {}),
        allowInternal: body.allowInternal === "true",
      });
      // A secret the panel made is shown once, on this page; one the user typed they already have.
      if (created.secret) return await listPage(c, { created: { id: created.id, secret: created.secret } }, 201);
      setFlash(c, "webhooks.created", isHttps(c, deps.config.trustProxy));
      return c.redirect("/webhooks", 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await listPage(c, { error: say(c, error), values }, error.status);
    }
  });

  /** A change to one endpoint from its row's buttons: redirect with a toast, or the list with the refusal. */
  const rowForm = (work: (c: Context<KilnEnv>, id: number, body: Record<string, unknown>) => Promise<string> | string) => async (c: Context<KilnEnv>) => {
    const id = Number(c.req.param("id"));
    const body = await readBody(c);
    try {
      if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrNotFound", { id: c.req.param("id") ?? "" });
      setFlash(c, await work(c, id, body), isHttps(c, deps.config.trustProxy));
      return c.redirect("/webhooks", 303);
    } catch (error) {
      if (!(error instanceof KilnError)) throw error;
      return await listPage(c, { error: say(c, error) }, error.status);
    }
  };
  app.post("/webhooks/:id/test", requirePageLogin(), rowForm(async (c, id) => (await webhooks.sendTest(c.get("user")!, id), "webhooks.testQueued")));
  app.post("/webhooks/:id/enabled", requirePageLogin(), rowForm(async (c, id, body) => (await webhooks.update(c.get("user")!, id, { enabled: body.enabled === "true" }), body.enabled === "true" ? "webhooks.enabledToast" : "webhooks.disabledToast")));
  app.post("/webhooks/:id/delete", requirePageLogin(), rowForm(async (c, id) => (await webhooks.delete(c.get("user")!, id), "webhooks.deleted")));

  app.get("/webhooks/:id", requirePageLogin(), async (c) => {
    const id = Number(c.req.param("id"));
    if (!Number.isInteger(id) || id <= 0) throw new KilnError("ErrNotFound", { id: c.req.param("id") });
    const user = c.get("user")!;
    const page = screenPage(c);
    const { deliveries, total } = await webhooks.deliveries(user, id, page, PAGE_SIZE);
    return render(c, deps, <WebhookPage webhook={await webhooks.get(user, id)} deliveries={deliveries} page={page} pages={Math.max(1, Math.ceil(total / PAGE_SIZE))} />);
  });

  return app;
}
