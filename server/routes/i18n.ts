// GET /i18n/messages?prefix=errors.: a slice of the caller's locale, for browser code that needs
// messages only on rare paths (error toasts, the error-details overlay).
import { Hono } from "hono";
import type { KilnEnv } from "../context";
import { pickMessages } from "../../locales/tables";

export function i18nRoutes() {
  const app = new Hono<KilnEnv>();
  app.get("/i18n/messages", (c) => {
    const prefixes = c.req.queries("prefix")?.filter((p) => /^[a-zA-Z]+\.$/.test(p)) ?? [];
    c.header("Cache-Control", "private, max-age=3600");
    c.header("Vary", "Cookie, Accept-Language");
    return c.json(prefixes.length > 0 ? pickMessages(c.get("locale"), prefixes) : {});
  });
  return app;
}
