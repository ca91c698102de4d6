// Attacks on rights a sign-in rule granted and on the Roles screens, by whoever holds the least
// right that reaches them: a user viewer or a user editor who does not outrank the account
// detaching a rule's right (keeping it past the provider's say) or editing it by hand through a
// forged form (a locked box left out), hostile detach bodies, and the Roles forms posted by an
// editor who lacks a role's scopes. Each is refused with a catalogue error and changes nothing.
import { expect, test } from "bun:test";
import { schema } from "../../db";
import { testPanel, loginAs, HTML } from "../helpers/app";
import { SCOPES } from "../../core/scopes";
import { refusals } from "../helpers/refusal";
import { createProvider } from "../../server/services/sso/providers";

const panel = await testPanel();
const admin = await loginAs(panel.db, [SCOPES.admin]);
const viewer = await loginAs(panel.db, [SCOPES.usersView]);
const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
// An account a rule made a node viewer and a user editor: the editor above does not outrank it (nodes.view).
const member = await loginAs(panel.db, []);
await createProvider(panel.db, { scopes: [SCOPES.admin] }, { id: "kc", name: "Keycloak", type: "oidc", issuer: "http://127.0.0.1:9", clientId: "a", clientSecret: "b" });
for (const scope of [SCOPES.nodesView, SCOPES.templatesView]) {
  await panel.db.insert(schema.userScopes).values({ userId: member.userId, scope }).run();
  await panel.db.insert(schema.ssoGrants).values({ userId: member.userId, providerId: "kc", rule: "r1", kind: "scope", value: scope }).run();
}
const strong = (await (await panel.request("/api/roles", { method: "POST", token: admin.token, headers: { "content-type": "application/json" }, body: JSON.stringify({ name: "owners", scopes: [SCOPES.admin] }) })).json()) as { id: number };

const snapshot = async () => ({
  grants: await panel.db.select().from(schema.ssoGrants).all(),
  scopes: await panel.db.select().from(schema.userScopes).all(),
  roles: await panel.db.select().from(schema.roles).all(),
  userRoles: await panel.db.select().from(schema.userRoles).all(),
});
const { refused, refusedForm } = refusals(snapshot);
const json = (path: string, token: string, body: unknown) => panel.request(path, { method: "POST", token, headers: { "content-type": "application/json", origin: "http://localhost" }, body: JSON.stringify(body) });
const form = (path: string, token: string, fields: [string, string][]) =>
  panel.request(path, { method: "POST", token, headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost", ...HTML }, body: new URLSearchParams(fields).toString() });

test("only someone who may manage the account detaches a rule's right", async () => {
  await refused(() => json(`/api/users/${member.userId}/grants/detach`, viewer.token, { kind: "scope", value: SCOPES.nodesView }), { status: 403, code: "ErrMissingScope" });
  await refused(() => json(`/api/users/${member.userId}/grants/detach`, editor.token, { kind: "scope", value: SCOPES.nodesView }), { status: 403, code: "ErrUserHasMorePermissions" });
  await refusedForm(() => form(`/user/${member.userId}/grants/detach`, editor.token, [["kind", "scope"], ["value", SCOPES.nodesView]]), 403, "holds permissions you do not have");
});

// Detaching one's own rule-granted rights would keep them after leaving the provider's group.
test("nobody detaches a right a rule granted themselves, by API or form, whatever they hold", async () => {
  const granted = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  await panel.db.insert(schema.userScopes).values({ userId: granted.userId, scope: SCOPES.nodesEdit }).run();
  await panel.db.insert(schema.ssoGrants).values({ userId: granted.userId, providerId: "kc", rule: "r2", kind: "scope", value: SCOPES.nodesEdit }).run();
  await refused(() => json(`/api/users/${granted.userId}/grants/detach`, granted.token, { kind: "scope", value: SCOPES.nodesEdit }), { status: 403, code: "ErrNoPermission" });
  await refusedForm(() => form(`/user/${granted.userId}/grants/detach`, granted.token, [["kind", "scope"], ["value", SCOPES.nodesEdit]]), 403, "You do not have permission");
  const ownAdmin = await loginAs(panel.db, [SCOPES.admin]);
  await panel.db.insert(schema.ssoGrants).values({ userId: ownAdmin.userId, providerId: "kc", rule: "r3", kind: "scope", value: SCOPES.admin }).run();
  await refused(() => json(`/api/users/${ownAdmin.userId}/grants/detach`, ownAdmin.token, { kind: "scope", value: SCOPES.admin }), { status: 403, code: "ErrNoPermission" });
  // Another who may manage the account detaches it.
  expect((await json(`/api/users/${ownAdmin.userId}/grants/detach`, admin.token, { kind: "scope", value: SCOPES.admin })).status).toBe(204);
});

test("hostile detach bodies: unknown kinds, wrong types, another account's right, a right no rule holds", async () => {
  for (const body of [{ kind: "admin", value: SCOPES.nodesView }, { kind: "scope", value: ["x"] }, { kind: "scope", value: "x".repeat(500) }, { kind: "flag", value: "startServer", serverId: { $ne: "" } }]) {
    await refused(() => json(`/api/users/${member.userId}/grants/detach`, admin.token, body), { status: 400, code: "ErrFieldNotBetween" });
  }
  await refused(() => json(`/api/users/${editor.userId}/grants/detach`, admin.token, { kind: "scope", value: SCOPES.nodesView }), { status: 404, code: "ErrNotFound" });
  await refused(() => json(`/api/users/${member.userId}/grants/detach`, admin.token, { kind: "scope", value: SCOPES.usersView }), { status: 404, code: "ErrNotFound" });
});

test("a forged permissions form that leaves a rule's scope out is refused, not obeyed", async () => {
  // The page sends a locked scope with a hidden field; a forged post omits it to take the scope away.
  await refusedForm(() => form(`/user/${member.userId}/perms`, admin.token, [["scopes", SCOPES.templatesView]]), 409, "Keycloak");
  await refused(() => panel.request(`/api/users/${member.userId}/perms`, { method: "PUT", token: admin.token, headers: { "content-type": "application/json" }, body: JSON.stringify({ scopes: [] }) }), { status: 409, code: "ErrGrantedByRule" });
});

test("the Roles screens hold the outrank rule: an editor cannot make, change, delete or hand out a role above them", async () => {
  await refusedForm(() => form("/roles", editor.token, [["name", "mine"], ["scopes", SCOPES.admin]]), 403, "not authorised");
  await refusedForm(() => form(`/roles/${strong.id}`, editor.token, [["name", "owners"]]), 403, "not authorised");
  await refusedForm(() => form(`/roles/${strong.id}/delete`, editor.token, []), 403, "not authorised");
  await refusedForm(() => form(`/user/${editor.userId}/roles`, editor.token, [["roles", String(strong.id)]]), 403, "not authorised");
  await refused(() => form("/roles", viewer.token, [["name", "mine"]]), { status: 403, code: "ErrMissingScope" });
  // The page shows that role read-only to the editor.
  const page = await (await panel.request(`/roles/${strong.id}`, { token: editor.token, headers: HTML })).text();
  expect(page).toContain("you cannot change or delete it");
  expect(page).not.toContain(`action="/roles/${strong.id}/delete"`);
});

test("hostile Roles form values: an unknown scope, an empty or huge name, a role id that is not one", async () => {
  for (const fields of <[string, string][][]>[[["name", "x"], ["scopes", "root.everything"]], [["name", ""]], [["name", "x".repeat(500)]]]) {
    const before = await snapshot();
    const res = await form("/roles", admin.token, fields);
    expect(res.status, JSON.stringify(fields)).toBe(400);
    expect(await res.text()).toContain('class="alert alert-error"');
    expect(await snapshot()).toEqual(before);
  }
  for (const path of ["/roles/abc", "/roles/99999", "/roles/1e3"]) expect((await panel.request(path, { token: admin.token, headers: HTML })).status).toBe(404);
  await refusedForm(() => form(`/user/${member.userId}/roles`, admin.token, [["roles", "not-a-number"]]), 400, "alert-error");
});
