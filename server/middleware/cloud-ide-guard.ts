// On a cloud development environment host, every request gets the warning page.
// Only the stylesheet and icon the warning page itself uses are served, so it is readable.
import type { MiddlewareHandler } from "hono";
import { isCloudIdeHost } from "../../core/net/cloud-ide";

export const cloudIdeGuard = (renderWarning: (c: Parameters<MiddlewareHandler>[0]) => Response | Promise<Response>): MiddlewareHandler =>
  async function cloudIdeGuard(c, next) {
    const host = c.req.header("x-forwarded-host") ?? c.req.header("host") ?? new URL(c.req.url).host;
    const isWarningAsset = c.req.method === "GET" && (/^\/assets\/[\w-]+\.css$/.test(c.req.path) || c.req.path === "/static/favicon.svg");
    if (isCloudIdeHost(host) && !isWarningAsset) return renderWarning(c);
    await next();
  };
