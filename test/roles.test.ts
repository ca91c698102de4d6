// Roles: named sets of scopes. An account's scopes are its own and its roles'; the permissions form
// edits its own; the outrank rule holds for roles as for scopes (making, changing, deleting,
// granting and taking away a role needs every scope in it).
import { describe, expect, test } from "bun:test";
import { testPanel, loginAs } from "./helpers/app";
import { SCOPES } from "../core/scopes";

const panel = await testPanel();
const admin = await loginAs(panel.db, [SCOPES.admin]);
const call = (method: string, path: string, token: string, body?: unknown) =>
  panel.request(path, { method, token, headers: { "content-type": "application/json", origin: "http://localhost" }, body: body === undefined ? undefined : JSON.stringify(body) });
const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

describe("roles", () => {
  test("a role's scopes are its holders'; the permissions form keeps editing their own", async () => {
    const made = await call("POST", "/api/roles", admin.token, { name: "moderators", scopes: ["users.view", "servers.view"] });
    expect(made.status).toBe(201);
    const role = (await made.json()) as { id: number };
    const user = await loginAs(panel.db, ["templates.view"]);
    expect((await call("PUT", `/api/users/${user.userId}/roles`, admin.token, { roles: [role.id] })).status).toBe(200);
    expect(((await (await call("GET", "/api/self", user.token)).json()) as { scopes: string[] }).scopes).toEqual(["servers.view", "templates.view", "users.view"]);
    expect(((await (await call("GET", `/api/users/${user.userId}/perms`, admin.token)).json()) as { scopes: string[] }).scopes).toEqual(["templates.view"]);
    // Setting the account's own scopes leaves its role's alone.
    expect((await call("PUT", `/api/users/${user.userId}/perms`, admin.token, { scopes: [] })).status).toBeLessThan(300);
    expect(((await (await call("GET", "/api/self", user.token)).json()) as { scopes: string[] }).scopes).toEqual(["servers.view", "users.view"]);
    // A deleted role's scopes go from its holders at once.
    expect((await call("DELETE", `/api/roles/${role.id}`, admin.token)).status).toBe(204);
    expect(((await (await call("GET", "/api/self", user.token)).json()) as { scopes: string[] }).scopes).toEqual([]);
  });

  test("nobody makes, changes, deletes, grants or takes away a role holding a scope they lack", async () => {
    const strong = (await (await call("POST", "/api/roles", admin.token, { name: "node-admins", scopes: ["nodes.edit", "users.view"] })).json()) as { id: number };
    const editor = await loginAs(panel.db, ["users.view", "users.edit"]);
    const target = await loginAs(panel.db, []);
    expect(await codeOf(await call("POST", "/api/roles", editor.token, { name: "sneaky", scopes: ["servers.admin"] }))).toBe("ErrMissingScope");
    expect(await codeOf(await call("PUT", `/api/users/${target.userId}/roles`, editor.token, { roles: [strong.id] }))).toBe("ErrMissingScope");
    expect(await codeOf(await call("PUT", `/api/roles/${strong.id}`, editor.token, { name: "node-admins", scopes: ["users.view"] }))).toBe("ErrMissingScope");
    expect(await codeOf(await call("DELETE", `/api/roles/${strong.id}`, editor.token))).toBe("ErrMissingScope");
    // An editor may not raise themselves either.
    expect(await codeOf(await call("PUT", `/api/users/${editor.userId}/roles`, editor.token, { roles: [strong.id] }))).toBe("ErrMissingScope");
    expect(((await (await call("GET", `/api/users/${target.userId}/roles`, admin.token)).json()) as { roles: unknown[] }).roles).toEqual([]);
    // A role the editor outranks is theirs to grant.
    const light = (await (await call("POST", "/api/roles", editor.token, { name: "viewers", scopes: ["users.view"] })).json()) as { id: number };
    expect((await call("PUT", `/api/users/${target.userId}/roles`, editor.token, { roles: [light.id] })).status).toBe(200);
    // Taking away a role held by someone who outranks the editor is refused too (the account is not theirs to manage).
    await call("PUT", `/api/users/${target.userId}/roles`, admin.token, { roles: [light.id, strong.id] });
    expect(await codeOf(await call("PUT", `/api/users/${target.userId}/roles`, editor.token, { roles: [] }))).toBe("ErrUserHasMorePermissions");
  });

  test("a role name is unique; unknown scopes and roles are refused", async () => {
    await call("POST", "/api/roles", admin.token, { name: "dupe", scopes: [] });
    expect((await call("POST", "/api/roles", admin.token, { name: "dupe", scopes: [] })).status).toBe(400);
    expect((await call("POST", "/api/roles", admin.token, { name: "odd", scopes: ["root.everything"] })).status).toBe(400);
    const user = await loginAs(panel.db, []);
    expect((await call("PUT", `/api/users/${user.userId}/roles`, admin.token, { roles: [999999] })).status).toBe(404);
  });
});
