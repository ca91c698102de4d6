// Logging in through identity providers, end to end: a real OpenID Connect provider (oidc-provider,
// real keys) and a Discord-shaped OAuth2 stand-in, and the panel served on a loopback port. First
// logins make accounts where the provider may; an existing account is linked only with its
// password; the same subject is the same account whatever email it later claims; keys rotate;
// two-factor still applies unless the provider satisfies it; the account page links and unlinks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { createUser } from "../server/services/users";
import { ssoPanel, ssoLogin, land, type SsoPanel } from "./helpers/sso-panel";
import { startOidcProvider, followAuthorization, type OidcFixture } from "./helpers/oidc-provider";
import { startDiscordFixture, followDiscordAuthorization, type DiscordFixture } from "./helpers/discord-oauth";
import { loginAs } from "./helpers/app";
import { updateProvider } from "../server/services/sso/providers";

let rig: SsoPanel;
let idp: OidcFixture;
let discord: DiscordFixture;

beforeAll(async () => {
  discord = await startDiscordFixture();
  rig = await ssoPanel({ ssoSources: { discord: discord.baseUrl, github: "http://127.0.0.1:1", githubApi: "http://127.0.0.1:1" } });
  idp = await startOidcProvider({ redirectUris: [`${rig.base}/auth/sso/kc/callback`, `${rig.base}/auth/sso/closed/callback`] });
  expect((await rig.addProvider({ id: "kc", name: "Keycloak", type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: "openid email profile groups", allowRegistration: true, trustEmail: true })).status).toBe(201);
  expect((await rig.addProvider({ id: "closed", name: "Closed", type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, allowRegistration: false, trustEmail: true })).status).toBe(201);
  expect((await rig.addProvider({ id: "discord", name: "Discord", type: "discord", clientId: discord.clientId, clientSecret: discord.clientSecret, allowRegistration: true, trustEmail: true })).status).toBe(201);
});
afterAll(async () => {
  rig.stop();
  await idp.stop();
  discord.stop();
});

const self = async (session: string) => (await fetch(`${rig.base}/api/self`, { headers: { cookie: `kiln=${session}` } })).json() as Promise<{ id: number; email: string; username: string }>;
const accountCount = async () => (await rig.panel.db.select().from(schema.users).all()).length;

describe("OpenID Connect", () => {
  test("the login page offers the enabled providers", async () => {
    const html = await (await fetch(`${rig.base}/auth/login`)).text();
    expect(html).toContain('href="/auth/sso/kc"');
    expect(html).toContain("Continue with Keycloak");
  });

  test("a first login makes an account from the verified email; the next is the same account whatever email it claims", async () => {
    idp.setAccount("alice-sub", { email: "alice@example.com", email_verified: true, preferred_username: "alice" });
    const first = await ssoLogin(rig.base, "/auth/sso/kc?next=/account", followAuthorization);
    expect(first.status, first.body).toBe(303);
    expect(first.location).toBe("/account");
    const me = await self(first.session!);
    expect(me).toMatchObject({ email: "alice@example.com", username: "alice" });
    idp.setAccount("alice-sub", { email: "someone-else@example.com", email_verified: true });
    const second = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect((await self(second.session!)).id).toBe(me.id);
    const login = (await rig.panel.db.select().from(schema.activity).where(eq(schema.activity.event, "user.login")).all()).at(-1)!;
    expect(JSON.parse(login.properties)).toEqual({ method: "sso" });
  });

  test("an existing account with the same email is linked only once its password is given", async () => {
    await createUser(rig.panel.db, { username: "bobby", email: "bob@example.com", password: "bobs-password" });
    idp.setAccount("bob-sub", { email: "bob@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.session).toBeNull();
    expect(landing.location).toStartWith("/auth/sso/link?token=");
    const token = new URL(landing.location!, rig.base).searchParams.get("token")!;
    const page = await (await fetch(`${rig.base}${landing.location}`, { headers: { cookie: landing.browser } })).text();
    expect(page).toContain("bob@example.com");
    const post = (password: string) => fetch(`${rig.base}/auth/sso/link`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: rig.base, cookie: landing.browser }, body: new URLSearchParams({ token, password }) });
    expect((await post("not-bobs")).status).toBe(401);
    expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "bob-sub")).all()).toHaveLength(0);
    const right = await post("bobs-password");
    expect(right.status).toBe(303);
    const session = /kiln=([^;]+)/.exec(right.headers.getSetCookie().join(";"))![1]!;
    expect((await self(session)).email).toBe("bob@example.com");
    // The link token was good once.
    expect((await post("bobs-password")).status).toBe(400);
    // From now on the provider alone logs Bob in.
    expect((await self((await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session!)).email).toBe("bob@example.com");
  });

  test("an email the provider did not verify makes no account and links none", async () => {
    const before = await accountCount();
    idp.setAccount("mallory-sub", { email: "bob@example.com", email_verified: false });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.status).toBe(403);
    expect(landing.body).toContain("has not verified");
    expect(await accountCount()).toBe(before);
  });

  test("a provider that may not make accounts refuses a stranger", async () => {
    const before = await accountCount();
    idp.setAccount("stranger-sub", { email: "stranger@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/closed", followAuthorization);
    expect(landing.status).toBe(403);
    expect(await accountCount()).toBe(before);
  });

  test("after the provider rotates its keys, logins go on (the new key is fetched)", async () => {
    await idp.rotateKeys();
    idp.setAccount("alice-sub", { email: "alice@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.status, landing.body).toBe(303);
    expect((await self(landing.session!)).email).toBe("alice@example.com");
  });

  test("two-factor still asks for the code, unless the provider satisfies it and says it checked one", async () => {
    const { userId } = await loginAs(rig.panel.db, []);
    await rig.panel.db.update(schema.users).set({ otpEnabled: true, otpSecret: "JBSWY3DPEHPK3PXP" }).where(eq(schema.users.id, userId)).run();
    const email = (await rig.panel.db.select().from(schema.users).where(eq(schema.users.id, userId)).get())!.email;
    await rig.panel.db.insert(schema.userIdentities).values({ providerId: "kc", subject: "otp-sub", userId, email, createdAt: Date.now() }).run();
    idp.setAccount("otp-sub", { email, email_verified: true, amr: ["pwd", "mfa"] });
    const asked = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(asked.session).toBeNull();
    expect(asked.body).toContain("otp-dialog");
    const put = await fetch(`${rig.base}/api/auth/providers/kc`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ satisfiesTwoFactor: true }) });
    expect(put.status).toBe(200);
    const satisfied = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(satisfied.session).not.toBeNull();
    idp.setAccount("otp-sub", { email, email_verified: true, amr: ["pwd"] });
    expect((await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session).toBeNull();
  });

  test("the account page links a provider to the logged-in account and unlinks it, keeping one way in", async () => {
    const user = await loginAs(rig.panel.db, []);
    idp.setAccount("carol-sub", { email: "carol-at-idp@example.com", email_verified: true });
    const linked = await ssoLogin(rig.base, "/account/sso/kc/link", followAuthorization, `kiln=${user.token}`, { password: "password123" });
    expect(linked.location).toBe("/account");
    expect((await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "carol-sub")).get())?.userId).toBe(user.userId);
    const page = await (await fetch(`${rig.base}/account`, { headers: { cookie: `kiln=${user.token}` } })).text();
    expect(page).toContain('data-testid="account-sso"');
    expect(page).toContain("carol-at-idp@example.com");
    // Alice has no password: her only provider stays.
    const alice = (await rig.panel.db.select().from(schema.users).where(eq(schema.users.email, "alice@example.com")).get())!;
    const aliceSession = (await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session!;
    expect(alice.passwordHash).toBe("");
    const refused = await fetch(`${rig.base}/account/sso/kc/unlink`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${aliceSession}`, origin: rig.base } });
    expect(refused.status).toBe(303);
    expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.userId, alice.id)).all()).toHaveLength(1);
    // Carol has a password: she may unlink.
    await fetch(`${rig.base}/account/sso/kc/unlink`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${user.token}`, origin: rig.base } });
    expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "carol-sub")).all()).toHaveLength(0);
  });

  test("a callback used twice is refused the second time", async () => {
    idp.setAccount("alice-sub", { email: "alice@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.status).toBe(303);
    const again = await land(landing.callback, landing.began);
    expect(again.status).toBe(400);
    expect(again.session).toBeNull();
  });
});

describe("claim rules", () => {
  test("a group grants scopes and server flags at login, and takes them back at the next login without it", async () => {
    const node = await rig.panel.db.insert(schema.nodes).values({ name: "n", publicHost: "h", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "s".repeat(32), createdAt: new Date() }).returning().get();
    await rig.panel.db.insert(schema.servers).values({ id: "srv1", name: "survival", nodeId: node.id, createdAt: new Date() }).run();
    const rules = [
      { match: { claim: "groups", contains: "kiln-admins" }, grant: { scopes: ["users.view", "nodes.view"] }, revoke: true },
      { match: { and: [{ claim: "groups", contains: "mods" }, { not: { claim: "groups", contains: "banned" } }] }, grant: { servers: [{ serverId: "srv1", flags: ["viewServerConsole", "sendServerConsole"] }] }, revoke: true },
      { match: { claim: "email", matches: "@example\\.org$" }, grant: { scopes: ["templates.view"] }, revoke: false },
    ];
    const put = await fetch(`${rig.base}/api/auth/providers/kc`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ rules }) });
    expect(put.status, await put.clone().text()).toBe(200);
    idp.setAccount("dana-sub", { email: "dana@example.org", email_verified: true, groups: ["kiln-admins", "mods"] });
    const first = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    const dana = await self(first.session!);
    const scopes = async () => (await rig.panel.db.select().from(schema.userScopes).where(eq(schema.userScopes.userId, dana.id)).all()).map((r) => r.scope).sort();
    const flags = async () => (await rig.panel.db.select().from(schema.serverUsers).where(eq(schema.serverUsers.userId, dana.id)).get())?.flags ?? [];
    expect(await scopes()).toEqual(["nodes.view", "templates.view", "users.view"]);
    expect(await flags()).toEqual(["viewServerConsole", "sendServerConsole"]);
    // The groups change at the provider: the next login decides.
    idp.setAccount("dana-sub", { email: "dana@example.org", email_verified: true, groups: ["mods", "banned"] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    // revoke: true takes back; revoke: false keeps what it gave.
    expect(await scopes()).toEqual(["templates.view"]);
    expect(await flags()).toEqual([]);
  });

  test("a right the account held before a rule gave it is not taken back by the rule", async () => {
    idp.setAccount("erin-sub", { email: "erin@example.com", email_verified: true, groups: [] });
    const erin = await self((await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session!);
    await rig.panel.db.insert(schema.userScopes).values({ userId: erin.id, scope: "users.view" }).run();
    idp.setAccount("erin-sub", { email: "erin@example.com", email_verified: true, groups: ["kiln-admins"] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    idp.setAccount("erin-sub", { email: "erin@example.com", email_verified: true, groups: [] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect((await rig.panel.db.select().from(schema.userScopes).where(eq(schema.userScopes.userId, erin.id)).all()).map((r) => r.scope)).toEqual(["users.view"]);
  });

  test("the preview says what a pasted claims document would get; a pattern RE2 refuses is refused when saved", async () => {
    const preview = await fetch(`${rig.base}/api/auth/providers/kc/preview`, { method: "POST", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ claims: { groups: ["kiln-admins"], email: "x@example.com" } }) });
    const { rules } = (await preview.json()) as { rules: { matched: boolean }[] };
    expect(rules.map((r) => r.matched)).toEqual([true, false, false]);
    const bad = await fetch(`${rig.base}/api/auth/providers/kc`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ rules: [{ match: { claim: "email", matches: "(a)\\1" }, grant: { scopes: ["users.view"] } }] }) });
    expect(bad.status).toBe(400);
    const unknownScope = await fetch(`${rig.base}/api/auth/providers/kc`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ rules: [{ match: { claim: "email", exists: true }, grant: { scopes: ["root.everything"] } }] }) });
    expect(unknownScope.status).toBe(400);
  });
  test("a rule grants a role by name and takes it back; a rule naming a role its author does not outrank is refused", async () => {
    const role = (await (await fetch(`${rig.base}/api/roles`, { method: "POST", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ name: "staff", scopes: ["servers.view"] }) })).json()) as { id: number };
    const put = await fetch(`${rig.base}/api/auth/providers/kc`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ rules: [{ match: { claim: "groups", contains: "staff" }, grant: { roles: ["staff"] }, revoke: true }] }) });
    expect(put.status).toBe(200);
    idp.setAccount("fred-sub", { email: "fred@example.com", email_verified: true, groups: ["staff"] });
    const fred = await self((await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session!);
    const roles = async () => (await rig.panel.db.select().from(schema.userRoles).where(eq(schema.userRoles.userId, fred.id)).all()).map((r) => r.roleId);
    expect(await roles()).toEqual([role.id]);
    idp.setAccount("fred-sub", { email: "fred@example.com", email_verified: true, groups: [] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(await roles()).toEqual([]);
    // The rules' author must hold what they hand out, directly or through a role (a non-administrator author, at the service).
    await expect(updateProvider(rig.panel.db, { scopes: ["users.edit"] }, "kc", { rules: [{ match: { claim: "groups", contains: "x" }, grant: { roles: ["staff"] } }] })).rejects.toThrow();
  });

});

describe("SSO-only mode", () => {
  const settings = (body: unknown) => fetch(`${rig.base}/api/settings`, { method: "PUT", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  const passwordLogin = (email: string) => fetch(`${rig.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: rig.base }, body: JSON.stringify({ email, password: "password123" }) });

  test("needs a break-glass administrator; then only that account logs in with a password, the rest through providers", async () => {
    expect((await settings({ ssoOnly: true })).status).toBe(400);
    const plain = await loginAs(rig.panel.db, []);
    const plainEmail = (await rig.panel.db.select().from(schema.users).where(eq(schema.users.id, plain.userId)).get())!.email;
    expect((await settings({ ssoOnly: true, breakGlassUserId: plain.userId })).status).toBe(400);
    expect((await settings({ ssoOnly: true, breakGlassUserId: rig.admin.userId })).status).toBe(204);
    try {
      const refused = await passwordLogin(plainEmail);
      expect(refused.status).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("ErrSsoOnly");
      // Every other outcome answers the same, the break-glass account's wrong password too: no answer names it.
      for (const [email, password] of [[rig.admin.email, "not-the-password"], ["nobody@example.com", "password123"], [plainEmail, "not-the-password"]]) {
        const other = await fetch(`${rig.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json", origin: rig.base }, body: JSON.stringify({ email, password }) });
        expect({ email, status: other.status, code: ((await other.json()) as { error: { code: string } }).error.code }).toEqual({ email, status: 403, code: "ErrSsoOnly" });
      }
      expect((await passwordLogin(rig.admin.email)).status).toBe(200);
      const page = await (await fetch(`${rig.base}/auth/login`)).text();
      expect(page).not.toContain('action="/auth/login"');
      expect(page).toContain('data-testid="break-glass-link"');
      expect(await (await fetch(`${rig.base}/auth/login?password=1`)).text()).toContain('action="/auth/login"');
      idp.setAccount("alice-sub", { email: "alice@example.com", email_verified: true });
      expect((await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session).not.toBeNull();
    } finally {
      expect((await settings({ ssoOnly: false })).status).toBe(204);
    }
    expect((await passwordLogin(plainEmail)).status).toBe(200);
  });
});

describe("Discord (OAuth2)", () => {
  test("a first login makes an account from Discord's verified email; the next finds it by Discord's id", async () => {
    discord.setUser({ id: "80351110224678912", username: "nelly", email: "nelly@example.com", verified: true });
    const first = await ssoLogin(rig.base, "/auth/sso/discord", followDiscordAuthorization);
    expect(first.status, first.body).toBe(303);
    const me = await self(first.session!);
    expect(me).toMatchObject({ email: "nelly@example.com", username: "nelly" });
    discord.setUser({ id: "80351110224678912", username: "nelly2", email: "changed@example.com", verified: true });
    expect((await self((await ssoLogin(rig.base, "/auth/sso/discord", followDiscordAuthorization)).session!)).id).toBe(me.id);
  });
});
