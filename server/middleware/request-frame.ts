// What every request passes before its route and after it, in this order, as two Hono middleware
// levels of plain calls: each level costs Hono a promise and a closure per request, and eight of
// them (one per concern) were about a fifth of the public config's time (docs/benchmarks.md).
//   outer, after the answer: a session cookie sent twice cleared, the security headers, then the /metrics figures (timing all of it),
//   and a HEAD's whole answer kept (core/http/head);
//   inner: the locale; a Host that is no host refused; the cloud-IDE warning; the caller; then, with the caller as the activity
//   actor, the same-origin rule, the body cap, the route, and the open sockets' recheck.
// Two levels, not one: a refusal thrown by the inner steps becomes the error page at the inner
// level (Hono's compose), and the outer one still sets its headers on that page and counts it.
import type { Context, MiddlewareHandler } from "hono";
import type { KilnEnv } from "../context";
import type { Deps } from "../deps";
import type { HttpMetrics } from "../metrics";
import { withRequestActor } from "../services/activity/actor";
import { clientAddress } from "../request";
import { setSecurityHeaders } from "./security-headers";
import { keepHeadAnswer } from "../../core/http/head";
import { localizeRequest } from "./localize";
import { getsCloudIdeWarning } from "./cloud-ide-guard";
import { identifyCaller } from "./authenticate";
import { clearRepeatedSessionCookies } from "./session-cookie";
import { checkSameOrigin } from "./same-origin";
import { limitBody } from "./body-size-limit";
import { recheckSocketsAfter } from "./recheck-sockets";
import { assertValidHost } from "../../core/http/request-host";

export function requestFrame(deps: Deps, http: HttpMetrics, cloudIdeWarning: (c: Context<KilnEnv>) => Response | Promise<Response>): MiddlewareHandler<KilnEnv>[] {
  const { db } = deps;
  const { trustProxy } = deps.config;

  const outer: MiddlewareHandler<KilnEnv> = async function answerOut(c, next) {
    const started = performance.now();
    await next();
    // On every answer, a refusal or an error page included: the planted copies must go whatever answered.
    clearRepeatedSessionCookies(c, trustProxy);
    setSecurityHeaders(c);
    http.answered(c, started);
    keepHeadAnswer(c.req.raw, c.res);
  };

  const inner: MiddlewareHandler<KilnEnv> = async function admitIn(c, next) {
    localizeRequest(c);
    // Before any step reads the request's address (a login made its session, then failed to set its cookie).
    assertValidHost(c.req.url);
    if (getsCloudIdeWarning(c)) return cloudIdeWarning(c);
    const user = await identifyCaller(c, db);
    // Whatever the request changes is recorded with this caller and address (services/activity).
    await withRequestActor(db, user, () => clientAddress(c, trustProxy), async () => {
      checkSameOrigin(c, trustProxy);
      await limitBody(c, next);
      await recheckSocketsAfter(c, db);
    });
  };

  return [outer, inner];
}
