// An administrator disables or deletes a provider (it is no longer trusted: taken over, or its
// issuer signs for the wrong people). What its rules granted was taken back, but every session it
// had made stayed: whoever it had signed in, as any account linked to it, kept the panel for the
// session's whole life. Disabling or deleting a provider now ends the logins of the accounts
// linked to it (a session does not record how it logged in); the administrator's own, and other
// accounts', stay.
import { expect, test } from "bun:test";
import { rogueProviderForFile, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { loginAs } from "../helpers/app";
import { linkIdentity } from "../../server/services/sso/flow";

let rig: SsoPanel;
let idp: RogueOidc;

rogueProviderForFile(null, (made) => void ({ rig, idp } = made));

const self = async (token: string) => (await fetch(`${rig.base}/api/self`, { headers: { cookie: `kiln=${token}` } })).status;
const admin = (method: string, path: string, body?: unknown) => fetch(`${rig.base}${path}`, { method, headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

/** A provider, an account linked to it, and a session the provider made for that account. */
async function signedInThrough(providerId: string) {
  expect((await rig.addProvider({ id: providerId, name: providerId, type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret })).status).toBe(201);
  const linked = await loginAs(rig.panel.db, []);
  await linkIdentity(rig.panel.db, providerId, { subject: `${providerId}-user`, email: null }, linked.userId);
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: `${providerId}-user` })));
  const landing = await ssoLogin(rig.base, `/auth/sso/${providerId}`, followAuthorization);
  expect(await self(landing.session!)).toBe(200);
  return landing.session!;
}

test("disabling a provider ends the sessions it made", async () => {
  const bystander = await loginAs(rig.panel.db, []);
  const made = await signedInThrough("disabled-one");
  expect((await admin("PUT", "/api/auth/providers/disabled-one", { enabled: false })).status).toBe(200);
  expect(await self(made)).toBe(401);
  expect(await self(bystander.token)).toBe(200);
  expect((await admin("GET", "/api/auth/providers")).status).toBe(200);
});

test("deleting a provider ends the sessions it made", async () => {
  const made = await signedInThrough("deleted-one");
  expect((await admin("DELETE", "/api/auth/providers/deleted-one")).status).toBe(204);
  expect(await self(made)).toBe(401);
  expect((await admin("GET", "/api/auth/providers")).status).toBe(200);
});

test("a change that leaves the provider enabled ends nothing", async () => {
  const made = await signedInThrough("renamed-one");
  expect((await admin("PUT", "/api/auth/providers/renamed-one", { name: "Renamed" })).status).toBe(200);
  expect(await self(made)).toBe(200);
});
