// GET /theme/{name}.tar: the theme package the browser reads and applies.
import { Hono } from "hono";
import type { Deps } from "../deps";
import { sendAsset } from "./assets";

export function themeRoutes(deps: Deps) {
  const app = new Hono();
  app.get("/theme/:file", (c) => {
    const match = /^([a-z0-9-]+)\.tar$/.exec(c.req.param("file"));
    const theme = match ? deps.themes.get(match[1]) : undefined;
    return theme ? sendAsset(c, theme.tar, "public, max-age=3600, must-revalidate") : c.notFound();
  });
  return app;
}
