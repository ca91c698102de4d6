// An account without a password (a provider made it) was asked nothing beyond its session before
// switching two-factor on or linking another provider: a stolen cookie enrolled the thief's
// authenticator (the holder, back through the provider, was asked for a code they never had) or
// linked the thief's own provider identity (a way in that outlives the session). Such an account
// now proves itself as GitHub's sudo mode asks: a sign-in through one of its linked providers made
// in the last 5 minutes, that made this very login (kept through renewals and a two-factor step).
// The Account page offers that sign-in, asking the provider to have the person sign in again.
// Attacked with a real OpenID Connect provider (oidc-provider).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db";
import { ssoPanel, ssoLogin, type SsoPanel } from "../helpers/sso-panel";
import { startOidcProvider, followAuthorization, type OidcFixture } from "../helpers/oidc-provider";
import { totpCode } from "../helpers/totp";
import { createSession, hashToken, rotateSession } from "../../server/services/sessions";

let rig: SsoPanel;
let idp: OidcFixture;

beforeAll(async () => {
  rig = await ssoPanel();
  idp = await startOidcProvider({ redirectUris: [`${rig.base}/auth/sso/kc/callback`, `${rig.base}/auth/sso/other/callback`] });
  for (const id of ["kc", "other"]) {
    expect((await rig.addProvider({ id, name: id === "kc" ? "Keycloak" : "Other", type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: "openid email profile", allowRegistration: id === "kc", trustEmail: true })).status).toBe(201);
  }
});
afterAll(async () => {
  rig.stop();
  await idp.stop();
});

const json = (session: string) => ({ cookie: `kiln=${session}`, "content-type": "application/json", origin: rig.base });
const otpEnabled = async (userId: number) => (await rig.panel.db.select({ on: schema.users.otpEnabled }).from(schema.users).where(eq(schema.users.id, userId)).get())!.on;
const identities = async (userId: number) => (await rig.panel.db.select({ provider: schema.userIdentities.providerId }).from(schema.userIdentities).where(eq(schema.userIdentities.userId, userId)).all()).map((i) => i.provider);

/** A new account through the provider (no password), and the session that sign-in made. */
async function providerAccount(sub: string): Promise<{ userId: number; session: string }> {
  idp.setAccount(sub, { email: `${sub}@example.com`, email_verified: true, preferred_username: sub });
  const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
  expect(landing.session, landing.body).not.toBeNull();
  const me = (await (await fetch(`${rig.base}/api/self`, { headers: { cookie: `kiln=${landing.session}` } })).json()) as { id: number };
  expect((await rig.panel.db.select({ hash: schema.users.passwordHash }).from(schema.users).where(eq(schema.users.id, me.id)).get())!.hash).toBe("");
  return { userId: me.id, session: landing.session! };
}

async function startEnrolment(session: string): Promise<string> {
  const started = await fetch(`${rig.base}/api/self/otp`, { method: "POST", headers: json(session) });
  expect(started.status).toBe(200);
  return ((await started.json()) as { secret: string }).secret;
}

const switchOn = (session: string, secret: string) => fetch(`${rig.base}/api/self/otp`, { method: "PUT", headers: json(session), body: JSON.stringify({ token: totpCode(secret) }) });
const link = (session: string, provider: string) => fetch(`${rig.base}/account/sso/${provider}/link`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${session}`, origin: rig.base, "content-type": "application/x-www-form-urlencoded" }, body: "" });
/** The session's provider sign-in, as if it were made longer ago than the fresh window. */
const age = (session: string) => rig.panel.db.update(schema.oneTimeValues).set({ expiresAt: Date.now() - 1 }).where(and(eq(schema.oneTimeValues.kind, "provider-sign-in"), eq(schema.oneTimeValues.key, hashToken(session)))).run();

test("a stolen session of an account without a password switches two-factor on neither by the API nor by the Account page", async () => {
  const holder = await providerAccount("otp-victim");
  // The thief's cookie: a login of the account, not made by a sign-in through its provider just now.
  const stolen = await createSession(rig.panel.db, holder.userId);
  const secret = await startEnrolment(stolen);
  const refused = await switchOn(stolen, secret);
  expect(refused.status).toBe(403);
  expect((await refused.json()).error.code).toBe("ErrProviderSignInRequired");
  const form = await fetch(`${rig.base}/account/otp/confirm`, { method: "POST", headers: { cookie: `kiln=${stolen}`, origin: rig.base, "content-type": "application/x-www-form-urlencoded", accept: "text/html" }, body: new URLSearchParams({ token: totpCode(secret) }) });
  expect(form.status).toBe(403);
  const page = await form.text();
  // The page says why and offers the sign-in again, asking the provider for a fresh one.
  expect(page).toContain('data-testid="provider-sign-in"');
  expect(page).toContain('href="/auth/sso/kc?next=/account&amp;fresh=1"');
  expect(await otpEnabled(holder.userId)).toBe(false);

  // The holder's own login, made by the provider's sign-in a moment ago, switches it on; the
  // same login once that sign-in is older than 5 minutes does not.
  const aged = await providerAccount("otp-aged");
  await age(aged.session);
  const agedSecret = await startEnrolment(aged.session);
  expect((await switchOn(aged.session, agedSecret)).status).toBe(403);
  expect(await otpEnabled(aged.userId)).toBe(false);
  const own = await switchOn(holder.session, secret);
  expect(own.status, await own.clone().text()).toBe(204);
  expect(await otpEnabled(holder.userId)).toBe(true);
});

test("a stolen session of an account without a password links no other provider identity", async () => {
  const holder = await providerAccount("link-victim");
  const stolen = await createSession(rig.panel.db, holder.userId);
  const refused = await link(stolen, "other");
  expect(refused.status).toBe(303);
  // Back to the Account page with the refusal, never on to the provider.
  expect(refused.headers.get("location")).toBe("/account#sso");
  expect(refused.headers.getSetCookie().join(";")).toContain("errors.ErrProviderSignInRequired");
  expect(await identities(holder.userId)).toEqual(["kc"]);
  // A renewal of the thief's login does not make it fresh either.
  const renewed = (await rotateSession(rig.panel.db, stolen))!;
  expect((await link(renewed, "other")).headers.get("location")).toBe("/account#sso");
});

test("the Account page's sign-in again asks the provider for a fresh login, and that login links a provider, after a renewal too", async () => {
  const holder = await providerAccount("link-holder");
  await age(holder.session);
  expect((await link(holder.session, "other")).headers.get("location")).toBe("/account#sso");
  let asked: URL | undefined;
  const again = await ssoLogin(rig.base, "/auth/sso/kc?next=/account&fresh=1", async (url) => {
    asked = new URL(url);
    return await followAuthorization(url);
  });
  expect(asked!.searchParams.get("prompt")).toBe("login");
  expect(asked!.searchParams.get("max_age")).toBe("300");
  expect(again.location).toBe("/account");
  // Renewed (the page renews every ten minutes): the sign-in is the login's, not its first token's.
  const renewed = (await rotateSession(rig.panel.db, again.session!))!;
  const started = await link(renewed, "other");
  expect(started.status).toBe(303);
  expect(new URL(started.headers.get("location")!).origin).toBe(idp.issuer);
});

test("an account with two-factor keeps its provider sign-in through the code step", async () => {
  const holder = await providerAccount("otp-holder");
  expect((await switchOn(holder.session, await startEnrolment(holder.session))).status).toBe(204);
  const secret = (await rig.panel.db.select({ s: schema.users.otpSecret }).from(schema.users).where(eq(schema.users.id, holder.userId)).get())!.s!;
  idp.setAccount("otp-holder", { email: "otp-holder@example.com", email_verified: true });
  const pending = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
  expect(pending.session).toBeNull();
  const pendingCookie = pending.cookies.map((c) => /^kiln_pending=[^;]+/.exec(c)?.[0]).find((v) => v !== undefined);
  expect(pendingCookie).toBeDefined();
  const code = await fetch(`${rig.base}/auth/otp`, { method: "POST", redirect: "manual", headers: { cookie: pendingCookie!, origin: rig.base, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ token: totpCode(secret, Date.now() + 30_000) }) });
  const session = code.headers.getSetCookie().map((c) => /^kiln=([^;]+)/.exec(c)?.[1]).find((v) => v !== undefined && v !== "");
  expect(session, `${code.status} ${await code.text()}`).toBeDefined();
  const started = await link(session!, "other");
  expect(new URL(started.headers.get("location")!, rig.base).origin).toBe(idp.issuer);
});
