// Rights a sign-in rule granted, after the login that granted them: a real OpenID Connect provider
// (oidc-provider, real keys and refresh tokens) and the panel on a loopback port. A provider set to
// refresh reads the claims again with the refresh token, so a group removed there takes its rights
// away without a login; one that refuses the token takes back what its revocable rules gave. Rights
// a rule granted are locked against hand edits (scopes, roles, server flags) until detached, and
// unlinking the provider takes back its revocable grants.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { schema } from "../db";
import { ssoPanel, ssoLogin, type SsoPanel } from "./helpers/sso-panel";
import { startOidcProvider, followAuthorization, type OidcFixture } from "./helpers/oidc-provider";
import { refreshDueClaims } from "../server/services/sso/refresh";
import { forgetClient } from "../server/services/sso/client";
import { scopesOf } from "../server/services/users";
import { createRole } from "../server/services/roles";

let rig: SsoPanel;
let idp: OidcFixture;
const RULES = [
  { match: { claim: "groups", contains: "ops" }, grant: { scopes: ["nodes.view"], roles: ["helpers"], servers: [{ serverId: "srv-ruled", flags: ["viewServerConsole"] }] }, revoke: true },
  { match: { claim: "groups", contains: "ops" }, grant: { scopes: ["templates.view"] }, revoke: false },
];

beforeAll(async () => {
  rig = await ssoPanel();
  idp = await startOidcProvider({ redirectUris: [`${rig.base}/auth/sso/kc/callback`] });
  const node = await rig.panel.db.insert(schema.nodes).values({ name: "n", publicHost: "h", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 1, secret: "s".repeat(32), createdAt: new Date() }).returning().get();
  await rig.panel.db.insert(schema.servers).values({ id: "srv-ruled", name: "ruled", nodeId: node.id, createdAt: new Date() }).run();
  await createRole(rig.panel.db, { id: rig.admin.userId, scopes: ["servers.admin"] }, { name: "helpers", scopes: ["users.view"] });
  const added = await rig.addProvider({ id: "kc", name: "Keycloak", type: "oidc", issuer: idp.issuer, clientId: idp.clientId, clientSecret: idp.clientSecret, scopes: "openid email profile groups", allowRegistration: true, trustEmail: true, refreshMinutes: 15, rules: RULES });
  expect(added.status, await added.clone().text()).toBe(201);
});
afterAll(async () => {
  rig.stop();
  await idp.stop();
});

const db = () => rig.panel.db;
const api = (method: string, path: string, body?: unknown) => fetch(`${rig.base}${path}`, { method, headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const userOf = async (email: string) => (await db().select().from(schema.users).where(eq(schema.users.email, email)).get())!.id;
const identityOf = async (sub: string) => (await db().select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, sub)).get())!;
const flagsOn = async (userId: number) => (await db().select().from(schema.serverUsers).where(and(eq(schema.serverUsers.userId, userId), eq(schema.serverUsers.serverId, "srv-ruled"))).get())?.flags ?? [];
const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;
const later = async (sub: string) => (await identityOf(sub)).refreshedAt! + 15 * 60_000;

describe("refreshing claims between logins", () => {
  test("a group removed at the provider takes the revocable rule's rights away at the next refresh; the non-revocable rule's stay", async () => {
    idp.setAccount("rita", { email: "rita@example.com", email_verified: true, groups: ["ops"] });
    expect((await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization)).status).toBe(303);
    const rita = await userOf("rita@example.com");
    expect(await scopesOf(db(), rita)).toEqual(["nodes.view", "templates.view", "users.view"]);
    expect(await flagsOn(rita)).toEqual(["viewServerConsole"]);
    expect((await identityOf("rita")).refreshToken).toBeString();

    // Not due yet: nothing is asked.
    expect(await refreshDueClaims(db(), rig.panel.deps.config.ssoSources, (await identityOf("rita")).refreshedAt! + 60_000)).toBe(0);
    idp.setAccount("rita", { email: "rita@example.com", email_verified: true, groups: [] });
    expect(await refreshDueClaims(db(), rig.panel.deps.config.ssoSources, await later("rita"))).toBe(1);
    expect(await scopesOf(db(), rita)).toEqual(["templates.view"]);
    expect(await flagsOn(rita)).toEqual([]);

    // Back in the group: granted again without a login.
    idp.setAccount("rita", { email: "rita@example.com", email_verified: true, groups: ["ops"] });
    expect(await refreshDueClaims(db(), rig.panel.deps.config.ssoSources, await later("rita"))).toBe(1);
    expect(await scopesOf(db(), rita)).toEqual(["nodes.view", "templates.view", "users.view"]);
  });

  test("a provider that refuses the refresh token (the account is gone there) takes back the revocable grants and the token is dropped", async () => {
    idp.setAccount("gone", { email: "gone@example.com", email_verified: true, groups: ["ops"] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    const gone = await userOf("gone@example.com");
    expect(await scopesOf(db(), gone)).toContain("nodes.view");
    idp.removeAccount("gone");
    expect(await refreshDueClaims(db(), rig.panel.deps.config.ssoSources, await later("gone"))).toBeGreaterThanOrEqual(1);
    expect(await scopesOf(db(), gone)).toEqual(["templates.view"]);
    expect(await flagsOn(gone)).toEqual([]);
    expect((await identityOf("gone")).refreshToken).toBeNull();
  });

  test("a provider that does not answer changes nothing, and is asked again at the next pass", async () => {
    idp.setAccount("nora", { email: "nora@example.com", email_verified: true, groups: ["ops"] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    const nora = await userOf("nora@example.com");
    const before = await scopesOf(db(), nora);
    const stale = { ...rig.panel.deps.config.ssoSources };
    // The provider goes down: its discovery fails. (Stood in for by an address where nothing listens,
    // written behind the API's back: the API keeps a provider with linked accounts on its issuer.)
    const down = async (issuer: string) => {
      await db().update(schema.authProviders).set({ issuer }).where(eq(schema.authProviders.id, "kc")).run();
      forgetClient("kc");
    };
    await down("http://127.0.0.1:9/");
    expect(await refreshDueClaims(db(), stale, await later("nora"))).toBe(0);
    expect(await scopesOf(db(), nora)).toEqual(before);
    expect((await identityOf("nora")).refreshToken).toBeString();
    await down(idp.issuer);
  });

  test("a provider that does not refresh keeps no refresh token", async () => {
    await api("PUT", "/api/auth/providers/kc", { refreshMinutes: 0 });
    idp.setAccount("olaf", { email: "olaf@example.com", email_verified: true, groups: [] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect((await identityOf("olaf")).refreshToken).toBeNull();
    expect((await api("PUT", "/api/auth/providers/kc", { refreshMinutes: 3 })).status).toBe(400);
    await api("PUT", "/api/auth/providers/kc", { refreshMinutes: 15 });
  });
});

describe("rights a rule granted", () => {
  let sam: number;
  beforeAll(async () => {
    idp.setAccount("sam", { email: "sam@example.com", email_verified: true, groups: ["ops"] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    sam = await userOf("sam@example.com");
  });

  test("are listed as the rule's, with their provider", async () => {
    const { grants } = (await (await api("GET", `/api/users/${sam}/grants`)).json()) as { grants: { kind: string; value: string; serverId: string; providerName: string }[] };
    expect(grants.map((g) => `${g.kind}:${g.value}:${g.serverId}`).sort()).toEqual(["flag:viewServerConsole:srv-ruled", `role:${(await db().select().from(schema.roles).get())!.id}:`, "scope:nodes.view:", "scope:templates.view:"]);
    expect(grants.every((g) => g.providerName === "Keycloak")).toBe(true);
    // The user's page shows them locked, with a way to detach each.
    const page = await (await fetch(`${rig.base}/user/${sam}`, { headers: { authorization: `Bearer ${rig.admin.token}` } })).text();
    expect(page).toContain("from Keycloak");
    expect(page).toContain(`action="/user/${sam}/grants/detach"`);
  });

  test("no hand edit changes one: scopes, roles and server flags answer ErrGrantedByRule and nothing moves", async () => {
    const before = { scopes: await scopesOf(db(), sam), flags: await flagsOn(sam) };
    const perms = await api("PUT", `/api/users/${sam}/perms`, { scopes: ["templates.view"] });
    expect(perms.status).toBe(409);
    expect(await codeOf(perms)).toBe("ErrGrantedByRule");
    const roles = await api("PUT", `/api/users/${sam}/roles`, { roles: [] });
    expect(await codeOf(roles)).toBe("ErrGrantedByRule");
    const flags = await api("PUT", `/api/servers/srv-ruled/user/sam@example.com`, { viewServerConsole: false, sendServerConsole: true });
    expect(await codeOf(flags)).toBe("ErrGrantedByRule");
    const removed = await api("DELETE", `/api/servers/srv-ruled/user/sam@example.com`);
    expect(await codeOf(removed)).toBe("ErrGrantedByRule");
    expect({ scopes: await scopesOf(db(), sam), flags: await flagsOn(sam) }).toEqual(before);
    // Adding a scope no rule holds is still a hand edit the form may make.
    expect((await api("PUT", `/api/users/${sam}/perms`, { scopes: ["nodes.view", "templates.view", "servers.view"] })).status).toBeLessThan(300);
  });

  test("a detached right is the account's own: a hand edit may change it and no rule takes it back", async () => {
    expect((await api("POST", `/api/users/${sam}/grants/detach`, { kind: "scope", value: "nodes.view" })).status).toBe(204);
    expect((await api("POST", `/api/users/${sam}/grants/detach`, { kind: "scope", value: "nodes.view" })).status).toBe(404);
    const detached = (await db().select().from(schema.activity).where(eq(schema.activity.event, "user.grant.detached")).all()).at(-1)!;
    expect(JSON.parse(detached.properties)).toMatchObject({ kind: "scope", value: "nodes.view", providers: ["kc"] });
    idp.setAccount("sam", { email: "sam@example.com", email_verified: true, groups: [] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(await scopesOf(db(), sam)).toEqual(["nodes.view", "servers.view", "templates.view"]);
    expect(await flagsOn(sam)).toEqual([]);
  });

  test("unlinking the provider takes back what its revocable rules granted", async () => {
    idp.setAccount("uma", { email: "uma@example.com", email_verified: true, groups: ["ops"] });
    await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    const uma = await userOf("uma@example.com");
    // Uma is given a password, so unlinking leaves her a way in (it ends her sessions: she logs in again).
    await fetch(`${rig.base}/api/users/${uma}`, { method: "POST", headers: { authorization: `Bearer ${rig.admin.token}`, "content-type": "application/json" }, body: JSON.stringify({ password: "umas-new-password" }) });
    const login = await ssoLogin(rig.base, "/auth/sso/kc", followAuthorization);
    expect(await scopesOf(db(), uma)).toContain("nodes.view");
    const unlink = await fetch(`${rig.base}/account/sso/kc/unlink`, { method: "POST", redirect: "manual", headers: { cookie: `kiln=${login.session}`, origin: rig.base } });
    expect(unlink.status).toBe(303);
    expect(await scopesOf(db(), uma)).toEqual(["templates.view"]);
    expect(await flagsOn(uma)).toEqual([]);
  });
});
