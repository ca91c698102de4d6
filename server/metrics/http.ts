// The panel's HTTP figures for /metrics: requests by route pattern (Hono's matched route, never
// the URL: a path holds ids, and every distinct label set is a series Prometheus keeps), method
// and status, and a latency histogram by route. Counting costs one Map look-up per request and
// no allocation: the route's figures are made the first time it answers, the count for a
// method and status is a number under a number key, the bucket counts a typed array.
import type { Context } from "hono";
import { HonoRequest } from "hono/request";
import { labelText, type Exposition } from "./exposition";

/** Upper bounds in seconds: a cached page answers in a millisecond, a node's slow answer in seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const;
const METHODS = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "other"] as const;
/** Route label of a request no route answered (the not-found handler's redirect or 404). */
export const UNMATCHED_ROUTE = "unmatched";

class RouteFigures {
  /** By METHODS index × 1000 + status. */
  readonly counts = new Map<number, number>();
  /** Per bucket (not cumulative); the last one is above the highest bound. */
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1);
  sum = 0;
  count = 0;
}

/**
 * Hono keeps the routes a request matched behind a symbol its `hono/route` helpers read; those
 * helpers map them to a new array on every call. The symbol is the only one on HonoRequest's
 * prototype, read once here (hono is pinned; if that changes, every route in test/metrics.test.ts
 * comes out "unmatched" and it fails).
 */
const MATCH_RESULT = Object.getOwnPropertySymbols(HonoRequest.prototype)[0];
type MatchResult = [[[unknown, { path: string; method: string }], unknown][]];

const generic = (route: { path: string; method: string }) => route.method === "ALL" && (route.path === "*" || route.path === "/*");

/**
 * The pattern of the route that answered (the last one dispatched). When that is middleware (a
 * same-origin refusal, a login guard), the route the request was headed for: middleware is
 * registered for every method, so the first route for one method from there on. When only
 * middleware and routes for every method matched (the daemon proxy's), the first of them that
 * names a path; when nothing did (the not-found handler answered), UNMATCHED_ROUTE.
 */
export function answeringRoute(c: Context): string {
  const matched = MATCH_RESULT ? (c.req as unknown as Record<symbol, MatchResult | undefined>)[MATCH_RESULT]?.[0] : undefined;
  if (!matched) return UNMATCHED_ROUTE;
  let named: string | undefined;
  for (let i = c.req.routeIndex; i < matched.length; i++) {
    const route = matched[i]![0][1];
    if (route.method !== "ALL") return route.path;
    if (named === undefined && !generic(route)) named = route.path;
  }
  return named ?? UNMATCHED_ROUTE;
}

export class HttpMetrics {
  private readonly routes = new Map<string, RouteFigures>();

  /** Counts an answered request, timed from `started` (performance.now() when it came in). */
  answered(c: Context, started: number): void {
    this.record(answeringRoute(c), c.req.method, c.res.status, (performance.now() - started) / 1000);
  }

  record(route: string, method: string, status: number, seconds: number): void {
    let figures = this.routes.get(route);
    if (!figures) this.routes.set(route, (figures = new RouteFigures()));
    let index = METHODS.indexOf(method as (typeof METHODS)[number]);
    if (index < 0) index = METHODS.length - 1;
    const key = index * 1000 + (status >= 100 && status <= 999 ? status : 0);
    figures.counts.set(key, (figures.counts.get(key) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    figures.buckets[bucket]!++;
    figures.sum += seconds;
    figures.count++;
  }

  write(out: Exposition): void {
    out.family({ name: "kiln_http_requests", type: "counter", help: "HTTP requests the panel answered, by route pattern, method and status code." });
    for (const [route, figures] of this.routes) {
      for (const [key, count] of figures.counts) {
        out.sample("kiln_http_requests_total", labelText([["route", route], ["method", METHODS[Math.floor(key / 1000)]!], ["code", String(key % 1000)]]), count);
      }
    }
    out.family({ name: "kiln_http_request_duration_seconds", type: "histogram", unit: "seconds", help: "Time from a request's arrival to its answer's headers, by route pattern." });
    for (const [route, figures] of this.routes) {
      let cumulative = 0;
      for (let i = 0; i <= LATENCY_BUCKETS.length; i++) {
        cumulative += figures.buckets[i]!;
        const le = i < LATENCY_BUCKETS.length ? String(LATENCY_BUCKETS[i]) : "+Inf";
        out.sample("kiln_http_request_duration_seconds_bucket", labelText([["route", route], ["le", le]]), cumulative);
      }
      const labels = labelText([["route", route]]);
      out.sample("kiln_http_request_duration_seconds_sum", labels, figures.sum);
      out.sample("kiln_http_request_duration_seconds_count", labels, figures.count);
    }
  }
}
