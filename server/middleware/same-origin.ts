// State-changing requests carried by the cookie alone must come from the panel's own pages.
// Bearer-authenticated API clients are not browsers and are not subject to this (a page of
// another site cannot set an Authorization header without a CORS preflight, which the panel
// never grants). Whether a request comes from our pages is decided in ./origin, the same
// decision the live socket uses.
import type { MiddlewareHandler } from "hono";
import { KilnError } from "../../core/errors";
import { isSameOrigin } from "./origin";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export const sameOrigin = (trustProxy: boolean): MiddlewareHandler =>
  async function sameOrigin(c, next) {
    if (SAFE.has(c.req.method) || /^Bearer\s/i.test(c.req.header("authorization") ?? "")) return next();
    // "none" is the user's own doing (typed address, bookmark); anything else but same-origin is another site.
    const fetchSite = c.req.header("sec-fetch-site");
    if (fetchSite && fetchSite !== "same-origin" && fetchSite !== "none") throw new KilnError("ErrNoPermission", { reason: "cross-site" });
    if (!isSameOrigin(c, trustProxy)) throw new KilnError("ErrNoPermission", { reason: "cross-origin" });
    await next();
  };
