// A login through a provider keeps a row (sso_flows) from its start until its callback, or until
// its password step is given: ten minutes at most (FLOW_TTL_MS). A login abandoned at the provider
// (a closed tab, a script starting logins under the per-address share) leaves its row behind, and
// lapsed rows were dropped only when someone began another login: a panel nobody signs in to
// through a provider, for months, kept every one. They now go with the hourly expiry purge that one
// panel of several runs under the lease "expiry-purge" (purgeExpired, what server/cli/panel.ts
// runs), with the sessions and one-time values that lapsed; fresh flows stay for their callback.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { schema, type Db } from "../../db";
import { purgeExpired } from "../../server/services/cluster/expiry-purge";
import { FLOW_TTL_MS } from "../../server/services/sso/flow";
import { openTestDatabase } from "../helpers/database";

let db: Db;
beforeAll(async () => {
  db = await openTestDatabase();
});
afterAll(async () => {
  await db?.$kiln.close();
});

test("the expiry purge drops lapsed login flows and password steps, and keeps the ones still waiting", async () => {
  const now = Date.now();
  const flow = (state: string, createdAt: number, pending = false) => ({ state, providerId: "idp", nonce: "n", codeVerifier: "v", next: "/", createdAt, ...(pending ? { pendingSubject: "alice", pendingUserId: 1, nonce: "", codeVerifier: "" } : {}) });
  await db.insert(schema.ssoFlows).values([
    flow("abandoned", now - FLOW_TTL_MS - 60_000),
    flow("abandoned-long-ago", now - 90 * 24 * 60 * 60_000),
    flow("step-never-given", now - FLOW_TTL_MS - 1, true),
    flow("at-the-provider", now - 60_000),
    flow("step-open", now - FLOW_TTL_MS + 60_000, true),
  ]).run();
  await purgeExpired(db, now);
  const left = (await db.select({ state: schema.ssoFlows.state }).from(schema.ssoFlows).all()).map((row) => row.state).sort();
  expect(left).toEqual(["at-the-provider", "step-open"]);
});
