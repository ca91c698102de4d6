// Attack: a stranger taking a name that passes for an administrator's, or one no screen can show.
// Usernames were unique only as spelled, so beside "kiln-admin" a self-registration, an invitation's
// acceptance or a rename could take "Kiln-Admin" or "KILN-ADMIN", which every list of users, the
// server users tab and the activity log then showed as if it were the administrator; and a
// username had no upper bound (a registration could store a 16 MiB one). Now a username is one
// account's whatever its letter case, and at most MAX_USERNAME_LENGTH characters (ErrFieldTooLarge).
import { beforeEach, describe, expect, test } from "bun:test";
import { count } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { MAX_USERNAME_LENGTH } from "../../core/validation/account";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";
import { createUser } from "../../server/services/users";
import { SETTING_KEYS, writeSettings } from "../../server/services/settings";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
  await createUser(panel.db, { username: "kiln-admin", email: "admin@example.com", password: "password123", scopes: [SCOPES.admin] });
  await writeSettings(panel.db, { scopes: [SCOPES.admin] }, { [SETTING_KEYS.registrationEnabled]: "true" }, { themes: ["kiln"] });
});

const accounts = async () => (await panel.db.select({ n: count() }).from(schema.users).get())!.n;
const register = (username: string) => panel.request("/auth/register", jsonInit("POST", { username, email: `${username.length}-${Math.random()}@example.com`.slice(0, 60), password: "password123" }));

async function invitation(): Promise<string> {
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  const res = await panel.request("/api/users", { token: admin.token, ...jsonInit("POST", { email: `invited${Math.random()}@example.com` }) });
  return new URL((await res.json()).inviteUrl).searchParams.get("token")!;
}

describe("a username that passes for an administrator's", () => {
  test.each(["Kiln-Admin", "KILN-ADMIN", "kiln-ADMIN"])("%s: self-registration is refused, no account", async (name) => {
    const before = await accounts();
    expect(await errorOf(await register(name))).toEqual({ status: 400, code: "ErrSavingInviteduser" });
    expect(await accounts()).toBe(before);
  });

  test("accepting an invitation with it is refused, and the invitation stays open", async () => {
    const token = await invitation();
    expect((await errorOf(await panel.request("/auth/invite", jsonInit("POST", { token, username: "Kiln-Admin", password: "password123" })))).code).toBe("ErrDuplicateUser");
    expect((await panel.request("/auth/invite", jsonInit("POST", { token, username: "kiln-guest", password: "password123" }))).status).toBe(200);
  });

  test("renaming one's own account to it is refused", async () => {
    const user = await loginAs(panel.db);
    const res = await panel.request("/api/self", { token: user.token, ...jsonInit("PUT", { username: "KILN-ADMIN", password: "password123" }) });
    expect((await errorOf(res)).code).toBe("ErrDuplicateUser");
  });
});

describe("a username no screen can show", () => {
  test("past the bound, registration and acceptance are refused; at it, taken", async () => {
    const before = await accounts();
    expect(await errorOf(await register("x".repeat(1024 * 1024)))).toEqual({ status: 400, code: "ErrFieldTooLarge" });
    expect(await errorOf(await register("y".repeat(MAX_USERNAME_LENGTH + 1)))).toEqual({ status: 400, code: "ErrFieldTooLarge" });
    expect(await accounts()).toBe(before);
    const token = await invitation();
    expect(await errorOf(await panel.request("/auth/invite", jsonInit("POST", { token, username: "z".repeat(MAX_USERNAME_LENGTH + 1), password: "password123" })))).toEqual({ status: 400, code: "ErrFieldTooLarge" });
    expect((await register("w".repeat(MAX_USERNAME_LENGTH))).status).toBe(200);
  });
});
