// Attacks on roles and the Sign-in settings by whoever holds the least right that reaches them: a
// user editor raising themselves or another through a role, changing or deleting a role they do
// not outrank, a non-administrator posting the Sign-in forms (a provider, SSO-only mode, a preview)
// and hostile values in them. Each is refused with a catalogue error and changes nothing.
import { expect, test } from "bun:test";
import { schema } from "../../db";
import { testPanel, loginAs, HTML } from "../helpers/app";
import { SCOPES } from "../../core/scopes";
import { refusals } from "../helpers/refusal";

const panel = await testPanel();
const admin = await loginAs(panel.db, [SCOPES.admin]);
const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
const snapshot = async () => ({
  roles: await panel.db.select().from(schema.roles).all(),
  userRoles: await panel.db.select().from(schema.userRoles).all(),
  providers: await panel.db.select().from(schema.authProviders).all(),
  settings: await panel.db.select().from(schema.settings).all(),
});
const { refused } = refusals(snapshot);
const json = (method: string, path: string, token: string, body?: unknown) =>
  panel.request(path, { method, token, headers: { "content-type": "application/json", origin: "http://localhost" }, body: body === undefined ? undefined : JSON.stringify(body) });
const form = (path: string, token: string, fields: Record<string, string>) =>
  panel.request(path, { method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", ...HTML }, body: new URLSearchParams(fields).toString() });

const strong = (await (await json("POST", "/api/roles", admin.token, { name: "owners", scopes: [SCOPES.admin] })).json()) as { id: number };

test("a user editor cannot make, change, delete or hand out a role holding more than they hold", async () => {
  await refused(() => json("POST", "/api/roles", editor.token, { name: "mine", scopes: [SCOPES.admin] }), { status: 403, code: "ErrMissingScope" });
  await refused(() => json("PUT", `/api/roles/${strong.id}`, editor.token, { name: "owners", scopes: [] }), { status: 403, code: "ErrMissingScope" });
  await refused(() => json("DELETE", `/api/roles/${strong.id}`, editor.token), { status: 403, code: "ErrMissingScope" });
  await refused(() => json("PUT", `/api/users/${editor.userId}/roles`, editor.token, { roles: [strong.id] }), { status: 403, code: "ErrMissingScope" });
});

test("hostile role bodies: wrong shapes, unknown scopes, huge lists", async () => {
  for (const body of [{ name: "", scopes: [] }, { name: "x", scopes: "servers.admin" }, { name: "x", scopes: ["no.such"] }, { name: "x".repeat(500), scopes: [] }, { name: "x", scopes: Array(100).fill("users.view") }]) {
    const res = await json("POST", "/api/roles", admin.token, body);
    expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
  }
  for (const roles of ["1", [-1], [1.5], Array(200).fill(1), [{ id: 1 }]]) {
    await refused(() => json("PUT", `/api/users/${editor.userId}/roles`, admin.token, { roles }), { status: 400, code: "ErrFieldNotBetween" });
  }
});

test("the Sign-in settings are an administrator's: nobody else adds a provider, turns SSO-only on or runs a preview", async () => {
  const settingsEditor = await loginAs(panel.db, [SCOPES.settingsEdit]);
  for (const token of [editor.token, settingsEditor.token]) {
    expect((await panel.request("/settings/sso", { token, headers: HTML })).status).toBe(403);
    await refused(() => form("/settings/sso", token, { id: "evil", name: "Evil", type: "oidc", issuer: "https://evil.example", clientId: "a", clientSecret: "b" }), { status: 403, code: "ErrMissingScope" });
    await refused(() => form("/settings/sso/mode", token, { ssoOnly: "true", breakGlassUserId: String(editor.userId) }), { status: 403, code: "ErrMissingScope" });
    await refused(() => json("PUT", "/api/settings", token, { ssoOnly: true, breakGlassUserId: admin.userId }), { status: 403, code: "ErrMissingScope" });
    await refused(() => json("POST", "/api/auth/providers/any/preview", token, { claims: {} }), { status: 403, code: "ErrMissingScope" });
  }
});

test("hostile Sign-in form values are refused on the page and change nothing", async () => {
  for (const fields of <Record<string, string>[]>[
    { id: "../x", name: "X", type: "oidc", issuer: "https://idp.example", clientId: "a", clientSecret: "b" },
    { id: "ok", name: "X", type: "saml", issuer: "https://idp.example", clientId: "a", clientSecret: "b" },
    { id: "ok", name: "X", type: "oidc", issuer: "file:///etc/passwd", clientId: "a", clientSecret: "b" },
    { id: "ok", name: "X", type: "oidc", issuer: "https://idp.example", clientId: "a", clientSecret: "b", rules: "not json" },
    { id: "ok", name: "X", type: "oidc", issuer: "https://idp.example", clientId: "a", clientSecret: "b", rules: '[{"match":{"claim":"groups","exists":true},"grant":{"scopes":["root.everything"]}}]' },
  ]) {
    const before = await snapshot();
    const res = await form("/settings/sso", admin.token, fields);
    expect(res.status, JSON.stringify(fields)).toBe(400);
    expect(await res.text()).toContain('class="alert alert-error"');
    expect(await snapshot()).toEqual(before);
  }
});
