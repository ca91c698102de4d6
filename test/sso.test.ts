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
const accountCount = () => rig.panel.db.select().from(schema.users).all().length;

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
    const login = rig.panel.db.select().from(schema.activity).where(eq(schema.activity.event, "user.login")).all().at(-1)!;
    expect(JSON.parse(login.properties)).toEqual({ method: "sso" });
  });

  test("an existing account with the same email is linked only once its password is given", async () => {
    await createUser(rig.panel.db, { username: "bobby", email: "bob@example.com", password: "bobs-password" });
    idp.setAccount("bob-sub", { email: "bob@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.session).toBeNull();
    expect(landing.location).toStartWith("/auth/sso/link?token=");
    const token = new URL(landing.location!, rig.base).searchParams.get("token")!;
    const page = await (await fetch(`${rig.base}${landing.location}`)).text();
    expect(page).toContain("bob@example.com");
    const post = (password: string) => fetch(`${rig.base}/auth/sso/link`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: rig.base }, body: new URLSearchParams({ token, password }) });
    expect((await post("not-bobs")).status).toBe(401);
    expect(rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "bob-sub")).all()).toHaveLength(0);
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
    const before = accountCount();
    idp.setAccount("mallory-sub", { email: "bob@example.com", email_verified: false });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.status).toBe(403);
    expect(landing.body).toContain("has not verified");
    expect(accountCount()).toBe(before);
  });

  test("a provider that may not make accounts refuses a stranger", async () => {
    const before = accountCount();
    idp.setAccount("stranger-sub", { email: "stranger@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/closed", followAuthorization);
    expect(landing.status).toBe(403);
    expect(accountCount()).toBe(before);
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
    rig.panel.db.update(schema.users).set({ otpEnabled: true, otpSecret: "JBSWY3DPEHPK3PXP" }).where(eq(schema.users.id, userId)).run();
    const email = rig.panel.db.select().from(schema.users).where(eq(schema.users.id, userId)).get()!.email;
    rig.panel.db.insert(schema.userIdentities).values({ providerId: "kc", subject: "otp-sub", userId, email, createdAt: Date.now() }).run();
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
    const linked = await ssoLogin(rig.base, "/account/sso/kc/link", followAuthorization, `kiln=${user.token}`);
    expect(linked.location).toBe("/account");
    expect(rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "carol-sub")).get()?.userId).toBe(user.userId);
    const page = await (await fetch(`${rig.base}/account`, { headers: { cookie: `kiln=${user.token}` } })).text();
    expect(page).toContain('data-testid="account-sso"');
    expect(page).toContain("carol-at-idp@example.com");
    // Alice has no password: her only provider stays.
    const alice = rig.panel.db.select().from(schema.users).where(eq(schema.users.email, "alice@example.com")).get()!;
    const aliceSession = (await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).session!;
    expect(alice.passwordHash).toBe("");
    const refused = await fetch(`${rig.base}/account/sso/kc/unlink`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${aliceSession}`, origin: rig.base } });
    expect(refused.status).toBe(303);
    expect(rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.userId, alice.id)).all()).toHaveLength(1);
    // Carol has a password: she may unlink.
    await fetch(`${rig.base}/account/sso/kc/unlink`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${user.token}`, origin: rig.base } });
    expect(rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "carol-sub")).all()).toHaveLength(0);
  });

  test("a callback used twice is refused the second time", async () => {
    idp.setAccount("alice-sub", { email: "alice@example.com", email_verified: true });
    const landing = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(landing.status).toBe(303);
    const again = await land(landing.callback);
    expect(again.status).toBe(400);
    expect(again.session).toBeNull();
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
