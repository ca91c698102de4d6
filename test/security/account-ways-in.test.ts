// After a takeover, a password reset by an administrator ended the account's sessions but kept the
// ways in the intruder added: a passkey that still signed in, a linked provider, and a second
// factor that kept the real holder out; no manager could remove them. A manager holding
// users.edit now removes them (services/users/sign-in-ways), one by one or all at once with
// "Secure this account", under the account rule. Attacked by a users.edit holder against an
// administrator, by an OAuth2 client's token, with another account's ids, and on one's own
// account: each refused with the catalogue's error, no row changed.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, flashOf, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { everyRow } from "../helpers/every-row";
import { errorOf, refusals } from "../helpers/refusal";
import { SoftAuthenticator } from "../helpers/soft-authenticator";
import { totpCode } from "../helpers/totp";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";

const ORIGIN = "http://localhost";
let panel: TestPanel;
let admin: { token: string; userId: number; email: string };

beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  await panel.db.insert(schema.authProviders).values({ id: "evil", name: "Evil IdP", type: "oidc", issuer: "https://idp.example", clientId: "c", clientSecret: "s", scopes: "openid", createdAt: Date.now() }).run();
});

/** What an intruder holding the account's password adds: a passkey, two-factor of their own, a linked provider. */
async function takeOver(victim: { token: string; userId: number }, subject = "intruder") {
  const authenticator = new SoftAuthenticator();
  const options = await (await panel.request("/api/self/passkeys/options", { token: victim.token, ...jsonInit("POST", { password: "password123" }) })).json();
  const added = await panel.request("/api/self/passkeys", { token: victim.token, ...jsonInit("POST", { name: "intruder's key", response: authenticator.register(options, ORIGIN) }) });
  expect(added.status).toBe(201);
  const { secret } = await (await panel.request("/api/self/otp", { token: victim.token, method: "POST" })).json();
  expect((await panel.request("/api/self/otp", { token: victim.token, ...jsonInit("PUT", { token: totpCode(secret), password: "password123" }) })).status).toBe(204);
  await panel.db.insert(schema.userIdentities).values({ providerId: "evil", subject, userId: victim.userId, email: "intruder@idp.example", createdAt: Date.now() }).run();
  return { authenticator, passkeyId: (await added.json()).id as string };
}

async function passkeyLogin(authenticator: SoftAuthenticator): Promise<number> {
  const begun = await panel.request("/auth/passkey/options", jsonInit("POST", {}));
  const cookie = (begun.headers.get("set-cookie") ?? "").split(";")[0]!;
  return (await panel.request("/auth/passkey/login", { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ response: authenticator.assert(await begun.json(), ORIGIN) }) })).status;
}

const signedIn = async (token: string) => (await panel.request("/api/self", { token })).status;
const formInit = (token: string, form: Record<string, string>) => ({ token, method: "POST", headers: { ...HTML, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(form).toString() });

describe("after a takeover", () => {
  test("the intruder's passkey still signs in after the administrator's password reset; Secure this account stops it and every other way they added", async () => {
    const victim = await loginAs(panel.db, []);
    const { authenticator } = await takeOver(victim);
    expect((await panel.request(`/api/users/${victim.userId}`, { token: admin.token, ...jsonInit("POST", { password: "reset-by-admin" }) })).status).toBe(200);
    expect(await signedIn(victim.token)).toBe(401);
    // The reset alone leaves the intruder's passkey working.
    expect(await passkeyLogin(authenticator)).toBe(200);

    const secured = await panel.request(`/api/users/${victim.userId}/secure`, { token: admin.token, ...jsonInit("POST", { password: "given-to-owner" }) });
    expect(secured.status).toBe(204);
    expect(await passkeyLogin(authenticator)).toBe(401);
    expect((await panel.db.select().from(schema.passkeys).all()).length).toBe(0);
    expect((await panel.db.select().from(schema.userIdentities).all()).length).toBe(0);
    expect((await panel.db.select().from(schema.recoveryCodes).all()).length).toBe(0);
    const account = await (await panel.request(`/api/users/${victim.userId}`, { token: admin.token })).json();
    expect(account.otpEnabled).toBe(false);
    // Every session and token of the account ended; the holder signs in with the new password, no second factor asked.
    expect((await panel.db.select().from(schema.sessions).all()).every((s) => s.userId !== victim.userId)).toBe(true);
    const login = await panel.request("/auth/login", jsonInit("POST", { email: victim.email, password: "given-to-owner" }));
    expect(login.status).toBe(200);
    const body = await login.json();
    expect(body.otpNeeded).toBeUndefined();
    // The holder sees on the Account page what was removed, and by whom.
    const page = await (await panel.request("/account", { headers: { ...HTML, cookie: `kiln=${body.session}` } })).text();
    expect(page).toContain('data-event="user.secured"');
    expect(page).toContain("intruder&#x27;s key");
  });
});

describe("removing one way in", () => {
  test("each removal is the account's own, is recorded and ends its logins", async () => {
    const victim = await loginAs(panel.db, []);
    const { passkeyId } = await takeOver(victim);
    const other = await loginAs(panel.db, []);
    const { passkeyId: othersPasskey } = await takeOver(other, "other-subject");
    const { refused } = refusals(() => everyRow(panel.db));
    // Another account's passkey and a provider the account has no link to: not found here, nothing changed.
    await refused(() => panel.request(`/api/users/${victim.userId}/passkeys/${encodeURIComponent(othersPasskey)}`, { token: admin.token, method: "DELETE" }), { status: 404, code: "ErrNotFound" });
    await refused(() => panel.request(`/api/users/${victim.userId}/identities/nope`, { token: admin.token, method: "DELETE" }), { status: 404, code: "ErrNotFound" });

    expect((await panel.request(`/api/users/${victim.userId}/passkeys/${encodeURIComponent(passkeyId)}`, { token: admin.token, method: "DELETE" })).status).toBe(204);
    expect(await signedIn(victim.token)).toBe(401);
    expect((await panel.request(`/api/users/${victim.userId}/otp`, { token: admin.token, method: "DELETE" })).status).toBe(204);
    expect(await errorOf(await panel.request(`/api/users/${victim.userId}/otp`, { token: admin.token, method: "DELETE" }))).toEqual({ status: 400, code: "ErrInvalidTokenState" });
    expect((await panel.request(`/api/users/${victim.userId}/identities/evil`, { token: admin.token, method: "DELETE" })).status).toBe(204);
    // The other account kept all of its own.
    expect((await panel.request(`/api/users/${other.userId}/passkeys`, { token: admin.token }).then((r) => r.json())).map((p: { id: string }) => p.id)).toEqual([othersPasskey]);
    expect((await (await panel.request(`/api/users/${other.userId}`, { token: admin.token })).json()).otpEnabled).toBe(true);
    expect(await signedIn(other.token)).toBe(200);
    const events = (await panel.db.select().from(schema.activity).all()).filter((e) => e.subject === String(victim.userId) && e.actorId === String(admin.userId)).map((e) => e.event);
    expect(events).toEqual(["user.passkey.removed", "user.totp.disabled", "user.identity.unlinked"]);
  });

  test("an account keeps one way in: its last provider is not unlinked, and Secure needs a password for an account without one", async () => {
    const victim = await loginAs(panel.db, []);
    await panel.db.update(schema.users).set({ passwordHash: "" }).where(eq(schema.users.id, victim.userId)).run();
    await panel.db.insert(schema.userIdentities).values({ providerId: "evil", subject: "only", userId: victim.userId, email: null, createdAt: Date.now() }).run();
    const { refused } = refusals(() => everyRow(panel.db));
    await refused(() => panel.request(`/api/users/${victim.userId}/identities/evil`, { token: admin.token, method: "DELETE" }), { status: 409, code: "ErrSsoLastLogin" });
    await refused(() => panel.request(`/api/users/${victim.userId}/identities`, { token: admin.token, method: "DELETE" }), { status: 409, code: "ErrSsoLastLogin" });
    await refused(() => panel.request(`/api/users/${victim.userId}/secure`, { token: admin.token, ...jsonInit("POST", {}) }), { status: 409, code: "ErrSsoLastLogin" });
    // With a new password in the same step it goes through.
    expect((await panel.request(`/api/users/${victim.userId}/secure`, { token: admin.token, ...jsonInit("POST", { password: "a-new-password" }) })).status).toBe(204);
    expect((await panel.db.select().from(schema.userIdentities).all()).length).toBe(0);
  });
});

describe("who may not", () => {
  const calls = (id: number, passkey: string) => [
    { method: "DELETE", path: `/api/users/${id}/passkeys` },
    { method: "DELETE", path: `/api/users/${id}/passkeys/${encodeURIComponent(passkey)}` },
    { method: "DELETE", path: `/api/users/${id}/otp` },
    { method: "DELETE", path: `/api/users/${id}/identities` },
    { method: "DELETE", path: `/api/users/${id}/identities/evil` },
    { method: "POST", path: `/api/users/${id}/secure`, body: { password: "mallory-password", deleteClients: true } },
  ];
  const forms = (id: number, passkey: string) => [`/user/${id}/passkeys/delete`, `/user/${id}/passkeys/${encodeURIComponent(passkey)}/delete`, `/user/${id}/otp/delete`, `/user/${id}/identities/delete`, `/user/${id}/identities/evil/delete`, `/user/${id}/secure`];

  test("a users.edit holder reaches no administrator's ways in, by API or form", async () => {
    const target = await loginAs(panel.db, [SCOPES.admin]);
    const { passkeyId } = await takeOver(target);
    const manager = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const { refused, refusedForm } = refusals(() => everyRow(panel.db));
    for (const call of calls(target.userId, passkeyId)) {
      await refused(() => panel.request(call.path, { token: manager.token, ...(call.body ? jsonInit(call.method, call.body) : { method: call.method }) }), { status: 403, code: "ErrUserHasMorePermissions" });
    }
    for (const path of forms(target.userId, passkeyId)) {
      await refusedForm(() => panel.request(path, formInit(manager.token, { ack: "on", password: "mallory-password" })), 403, "role=\"alert\"");
    }
    // The card shows, without its buttons.
    const page = await (await panel.request(`/user/${target.userId}`, { token: manager.token, headers: HTML })).text();
    expect(page).toContain('data-testid="user-sign-in"');
    expect(page).not.toContain(`/user/${target.userId}/secure`);
  });

  test("an OAuth2 client's token changes no account's ways in, not even with its owner's users.edit", async () => {
    const target = await loginAs(panel.db, []);
    const { passkeyId } = await takeOver(target);
    const client = await (await panel.request("/api/self/oauth2", { token: admin.token, ...jsonInit("POST", { name: "bot", password: "password123" }) })).json();
    const issued = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}` });
    const bearer = `Bearer ${(await issued.json()).access_token}`;
    const { refused } = refusals(() => everyRow(panel.db));
    for (const call of calls(target.userId, passkeyId)) {
      await refused(() => panel.request(call.path, { method: call.method, headers: { authorization: bearer, "content-type": "application/json" }, body: call.body ? JSON.stringify(call.body) : undefined }), { status: 403, code: "ErrNoPermission" });
    }
  });

  test("nobody strips their own account here (the Account page changes it, with proof)", async () => {
    const { passkeyId } = await takeOver(admin);
    const { refused } = refusals(() => everyRow(panel.db));
    for (const call of calls(admin.userId, passkeyId)) {
      await refused(() => panel.request(call.path, { token: admin.token, ...(call.body ? jsonInit(call.method, call.body) : { method: call.method }) }), { status: 403, code: "ErrNoPermission" });
    }
  });
});

describe("the user page's card", () => {
  test("lists the ways in, removes with the acknowledgement ticked, and secures", async () => {
    const victim = await loginAs(panel.db, []);
    const { passkeyId } = await takeOver(victim);
    const page = await (await panel.request(`/user/${victim.userId}`, { token: admin.token, headers: HTML })).text();
    expect(page).toContain("intruder&#x27;s key");
    expect(page).toContain("Evil IdP");
    expect(page).toContain(`/user/${victim.userId}/otp/delete`);
    const { refusedForm } = refusals(() => everyRow(panel.db));
    // Without the ticked acknowledgement nothing goes.
    await refusedForm(() => panel.request(`/user/${victim.userId}/passkeys/${encodeURIComponent(passkeyId)}/delete`, formInit(admin.token, {})), 400, "role=\"alert\"");
    const removed = await panel.request(`/user/${victim.userId}/passkeys/${encodeURIComponent(passkeyId)}/delete`, formInit(admin.token, { ack: "on" }));
    expect(removed.status).toBe(303);
    expect(flashOf(removed)).toBe("account.passkeys.removed");
    const secured = await panel.request(`/user/${victim.userId}/secure`, formInit(admin.token, { ack: "on", deleteClients: "on" }));
    expect(secured.status).toBe(303);
    expect(flashOf(secured)).toBe("users.secure.done");
    expect((await (await panel.request(`/api/users/${victim.userId}`, { token: admin.token })).json()).otpEnabled).toBe(false);
    expect((await panel.db.select().from(schema.userIdentities).all()).length).toBe(0);
  });
});
