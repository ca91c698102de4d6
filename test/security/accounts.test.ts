// Attacks on other people's accounts by someone holding users.edit: every path that changes or
// deletes an account (the JSON API, the Users screens' forms, invitations) is tried against an
// administrator and against an account holding a scope the attacker lacks. Each attempt gets a
// catalogue error and leaves the database exactly as it was. Also: nobody raises their own
// scopes, and the last administrator stays.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { createUser } from "../../server/services/users";
import { SCOPES, type Scope } from "../../core/scopes";
import { refusals } from "../helpers/refusal";
import fr from "../../locales/fr.json";
import en from "../../locales/en.json";

let panel: TestPanel;
let admin: Awaited<ReturnType<typeof loginAs>>;
let attacker: Awaited<ReturnType<typeof loginAs>>;
/** holds one scope the attacker lacks (settings.edit), and none that makes them an admin */
let richer: Awaited<ReturnType<typeof loginAs>>;

beforeEach(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
  attacker = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
  richer = await loginAs(panel.db, [SCOPES.usersView, SCOPES.usersEdit, SCOPES.settingsEdit]);
});

const json = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
const form = (fields: Record<string, string | string[]>, headers: Record<string, string> = {}) => {
  const body = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
  return { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML, ...headers }, body: body.toString() };
};

/** Everything an attack could change: accounts (with password hashes and invitation tokens), scopes, sessions. */
async function snapshot() {
  const q = async (sql: string) => (await panel.db.$kiln.raw(sql));
  return {
    users: await q("select id, username, email, password_hash, status, invite_token_hash, invite_expires_at from users order by id"),
    scopes: await q("select user_id, scope from user_scopes order by user_id, scope"),
    sessions: await q("select token_hash, user_id from sessions order by token_hash"),
  };
}

const { refused, refusedForm } = refusals(snapshot);

const HOLDS_MORE = { status: 403, code: "ErrUserHasMorePermissions" };
const HOLDS_MORE_TEXT = en["errors.ErrUserHasMorePermissions"];

describe("a users.edit holder against an account holding more", () => {
  const targets = () => [
    { name: "an administrator", target: admin },
    { name: "an account with a scope the attacker lacks", target: richer },
  ];

  test("API: password, email, username, delete and permissions are refused", async () => {
    for (const { target } of targets()) {
      const as = { token: attacker.token };
      await refused(() => panel.request(`/api/users/${target.userId}`, { ...json("POST", { password: "taken-over-1" }), ...as }), HOLDS_MORE);
      await refused(() => panel.request(`/api/users/${target.userId}`, { ...json("POST", { email: "attacker-inbox@example.com" }), ...as }), HOLDS_MORE);
      await refused(() => panel.request(`/api/users/${target.userId}`, { ...json("POST", { username: "renamed-by-attacker" }), ...as }), HOLDS_MORE);
      await refused(() => panel.request(`/api/users/${target.userId}`, { method: "DELETE", ...as }), HOLDS_MORE);
      // Even taking away a scope the attacker holds (users.view, or admin's everything) is refused.
      await refused(() => panel.request(`/api/users/${target.userId}/perms`, { ...json("PUT", { scopes: [] }), ...as }), HOLDS_MORE);
      // The password attempt did not take: the attacker cannot log in as the target.
      expect((await panel.request("/auth/login", json("POST", { email: target.email, password: "taken-over-1" }))).status).toBe(400);
    }
  });

  test("form routes: the same refusals, translated on the page, and the edit screen is read-only", async () => {
    for (const { target } of targets()) {
      const post = (path: string, fields: Record<string, string | string[]>, headers?: Record<string, string>) => () => panel.request(path, { ...form(fields, headers), token: attacker.token });
      await refusedForm(post(`/user/${target.userId}`, { username: "", email: "attacker-inbox@example.com", password: "taken-over-1" }), 403, HOLDS_MORE_TEXT);
      await refusedForm(post(`/user/${target.userId}/perms`, { scopes: [SCOPES.usersView] }), 403, HOLDS_MORE_TEXT);
      await refusedForm(post(`/user/${target.userId}/delete`, {}), 403, HOLDS_MORE_TEXT);
      await refusedForm(
        post(`/user/${target.userId}/delete`, {}, { "accept-language": "de" }),
        403,
        "Dieser Benutzer besitzt Berechtigungen, die Sie nicht haben, daher können Sie ihn weder ändern noch entfernen",
      );

      const screen = await (await panel.request(`/user/${target.userId}`, { headers: HTML, token: attacker.token })).text();
      expect(screen).toContain("This account holds permissions you do not have, so you cannot change or delete it.");
      expect(screen).not.toContain(`action="/user/${target.userId}/delete"`);
      expect(screen).toContain('<fieldset disabled=""');
    }
  });

  test("invitations: renewing the link of an invited account that holds more is refused", async () => {
    // An administrator invites someone and makes them an administrator before they accept.
    const invited = await (await panel.request("/api/users", { ...json("POST", { email: "future-admin@example.com" }), token: admin.token })).json();
    expect((await panel.request(`/api/users/${invited.id}/perms`, { ...json("PUT", { scopes: [SCOPES.admin] }), token: admin.token })).status).toBe(200);
    // A fresh link would be a way into an administrator account.
    await refused(() => panel.request("/api/users", { ...json("POST", { email: "future-admin@example.com" }), token: attacker.token }), HOLDS_MORE);
    await refusedForm(() => panel.request("/adduser", { ...form({ email: "future-admin@example.com", username: "", password: "" }), token: attacker.token }), 403, HOLDS_MORE_TEXT);
    // The administrator still may.
    const renewed = await panel.request("/api/users", { ...json("POST", { email: "future-admin@example.com" }), token: admin.token });
    expect(renewed.status).toBe(201);
    expect((await renewed.json()).inviteUrl).toContain("/auth/invite?token=");
  });

  test("control: the same attacker may change and delete an account holding no more than they do", async () => {
    const peer = await createUser(panel.db, { username: "peer-account", email: "peer@example.com", password: "password123", scopes: [SCOPES.usersView] });
    const as = { token: attacker.token };
    expect((await panel.request(`/api/users/${peer.id}`, { ...json("POST", { password: "reset-by-peer-1" }), ...as })).status).toBe(200);
    expect((await panel.request(`/api/users/${peer.id}/perms`, { ...json("PUT", { scopes: [SCOPES.usersView, SCOPES.usersEdit] }), ...as })).status).toBe(200);
    expect((await panel.request(`/user/${peer.id}/delete`, { ...form({}), ...as })).status).toBe(303);
    // And an administrator may change the richer account.
    expect((await panel.request(`/api/users/${richer.userId}`, { ...json("POST", { username: "renamed-by-admin" }), token: admin.token })).status).toBe(200);
  });
});

describe("nobody raises their own scopes", () => {
  test("API and form: adding a scope one does not hold to oneself is refused", async () => {
    for (const scope of [SCOPES.settingsEdit, SCOPES.admin] as Scope[]) {
      await refused(
        () => panel.request(`/api/users/${attacker.userId}/perms`, { ...json("PUT", { scopes: [SCOPES.usersView, SCOPES.usersEdit, scope] }), token: attacker.token }),
        { status: 403, code: "ErrMissingScope" },
      );
      await refusedForm(
        () => panel.request(`/user/${attacker.userId}/perms`, { ...form({ scopes: [SCOPES.usersView, SCOPES.usersEdit, scope] }), token: attacker.token }),
        403,
        "You are not authorised to perform this action",
      );
    }
    // Nor by way of an account they manage: giving it a scope the attacker lacks is refused the same way.
    const peer = await createUser(panel.db, { username: "peer-account", email: "peer@example.com", password: "password123" });
    await refused(() => panel.request(`/api/users/${peer.id}/perms`, { ...json("PUT", { scopes: [SCOPES.admin] }), token: attacker.token }), { status: 403, code: "ErrMissingScope" });
  });
});

// A stolen session (or an account-level client's token) of a users.edit holder must not change
// that account's own password or email through the manager's path: the holder gives the current
// password on their account page for that (PUT /api/self), or the account is taken from them.
describe("a users.edit holder's own password and email", () => {
  test("change only with the current password: the manager's API and form refuse them, the username still changes", async () => {
    await refused(() => panel.request(`/api/users/${attacker.userId}`, { ...json("POST", { password: "taken-over-1" }), token: attacker.token }), { status: 403, code: "ErrNoPermission" });
    await refused(() => panel.request(`/api/users/${attacker.userId}`, { ...json("POST", { email: "mallory@example.com" }), token: attacker.token }), { status: 403, code: "ErrNoPermission" });
    await refusedForm(
      () => panel.request(`/user/${attacker.userId}`, { ...form({ username: "renamed-self", email: attacker.email, password: "taken-over-1" }), token: attacker.token }),
      403,
      en["errors.ErrNoPermission"],
    );
    // The form sends the email it shows: unchanged, it is no change; the username is the holder's to change here.
    const renamed = await panel.request(`/user/${attacker.userId}`, { ...form({ username: "renamed-self", email: attacker.email, password: "" }), token: attacker.token });
    expect(renamed.status).toBe(303);
    // The account page, with the current password, is where they change.
    expect((await panel.request("/api/self", { ...json("PUT", { password: "password123", email: "new-me@example.com" }), token: attacker.token })).status).toBe(204);
  });
});

describe("the last administrator stays", () => {
  test("cannot lose the admin scope or be deleted, by API or form; an invited administrator does not count", async () => {
    // The only other administrator is still invited: an invitation can expire unused.
    const pending = await (await panel.request("/api/users", { ...json("POST", { email: "pending-admin@example.com" }), token: admin.token })).json();
    expect((await panel.request(`/api/users/${pending.id}/perms`, { ...json("PUT", { scopes: [SCOPES.admin] }), token: admin.token })).status).toBe(200);

    const LAST = { status: 409, code: "ErrLastAdmin" };
    await refused(() => panel.request(`/api/users/${admin.userId}/perms`, { ...json("PUT", { scopes: [SCOPES.usersView] }), token: admin.token }), LAST);
    await refusedForm(
      () => panel.request(`/user/${admin.userId}/perms`, { ...form({ scopes: SCOPES.usersView }), token: admin.token }),
      409,
      "The last administrator cannot be deleted or lose the administrator permission",
    );
    await refusedForm(
      () => panel.request(`/user/${admin.userId}/perms`, { ...form({ scopes: SCOPES.usersView }, { "accept-language": "fr" }), token: admin.token }),
      409,
      fr["errors.ErrLastAdmin"].replace(/'/g, "&#x27;"),
    );

    // With a second active administrator, one may delete the other; the one left is the last.
    const second = await loginAs(panel.db, [SCOPES.admin]);
    expect((await panel.request(`/api/users/${admin.userId}`, { method: "DELETE", token: second.token })).status).toBe(204);
    await refused(() => panel.request(`/api/users/${second.userId}/perms`, { ...json("PUT", { scopes: [] }), token: second.token }), LAST);
    await refused(() => panel.request(`/api/users/${second.userId}`, { method: "DELETE", token: second.token }), { status: 403, code: "ErrNoPermission" });
    const count = (await panel.db.$kiln.raw("select count(*) as n from user_scopes join users on users.id = user_scopes.user_id where scope = 'servers.admin' and status = 'active'"))[0] as { n: number };
    expect(count.n).toBe(1);
  });
});

describe("a users.edit holder against an account with server flags they lack", () => {
  /** A node row and a server row are all the rule reads; no node needs to answer. */
  async function grant(serverId: string, userId: number, flags: string[]) {
    await panel.db.$kiln.raw("insert into nodes (name, public_host, public_port, private_host, private_port, sftp_port, secret, created_at) values ('n', 'h', 1, 'h', 1, 2, 's', 0) on conflict do nothing");
    await panel.db.$kiln.raw("insert into servers (id, name, node_id, created_at) values (?, ?, (select id from nodes where name = 'n'), 0) on conflict do nothing", [serverId, serverId]);
    await panel.db.$kiln.raw("insert into server_users (server_id, user_id, flags, added_at) values (?, ?, ?, ?) on conflict (server_id, user_id) do update set flags = excluded.flags", [serverId, userId, JSON.stringify(flags), Date.now()]);
  }

  test("taking over an account that reaches a server the attacker cannot is refused; holding the same flags allows it", async () => {
    const player = await loginAs(panel.db, []);
    await grant("srv1", player.userId, ["viewServerConsole", "sendServerConsole"]);
    const as = { token: attacker.token };
    await refused(() => panel.request(`/api/users/${player.userId}`, { ...json("POST", { password: "taken-over-1" }), ...as }), HOLDS_MORE);
    await refused(() => panel.request(`/api/users/${player.userId}`, { method: "DELETE", ...as }), HOLDS_MORE);
    // Holding fewer flags on that server is not enough either.
    await grant("srv1", attacker.userId, ["viewServerConsole"]);
    await refused(() => panel.request(`/api/users/${player.userId}`, { ...json("POST", { password: "taken-over-1" }), ...as }), HOLDS_MORE);
    await grant("srv1", attacker.userId, ["viewServerConsole", "sendServerConsole"]);
    const res = await panel.request(`/api/users/${player.userId}`, { ...json("POST", { password: "changed-by-peer-1" }), ...as });
    expect(res.status).toBe(200);
  });
});
