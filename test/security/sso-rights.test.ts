// Attacks on what single sign-on grants and keeps, found by a review:
// - a stolen session linked the thief's own identity at a provider to the victim's account: a way
//   in that outlived the victim's password change (and, with a provider trusted for two-factor,
//   skipped the victim's TOTP). Linking now asks the account's password, as a new passkey does;
// - a provider deleted or disabled kept every right its revocable rules had granted (deleted: as
//   the account's own, unmarked, never to be taken back);
// - an identity whose login brought no refresh token was never refreshed, its rights kept for good;
// - a provider moved to another issuer kept its links by bare subject: the new issuer's "alice" was
//   the panel's administrator alice (a provider with linked accounts now keeps its issuer);
// - a rule on the email claim matched an address the provider did not say it verified;
// - the break-glass administrator of SSO-only mode could be demoted or deleted, leaving nobody a
//   password login.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { ssoPanel, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { startRogueOidc, validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { loginAs } from "../helpers/app";
import { createUser, scopesOf } from "../../server/services/users";
import { linkIdentity } from "../../server/services/sso/flow";
import { refreshDueClaims } from "../../server/services/sso/refresh";

let rig: SsoPanel;
let idp: RogueOidc;
let otherIdp: RogueOidc;
const OPS = [{ match: { claim: "groups", contains: "ops" }, grant: { scopes: ["nodes.view"] }, revoke: true }];

beforeAll(async () => {
  rig = await ssoPanel();
  [idp, otherIdp] = await Promise.all([startRogueOidc(), startRogueOidc()]);
});
afterAll(() => {
  rig?.stop();
  idp?.stop();
  otherIdp?.stop();
});

const db = () => rig.panel.db;
const api = (method: string, path: string, body?: unknown, token = rig.admin.token) => fetch(`${rig.base}${path}`, { method, headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: rig.base }, body: body === undefined ? undefined : JSON.stringify(body) });
const identityOf = (subject: string) => db().select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, subject)).get();
const provider = (id: string, extra: Record<string, unknown> = {}, from = idp) => rig.addProvider({ id, name: id, type: "oidc", issuer: from.issuer, clientId: from.clientId, clientSecret: from.clientSecret, ...extra });

test("a session alone does not link a provider: the account's password is asked, and a wrong one links nothing", async () => {
  expect((await provider("corp", { satisfiesTwoFactor: true })).status).toBe(201);
  const victim = await loginAs(db(), []);
  const stolen = `kiln=${victim.token}`;
  idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "mallory", email: "mallory@evil.example", email_verified: true, amr: ["pwd", "mfa"] })));
  for (const form of [undefined, { password: "not-the-password" }]) {
    const begun = await fetch(`${rig.base}/account/sso/corp/link`, { method: "POST", redirect: "manual", headers: { cookie: stolen, origin: rig.base, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form ?? {}) });
    expect(begun.status).toBe(303);
    expect(begun.headers.get("location")).toBe("/account#sso");
  }
  expect(await identityOf("mallory")).toBeUndefined();
  // Its holder, with the password, links.
  const linked = await ssoLogin(rig.base, "/account/sso/corp/link", followAuthorization, stolen, { password: "password123" });
  expect(linked.location).toBe("/account");
  expect((await identityOf("mallory"))?.userId).toBe(victim.userId);
  // An account a provider made has no password: its session alone links nothing either; a fresh
  // sign-in through its provider does (provider-account-proof.test.ts).
  const providerMade = await loginAs(db(), []);
  await db().update(schema.users).set({ passwordHash: "" }).where(eq(schema.users.id, providerMade.userId)).run();
  const bare = await fetch(`${rig.base}/account/sso/corp/link`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${providerMade.token}`, origin: rig.base, "content-type": "application/x-www-form-urlencoded" }, body: "" });
  expect(bare.headers.get("location")).toBe("/account#sso");
  expect(await db().select().from(schema.userIdentities).where(eq(schema.userIdentities.userId, providerMade.userId)).all()).toEqual([]);
  // The account page asks for it beside the button.
  await db().delete(schema.userIdentities).where(eq(schema.userIdentities.subject, "mallory")).run();
  const page = await (await fetch(`${rig.base}/account`, { headers: { cookie: stolen } })).text();
  expect(page).toMatch(/action="\/account\/sso\/corp\/link" method="post"><input type="password" required=""[^>]*name="password"/);
});

describe("rights a provider's rules granted", () => {
  beforeAll(async () => {
    expect((await provider("ops", { rules: OPS, refreshMinutes: 5 })).status).toBe(201);
  });

  /** A user linked through the "ops" provider while in its ops group. */
  const opsMember = async (subject: string) => {
    const user = await loginAs(db(), []);
    idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: subject, groups: ["ops"] })));
    expect((await ssoLogin(rig.base, "/account/sso/ops/link", followAuthorization, `kiln=${user.token}`, { password: "password123" })).location).toBe("/account");
    expect(await scopesOf(db(), user.userId)).toEqual(["nodes.view"]);
    return user;
  };

  test("an identity whose login brought no refresh token loses them once its claims are due", async () => {
    const user = await opsMember("no-refresh");
    expect((await identityOf("no-refresh"))?.refreshToken).toBeNull();
    expect(await refreshDueClaims(db(), rig.panel.deps.config.ssoSources, Date.now() + 6 * 60_000)).toBeGreaterThan(0);
    expect(await scopesOf(db(), user.userId)).toEqual([]);
  });

  test("disabling the provider takes them back", async () => {
    const user = await opsMember("disabled");
    expect((await api("PUT", "/api/auth/providers/ops", { enabled: false })).status).toBe(200);
    expect(await scopesOf(db(), user.userId)).toEqual([]);
    expect((await api("PUT", "/api/auth/providers/ops", { enabled: true })).status).toBe(200);
  });

  test("deleting the provider takes them back rather than leave them unmarked", async () => {
    const user = await opsMember("deleted");
    expect((await api("DELETE", "/api/auth/providers/ops")).status).toBe(204);
    expect(await scopesOf(db(), user.userId)).toEqual([]);
  });
});

test("a provider with linked accounts keeps its issuer: another issuer's subject of the same name is someone else", async () => {
  expect((await provider("moved", { allowRegistration: true })).status).toBe(201);
  const { id: alice } = await createUser(db(), { username: "alice", email: "alice@example.com", password: "alice-password-1", scopes: [SCOPES.admin] });
  await linkIdentity(db(), "moved", { subject: "alice", email: "alice@example.com" }, alice);
  const moved = await api("PUT", "/api/auth/providers/moved", { issuer: otherIdp.issuer, clientId: otherIdp.clientId, clientSecret: otherIdp.clientSecret });
  expect(moved.status).toBe(409);
  expect(((await moved.json()) as { error: { code: string } }).error.code).toBe("ErrSsoProviderLinked");
  // Nothing changed: the provider still asks its own issuer, where alice is alice.
  expect((await (await api("GET", "/api/auth/providers/moved")).json()) as { issuer: string }).toMatchObject({ issuer: idp.issuer });
  expect((await identityOf("alice"))?.userId).toBe(alice);
  // Without links, the issuer may change.
  await db().delete(schema.userIdentities).where(eq(schema.userIdentities.providerId, "moved")).run();
  expect((await api("PUT", "/api/auth/providers/moved", { issuer: otherIdp.issuer, clientId: otherIdp.clientId, clientSecret: otherIdp.clientSecret })).status).toBe(200);
});

test("a rule on the email claim does not match an address the provider did not verify", async () => {
  const rules = [{ match: { claim: "email", matches: "@example\\.org$" }, grant: { scopes: ["templates.view"] } }];
  expect((await provider("mail", { trustEmail: true, rules })).status).toBe(201);
  for (const [subject, verified, expected] of [["eve-unverified", false, []], ["eve-verified", true, ["templates.view"]]] as const) {
    const user = await loginAs(db(), []);
    idp.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: subject, email: "ceo@example.org", email_verified: verified })));
    expect((await ssoLogin(rig.base, "/account/sso/mail/link", followAuthorization, `kiln=${user.token}`, { password: "password123" })).location).toBe("/account");
    expect(await scopesOf(db(), user.userId)).toEqual([...expected]);
  }
});

test("the break-glass administrator keeps the admin scope and the account while SSO-only mode is on", async () => {
  const { id: glass } = await createUser(db(), { username: "glass", email: "glass@example.com", password: "glass-password-1", scopes: [SCOPES.admin] });
  expect((await api("PUT", "/api/settings", { ssoOnly: true, breakGlassUserId: glass })).status).toBe(204);
  try {
    for (const [method, path, body] of [["PUT", `/api/users/${glass}/perms`, { scopes: [] }], ["DELETE", `/api/users/${glass}`, undefined]] as const) {
      const refused = await api(method, path, body);
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("ErrBreakGlassAccount");
    }
    expect(await scopesOf(db(), glass)).toContain(SCOPES.admin);
    // Its password still logs in; had it lost the scope another way (a rule's refresh), it would not.
    const login = () => fetch(`${rig.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "glass@example.com", password: "glass-password-1" }) });
    expect((await login()).status).toBe(200);
    await db().delete(schema.userScopes).where(eq(schema.userScopes.userId, glass)).run();
    expect(((await (await login()).json()) as { error: { code: string } }).error.code).toBe("ErrSsoOnly");
    await db().insert(schema.userScopes).values({ userId: glass, scope: SCOPES.admin }).run();
    // Another break-glass account first, then the first may go.
    const { id: next } = await createUser(db(), { username: "glass2", email: "glass2@example.com", password: "glass-password-2", scopes: [SCOPES.admin] });
    expect((await api("PUT", "/api/settings", { ssoOnly: true, breakGlassUserId: next })).status).toBe(204);
    expect((await api("DELETE", `/api/users/${glass}`)).status).toBe(204);
  } finally {
    expect((await api("PUT", "/api/settings", { ssoOnly: false })).status).toBe(204);
  }
});
