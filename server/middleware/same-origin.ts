// State-changing requests carried by the cookie alone must come from the panel's own pages.
// Bearer-authenticated API clients are not browsers and are not subject to this.
import type { MiddlewareHandler } from "hono";
import { KilnError } from "../../core/errors";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export const sameOrigin = (): MiddlewareHandler =>
  async function sameOrigin(c, next) {
    if (SAFE.has(c.req.method) || /^Bearer\s/i.test(c.req.header("authorization") ?? "")) return next();
    const fetchSite = c.req.header("sec-fetch-site");
    if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") throw new KilnError("ErrNoPermission", { reason: "cross-site" });
    const origin = c.req.header("origin");
    if (origin && origin !== "null") {
      const host = c.req.header("x-forwarded-host") ?? c.req.header("host");
      if (new URL(origin).host !== host) throw new KilnError("ErrNoPermission", { reason: "cross-origin" });
    }
    await next();
  };
