// Claims are refreshed in one pass over every due identity, one after the other, each request to a
// provider bounded by its 10 s. A provider that does not answer (down behind a firewall that drops
// packets, or hostile and slow on purpose) was asked again for every one of its identities, 10 s
// each: with a few hundred linked accounts a pass took hours, and every other provider's refresh,
// the one that takes back a group's rights within its minutes, waited behind it. A provider that
// does not answer is now asked once per pass; its other identities wait for the next.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { ssoPanel, type SsoPanel } from "../helpers/sso-panel";
import { loginAs } from "../helpers/app";
import { linkIdentity } from "../../server/services/sso/flow";
import { refreshDueClaims } from "../../server/services/sso/refresh";

let rig: SsoPanel;
let asked = 0;
// Takes every request and never answers it.
const stalled = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => {
    asked++;
    return new Promise<Response>(() => undefined);
  },
});

beforeAll(async () => {
  rig = await ssoPanel();
  expect((await rig.addProvider({ id: "stalled", name: "Stalled", type: "oidc", issuer: `http://127.0.0.1:${stalled.port}`, clientId: "kiln", clientSecret: "secret", refreshMinutes: 5 })).status).toBe(201);
  for (const subject of ["one", "two", "three"]) {
    const user = await loginAs(rig.panel.db, []);
    await linkIdentity(rig.panel.db, "stalled", { subject, email: null }, user.userId);
    await rig.panel.db.update(schema.userIdentities).set({ refreshToken: `token-${subject}`, refreshedAt: 0 }).where(eq(schema.userIdentities.subject, subject)).run();
  }
});
afterAll(() => {
  rig?.stop();
  stalled.stop(true);
});

test("a provider that does not answer is asked once in a pass, not once per identity", async () => {
  const started = Date.now();
  expect(await refreshDueClaims(rig.panel.db, rig.panel.deps.config.ssoSources)).toBe(0);
  expect(asked).toBe(1);
  expect(Date.now() - started).toBeLessThan(20_000);
  // Nothing was changed: the identities are asked again at the next pass.
  expect((await rig.panel.db.select().from(schema.userIdentities).all()).every((i) => i.refreshToken !== null && i.refreshedAt === 0)).toBe(true);
}, 60_000);
