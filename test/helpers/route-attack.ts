// One request of an attack on a route, sent as the panel's own page sends it (a form post with the
// panel's origin, or a GET of the page), and what it must not have done: be answered other than
// refused, ask the node (test/helpers/node-recorder), or change a row of the panel's database.
import type { PanelWithNode } from "./panel-node";
import type { NodeRecorder } from "./node-recorder";
import { everyRow } from "./every-row";

export interface RouteAttacker {
  who: string;
  /** A session cookie's token, or `headers` carrying a bearer token. */
  token?: string;
  headers?: Record<string, string>;
}

export interface RouteAttempt {
  method: string;
  url: string;
  /** The fields a form post carries. */
  fields: Record<string, string>;
  /** Statuses that count as refused. */
  refused: readonly number[];
  /** Headers a GET adds (a socket door's upgrade). */
  getHeaders?: Record<string, string>;
}

/** What the attempt did that it must not: an empty list when it was refused and changed nothing. */
export async function attackRoute(ctx: PanelWithNode, recorder: NodeRecorder, attacker: RouteAttacker, attempt: RouteAttempt): Promise<string[]> {
  const before = await everyRow(ctx.panel.db);
  recorder.reached.length = 0;
  const form = attempt.method !== "GET";
  const res = await ctx.panel.request(attempt.url, {
    method: attempt.method,
    token: attacker.token,
    // Sent as the panel's own page sends a form, so only the caller's rights can refuse it.
    headers: { ...attacker.headers, ...(form ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", "sec-fetch-site": "same-origin", accept: "text/html" } : { accept: "text/html", ...attempt.getHeaders }) },
    body: form ? new URLSearchParams(attempt.fields).toString() : undefined,
  });
  await res.arrayBuffer();
  const said = `${attacker.who}: ${attempt.method} ${attempt.url}`;
  const found: string[] = [];
  if (!attempt.refused.includes(res.status)) found.push(`${said} → ${res.status}`);
  if (recorder.reached.length > 0) found.push(`${said} asked the node: ${recorder.reached.join(", ")}`);
  if (!Bun.deepEquals(await everyRow(ctx.panel.db), before)) found.push(`${said} changed the database`);
  return found;
}
