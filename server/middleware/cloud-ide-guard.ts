// Spec section 1: on a cloud development environment host, every request gets the warning page.
import type { MiddlewareHandler } from "hono";
import { isCloudIdeHost } from "../../core/net/cloud-ide";

export const cloudIdeGuard = (renderWarning: (c: Parameters<MiddlewareHandler>[0]) => Response | Promise<Response>): MiddlewareHandler =>
  async function cloudIdeGuard(c, next) {
    const host = c.req.header("x-forwarded-host") ?? c.req.header("host") ?? new URL(c.req.url).host;
    if (isCloudIdeHost(host)) return renderWarning(c);
    await next();
  };
