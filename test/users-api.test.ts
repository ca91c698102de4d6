// /api/users, /api/self, /api/settings and OAuth2 clients through the JSON API, with every scope refusal.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "./helpers/app";
import { startSmtp } from "./helpers/smtp";
import { createUser } from "../server/services/users";
import { SCOPES } from "../core/scopes";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const json = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const errorOf = async (res: Response) => ({ status: res.status, code: (await res.json()).error?.code });

describe("users API", () => {
  test("paged list with total, default page size 10, and search with wildcards", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.usersView]);
    for (let i = 0; i < 14; i++) await createUser(panel.db, { username: `player${i}`, email: `p${i}@example.com`, password: "password123" });
    const first = await (await panel.request("/api/users", { token })).json();
    expect(first.users).toHaveLength(10);
    expect(first.paging).toEqual({ page: 1, size: 10, pageSize: 10, maxSize: 100, total: 15 });
    const second = await (await panel.request("/api/users?page=2&limit=10", { token })).json();
    expect(second.users).toHaveLength(5);
    const found = await (await panel.request("/api/users?username=*yer1*", { token })).json();
    expect(found.users.map((u: { username: string }) => u.username).sort()).toEqual(["player1", "player10", "player11", "player12", "player13"]);
    expect(await errorOf(await panel.request("/api/users?limit=0", { token }))).toEqual({ status: 400, code: "ErrFieldNotBetween" });
  });

  test("each call refuses a caller without its scope", async () => {
    const { token } = await loginAs(panel.db, []);
    const viewer = await loginAs(panel.db, [SCOPES.usersView]);
    const target = await createUser(panel.db, { username: "target1", email: "target@example.com", password: "password123" });
    const refused = { status: 403, code: "ErrMissingScope" };
    expect(await errorOf(await panel.request("/api/users", { token }))).toEqual(refused);
    expect(await errorOf(await panel.request(`/api/users/${target.id}`, { token }))).toEqual(refused);
    expect(await errorOf(await panel.request(`/api/users/${target.id}/perms`, { token }))).toEqual(refused);
    for (const [method, path, body] of [
      ["POST", "/api/users", { username: "newone", email: "new@example.com", password: "password123" }],
      ["POST", `/api/users/${target.id}`, { username: "renamed" }],
      ["DELETE", `/api/users/${target.id}`, undefined],
      ["PUT", `/api/users/${target.id}/perms`, { scopes: [] }],
    ] as const) {
      expect(await errorOf(await panel.request(path, { ...json(method, body), token: viewer.token }))).toEqual(refused);
    }
    expect(await errorOf(await panel.request("/api/users"))).toEqual({ status: 401, code: "ErrSessionTimedOut" });
  });

  test("create, then set permissions, read, update and delete", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const created = await panel.request("/api/users", { ...json("POST", { username: "created", email: "c@example.com", password: "password123" }), token });
    expect(created.status).toBe(201);
    const { id } = await created.json();
    expect((await panel.request(`/api/users/${id}/perms`, { ...json("PUT", { scopes: [SCOPES.serversView, SCOPES.nodesView] }), token })).status).toBe(200);
    expect(await (await panel.request(`/api/users/${id}/perms`, { token })).json()).toMatchObject({ scopes: [SCOPES.nodesView, SCOPES.serversView], viewNodes: true, viewServers: true, admin: false });
    const updated = await panel.request(`/api/users/${id}`, { ...json("POST", { username: "renamed", email: "r@example.com" }), token });
    expect(await updated.json()).toMatchObject({ id, username: "renamed", email: "r@example.com" });
    expect(await errorOf(await panel.request(`/api/users/${id}`, { ...json("POST", { username: "no" }), token }))).toEqual({ status: 400, code: "ErrUsernameRequirements" });
    expect(await errorOf(await panel.request("/api/users", { ...json("POST", { username: "again", email: "r@example.com", password: "password123" }), token }))).toEqual({ status: 409, code: "ErrDuplicateUser" });
    expect((await panel.request(`/api/users/${id}`, { method: "DELETE", token })).status).toBe(204);
    expect(await errorOf(await panel.request(`/api/users/${id}`, { token }))).toEqual({ status: 404, code: "ErrUserNotFound" });
  });

  test("creating needs an email", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    expect(await errorOf(await panel.request("/api/users", { ...json("POST", { username: "noemail", password: "password123" }), token }))).toEqual({ status: 400, code: "ErrFieldRequired" });
  });

  test("a user cannot grant a scope they do not hold", async () => {
    const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit, SCOPES.serversView]);
    const target = await createUser(panel.db, { username: "target2", email: "t2@example.com", password: "password123" });
    const put = (scopes: string[]) => panel.request(`/api/users/${target.id}/perms`, { ...json("PUT", { scopes }), token: editor.token });
    expect((await put([SCOPES.serversView])).status).toBe(200);
    expect(await errorOf(await put([SCOPES.serversView, SCOPES.admin]))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await put([SCOPES.settingsEdit]))).toEqual({ status: 403, code: "ErrMissingScope" });
    expect(await errorOf(await put(["made.up"]))).toEqual({ status: 400, code: "ErrFieldNotBetween" });
  });

  test("the last administrator keeps the admin scope and cannot be deleted", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    expect(await errorOf(await panel.request(`/api/users/${admin.userId}/perms`, { ...json("PUT", { scopes: [] }), token: admin.token }))).toEqual({ status: 409, code: "ErrLastAdmin" });
    expect(await errorOf(await panel.request(`/api/users/${admin.userId}`, { method: "DELETE", token: admin.token }))).toEqual({ status: 403, code: "ErrNoPermission" });
  });
});

describe("self", () => {
  test("changing username or email needs the current password", async () => {
    const { token } = await loginAs(panel.db);
    expect(await errorOf(await panel.request("/api/self", { ...json("PUT", { username: "fresh-name" }), token }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(await errorOf(await panel.request("/api/self", { ...json("PUT", { username: "fresh-name", password: "wrong-pass" }), token }))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    expect((await panel.request("/api/self", { ...json("PUT", { username: "fresh-name", email: "fresh@example.com", password: "password123" }), token })).status).toBe(204);
    expect(await (await panel.request("/api/self", { token })).json()).toMatchObject({ username: "fresh-name", email: "fresh@example.com" });
  });

  test("a password change keeps this session and ends the others", async () => {
    const me = await loginAs(panel.db);
    const other = await (await import("../server/services/sessions")).createSession(panel.db, me.userId);
    expect(await errorOf(await panel.request("/api/self", { ...json("PUT", { password: "password123", newPassword: "short" }), token: me.token }))).toEqual({ status: 400, code: "ErrPasswordRequirements" });
    expect((await panel.request("/api/self", { ...json("PUT", { password: "password123", newPassword: "a-new-password" }), token: me.token })).status).toBe(204);
    expect((await panel.request("/api/self", { token: me.token })).status).toBe(200);
    expect((await panel.request("/api/self", { token: other })).status).toBe(401);
    const login = await panel.request("/auth/login", json("POST", { email: me.email, password: "a-new-password" }));
    expect(login.status).toBe(200);
  });
});

describe("settings API", () => {
  test("needs settings.edit", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.usersView]);
    expect(await errorOf(await panel.request("/api/settings/panel.settings.companyName", { token }))).toEqual({ status: 403, code: "ErrMissingScope" });
  });

  test("put, get, map; unknown keys and bad values change nothing; secrets never come back", async () => {
    // An administrator: where mail goes is theirs to change (test/security/email-redirect.test.ts).
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const get = async (key: string) => (await panel.request(`/api/settings/${key}`, { token })).json();
    expect((await panel.request("/api/settings/panel.settings.companyName", { ...json("PUT", { value: "Acme" }), token })).status).toBe(204);
    expect(await get("panel.settings.companyName")).toEqual({ value: "Acme" });
    expect(await get("panel.registrationEnabled")).toEqual({ value: "false" });
    expect(await errorOf(await panel.request("/api/settings/panel.nope", { token }))).toEqual({ status: 404, code: "ErrSettingNotConfigured" });
    const map = { "panel.email.provider": "smtp", "panel.email.host": "127.0.0.1:2525", "panel.email.password": "s3cret", "panel.registrationEnabled": true };
    expect((await panel.request("/api/settings", { ...json("POST", map), token })).status).toBe(204);
    expect(await get("panel.email.password")).toEqual({ value: null, isSet: true });
    expect(await get("panel.registrationEnabled")).toEqual({ value: "true" });
    // All or nothing: one bad entry, nothing written.
    const bad = await panel.request("/api/settings", { ...json("POST", { "panel.settings.companyName": "Changed", "panel.email.provider": "pigeon" }), token });
    expect(await errorOf(bad)).toEqual({ status: 400, code: "ErrServiceInvalidProvider" });
    expect(await get("panel.settings.companyName")).toEqual({ value: "Acme" });
    expect(await errorOf(await panel.request("/api/settings/panel.settings.masterUrl", { ...json("PUT", { value: "ftp://x" }), token }))).toEqual({ status: 400, code: "ErrFieldIsInvalidHost" });
    expect(await errorOf(await panel.request("/api/settings/panel.settings.defaultTheme", { ...json("PUT", { value: "nope" }), token }))).toEqual({ status: 400, code: "ErrFieldNotBetween" });
  });
});

describe("OAuth2 clients", () => {
  test("create shows the secret once; the token endpoint issues a bearer that acts as the account", async () => {
    const { token, email } = await loginAs(panel.db, [SCOPES.usersView]);
    const created = await (await panel.request("/api/self/oauth2", { ...json("POST", { name: "ci", description: "deploys", password: "password123" }), token })).json();
    expect(created.id).toStartWith("kiln_");
    expect(typeof created.secret).toBe("string");
    const listed = await (await panel.request("/api/self/oauth2", { token })).json();
    expect(listed).toEqual([{ client_id: created.id, name: "ci", description: "deploys", serverId: null }]);
    expect(JSON.stringify(listed)).not.toContain(created.secret);
    const stored = (await panel.db.$kiln.raw("select secret_hash from oauth2_clients"))[0] as { secret_hash: string };
    expect(stored.secret_hash).toStartWith("$argon2id$");

    const basic = Buffer.from(`${created.id}:${created.secret}`).toString("base64");
    const tokenRes = await panel.request("/oauth2/token", { method: "POST", headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=client_credentials" });
    expect(tokenRes.status).toBe(200);
    expect(tokenRes.headers.get("cache-control")).toBe("no-store");
    const issued = await tokenRes.json();
    expect(issued).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    const self = await panel.request("/api/self", { headers: { authorization: `Bearer ${issued.access_token}` } });
    expect((await self.json()).email).toBe(email);
    expect((await panel.request("/api/users", { headers: { authorization: `Bearer ${issued.access_token}` } })).status).toBe(200);

    // Credentials in the form body work too; a wrong secret does not.
    const form = new URLSearchParams({ grant_type: "client_credentials", client_id: created.id, client_secret: created.secret });
    expect((await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: form.toString() })).status).toBe(200);
    const wrong = new URLSearchParams({ grant_type: "client_credentials", client_id: created.id, client_secret: "nope" });
    const refused = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: wrong.toString() });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "invalid_client" });
    const badGrant = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "grant_type=password" });
    expect(await badGrant.json()).toEqual({ error: "unsupported_grant_type" });

    // Deleting the client ends its tokens.
    expect((await panel.request(`/api/self/oauth2/${created.id}`, { method: "DELETE", token })).status).toBe(204);
    expect((await panel.request("/api/self", { headers: { authorization: `Bearer ${issued.access_token}` } })).status).toBe(401);
    expect(await errorOf(await panel.request(`/api/self/oauth2/${created.id}`, { method: "DELETE", token }))).toEqual({ status: 404, code: "ErrClientNotFound" });
  });

  test("one user cannot delete another's client", async () => {
    const a = await loginAs(panel.db);
    const b = await loginAs(panel.db);
    const created = await (await panel.request("/api/self/oauth2", { ...json("POST", { password: "password123" }), token: a.token })).json();
    expect(await errorOf(await panel.request(`/api/self/oauth2/${created.id}`, { method: "DELETE", token: b.token }))).toEqual({ status: 404, code: "ErrClientNotFound" });
  });
});

describe("invitations", () => {
  test("an invitation arrives by email; the link sets username and password; the account then logs in", async () => {
    const smtp = await startSmtp();
    try {
      const { token } = await loginAs(panel.db, [SCOPES.admin]);
      await panel.request("/api/settings", { ...json("POST", { "panel.email.provider": "smtp", "panel.email.host": `127.0.0.1:${smtp.port}`, "panel.email.from": "kiln@example.com" }), token });
      const res = await panel.request("/api/users", { ...json("POST", { email: "friend@example.com" }), token });
      expect(res.status).toBe(201);
      const body = await res.json();
      expect(body.emailSent).toBe(true);
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual(["friend@example.com"]);
      const mailText = smtp.received[0]!.raw.replace(/=\r?\n/g, "").replace(/=3D/g, "=");
      const link = /http:\/\/localhost\/auth\/invite\?token=[\w-]+/.exec(mailText)![0];
      expect(link).toBe(body.inviteUrl);
      // Invited accounts cannot log in yet, and the link page offers the form.
      const page = await panel.request(link.replace("http://localhost", ""));
      expect(await page.text()).toContain("friend@example.com");
      const tokenParam = new URL(link).searchParams.get("token")!;
      const accepted = await panel.request("/auth/invite", json("POST", { token: tokenParam, username: "friendly", password: "password123" }));
      expect(accepted.status).toBe(200);
      const login = await panel.request("/auth/login", json("POST", { email: "friend@example.com", password: "password123" }));
      expect(login.status).toBe(200);
      // The link is spent.
      expect(await errorOf(await panel.request("/auth/invite", json("POST", { token: tokenParam, username: "friendly2", password: "password123" })))).toEqual({ status: 400, code: "ErrInviteLinkInvalid" });
    } finally {
      await smtp.close();
    }
  });

  test("without email configured, the invite link is handed back instead", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const body = await (await panel.request("/api/users", { ...json("POST", { email: "later@example.com" }), token })).json();
    expect(body.emailSent).toBe(false);
    expect(body.inviteUrl).toContain("/auth/invite?token=");
  });
});
