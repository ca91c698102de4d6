// A login through a provider is a row good for ten minutes; what it was begun for could go first:
// - the account that began linking a provider was deleted before the provider called back, and
//   the callback linked an identity to no account: a 500 (the panel's own error, not a refusal);
// - the provider was disabled (an administrator's answer to a provider not to be trusted) while a
//   password step it had asked for was open, and the step still linked its identity and logged in.
// Each is now ErrSsoFailed, nothing linked, nobody logged in.
import { expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { createUser } from "../../server/services/users";
import { rogueProviderForFile, ssoLogin, land, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { loginAs } from "../helpers/app";

let rig: SsoPanel;
let idp: RogueOidc;

rogueProviderForFile({ trustEmail: true }, (made) => void ({ rig, idp } = made));

const identity = (subject: string) => rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, subject)).get();

test("an account deleted while its link was at the provider: the callback is refused, not a 500", async () => {
  const leaving = await loginAs(rig.panel.db, []);
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "orphan", email: "orphan@example.com", email_verified: true })));
  const begun = await fetch(`${rig.base}/account/sso/corp/link`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${leaving.token}`, origin: rig.base, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ password: "password123" }) });
  const browser = begun.headers.getSetCookie().map((c) => /^kiln_sso=[^;]+/.exec(c)?.[0]).find(Boolean)!;
  const callback = await followAuthorization(begun.headers.get("location")!);
  await rig.panel.db.delete(schema.users).where(eq(schema.users.id, leaving.userId)).run();
  const landing = await land(callback, browser);
  expect(landing.status).toBe(400);
  expect(landing.session).toBeNull();
  expect(await identity("orphan")).toBeUndefined();
});

test("a provider disabled while its password step was open: the step links nothing and logs nobody in", async () => {
  await createUser(rig.panel.db, { username: "holder", email: "holder@example.com", password: "holders-password" });
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "late", email: "holder@example.com", email_verified: true })));
  const landing = await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
  expect(landing.location).toStartWith("/auth/sso/link?token=");
  const token = new URL(landing.location!, rig.base).searchParams.get("token")!;
  const disabled = await fetch(`${rig.base}/api/auth/providers/corp`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ enabled: false }) });
  expect(disabled.status).toBe(200);
  const given = await fetch(`${rig.base}/auth/sso/link`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: rig.base, cookie: landing.browser }, body: new URLSearchParams({ token, password: "holders-password" }) });
  expect(given.status).toBe(400);
  expect(given.headers.getSetCookie().some((c) => /^kiln=[^;]+/.test(c))).toBe(false);
  expect(await identity("late")).toBeUndefined();
});
