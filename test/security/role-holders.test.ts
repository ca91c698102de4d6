// Attacks through roles and invitations, found by a review:
// - a user editor who may not manage a colleague (the colleague holds a scope the editor lacks)
//   demoted them, or gave them rights, by editing or deleting a role the colleague holds: each
//   holder of a role must now be an account the actor may manage;
// - the break-glass administrator of SSO-only mode, holding the admin scope only through a role,
//   lost it when the role was taken away: it must now be an administrator in its own right;
// - an invitation accepted while SSO-only mode is on gave a password session: the account is
//   made, and signs in through a provider like everyone else.
import { beforeAll, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { SCOPES } from "../../core/scopes";
import { scopesOf } from "../../server/services/users/queries";
import { createUser } from "../../server/services/users";

let panel: TestPanel;
let admin: { token: string; userId: number };
beforeAll(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
});

const json = (method: string, path: string, token: string | undefined, body?: unknown) => panel.request(path, { method, token, headers: { "content-type": "application/json", origin: "http://localhost" }, body: body === undefined ? undefined : JSON.stringify(body) });
const codeOf = async (res: Response) => ((await res.json()) as { error?: { code: string } }).error?.code;

test("a role held by an account the editor may not manage is neither changed nor deleted by them", async () => {
  const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  const colleague = await loginAs(panel.db, [SCOPES.settingsEdit]);
  const staff = (await (await json("POST", "/api/roles", admin.token, { name: "staff", scopes: [SCOPES.usersView, SCOPES.usersEdit] })).json()) as { id: number };
  expect((await json("PUT", `/api/users/${colleague.userId}/roles`, admin.token, { roles: [staff.id] })).status).toBe(200);
  const before = await scopesOf(panel.db, colleague.userId);
  for (const [method, body] of [["PUT", { name: "staff", scopes: [] }], ["PUT", { name: "staff", scopes: [SCOPES.usersView] }], ["DELETE", undefined]] as const) {
    const refused = await json(method, `/api/roles/${staff.id}`, editor.token, body);
    expect({ status: refused.status, code: await codeOf(refused) }).toEqual({ status: 403, code: "ErrUserHasMorePermissions" });
  }
  expect(await scopesOf(panel.db, colleague.userId)).toEqual(before);
  // Renaming changes no one's rights; a role held by no one out of reach is the editor's to change.
  expect((await json("PUT", `/api/roles/${staff.id}`, editor.token, { name: "staff members", scopes: [SCOPES.usersView, SCOPES.usersEdit] })).status).toBe(200);
  const own = (await (await json("POST", "/api/roles", editor.token, { name: "viewers", scopes: [SCOPES.usersView] })).json()) as { id: number };
  expect((await json("PUT", `/api/roles/${own.id}`, editor.token, { name: "viewers", scopes: [] })).status).toBe(200);
  expect((await json("DELETE", `/api/roles/${own.id}`, editor.token)).status).toBe(204);
});

test("the break-glass administrator must be one in its own right, not through a role", async () => {
  const { id: throughRole } = await createUser(panel.db, { email: "bg@example.com", username: "breakglass", password: "password123", scopes: [] });
  const owners = (await (await json("POST", "/api/roles", admin.token, { name: "owners", scopes: [SCOPES.admin] })).json()) as { id: number };
  expect((await json("PUT", `/api/users/${throughRole}/roles`, admin.token, { roles: [owners.id] })).status).toBe(200);
  expect(await scopesOf(panel.db, throughRole)).toContain(SCOPES.admin);
  const refused = await json("PUT", "/api/settings", admin.token, { ssoOnly: true, breakGlassUserId: throughRole });
  expect({ status: refused.status, code: await codeOf(refused) }).toEqual({ status: 400, code: "ErrFieldNotBetween" });
  expect((await json("PUT", "/api/settings", admin.token, { ssoOnly: true, breakGlassUserId: admin.userId })).status).toBe(204);
  expect((await json("PUT", "/api/settings", admin.token, { ssoOnly: false })).status).toBe(204);
});

test("an invitation accepted in SSO-only mode makes the account and no password session", async () => {
  const editor = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  expect((await json("PUT", "/api/settings", admin.token, { ssoOnly: true, breakGlassUserId: admin.userId })).status).toBe(204);
  try {
    for (const [email, form] of [["newbie@example.com", true], ["newbie2@example.com", false]] as const) {
      const invited = (await (await json("POST", "/api/users", editor.token, { email })).json()) as { inviteUrl: string };
      const token = new URL(invited.inviteUrl).searchParams.get("token")!;
      const fields = { token, username: email.split("@")[0]!, password: "password123", passwordConfirm: "password123" };
      const accepted = form
        ? await panel.request("/auth/invite", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" }, body: new URLSearchParams(fields).toString() })
        : await json("POST", "/auth/invite", undefined, fields);
      expect(accepted.headers.getSetCookie().some((cookie) => /^kiln=[^;]+/.test(cookie) && !/^kiln=;/.test(cookie))).toBe(false);
      if (form) expect([accepted.status, accepted.headers.get("location")]).toEqual([303, "/auth/login"]);
      else expect(await accepted.json()).toEqual({ ssoOnly: true });
      // The account was made: its username is taken now.
      const row = await panel.db.select({ status: schema.users.status }).from(schema.users).where(eq(schema.users.email, email)).get();
      expect(row?.status).toBe("active");
    }
  } finally {
    expect((await json("PUT", "/api/settings", admin.token, { ssoOnly: false })).status).toBe(204);
  }
});
