// Unlinking a provider from an account took back what its rules granted but left every session
// already made through it: whoever held the identity at the provider (an old link the owner no
// longer wants, a provider account taken over) stayed logged in for the session's whole life after
// the owner cut that way in. Unlinking now ends the account's other logins, as a password change
// does; the session that unlinked stays.
import { expect, test } from "bun:test";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { loginAs } from "../helpers/app";
import { linkIdentity } from "../../server/services/sso/flow";

let rig: SsoPanel;
let idp: RogueOidc;

rogueProviderForFile({}, (made) => void ({ rig, idp } = made));

const self = async (token: string) => (await fetch(`${rig.base}/api/self`, { headers: { cookie: `kiln=${token}` } })).status;

test("a session made through an identity ends when its account unlinks it; the session that unlinked stays", async () => {
  const owner = await loginAs(rig.panel.db, []);
  await linkIdentity(rig.panel.db, "corp", { subject: "taken-over", email: null }, owner.userId);
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "taken-over", email: "someone@example.com", email_verified: true })));
  const intruder = await ssoLogin(rig.base, "/auth/sso/corp", followAuthorization);
  expect(intruder.session).not.toBeNull();
  expect(await self(intruder.session!)).toBe(200);

  const unlinked = await fetch(`${rig.base}/account/sso/corp/unlink`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${owner.token}`, origin: rig.base } });
  expect(unlinked.status).toBe(303);
  expect(await self(intruder.session!)).toBe(401);
  expect(await self(owner.token)).toBe(200);
});
