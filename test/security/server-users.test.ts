// Attacks on a server's users by someone holding editServerUsers there (and no panel scope):
// handing out flags they lack, taking away flags they lack (the owner's), removing a user who
// holds more, and minting a panel account through an invitation. Every path (the JSON API and
// the users tab's plain forms) answers with a catalogue error and changes nothing.
import { describe, expect, test } from "bun:test";
import { loginAs } from "../helpers/app";
import { panelPerTest, jsonInit, formInit, type PanelWithNode } from "../helpers/panel-node";
import { startSmtp } from "../helpers/smtp";
import { freePort } from "../helpers/process";
import { SCOPES, SERVER_FLAGS } from "../../core/scopes";
import { INVITATIONS_PER_DAY } from "../../server/services/users/invite-quota";
import { refusals } from "../helpers/refusal";
import fr from "../../locales/fr.json";
import en from "../../locales/en.json";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

const all = Object.fromEntries(SERVER_FLAGS.map((f) => [f, true]));

/** A server owned by a plain user (every flag), and a manager holding editServerUsers and viewServerConsole only. */
async function sharedServer() {
  const owner = await loginAs(ctx.panel.db, []);
  const id = await ctx.createServer("Shared", { user: owner.email });
  const manager = await ctx.userWith(id, { editServerUsers: true, viewServerConsole: true });
  return { id, owner, manager };
}

/** Everything an attack could change: accounts (with invitations) and who holds what on which server. */
async function snapshot() {
  const q = async (sql: string) => (await ctx.panel.db.$kiln.raw(sql));
  return {
    users: await q("select id, email, status, password_hash, invite_token_hash from users order by id"),
    serverUsers: await q("select server_id, user_id, flags from server_users order by server_id, user_id"),
  };
}

const { refused, refusedForm } = refusals(snapshot);

const put = (id: string, email: string, body: Record<string, unknown>, token: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", body) });
const remove = (id: string, email: string, token: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, method: "DELETE" });
const post = (path: string, fields: Record<string, string>, token: string, headers: Record<string, string> = {}) => {
  const init = formInit(fields);
  return ctx.panel.request(path, { ...init, headers: { ...init.headers, ...headers }, token });
};

/** Points the panel's email at an SMTP server (admin settings). */
async function useSmtp(port: number) {
  const res = await ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("POST", { "panel.email.provider": "smtp", "panel.email.host": `127.0.0.1:${port}`, "panel.email.from": "kiln@example.com" }) });
  expect(res.status).toBe(204);
}

/** The address invitation links point to (admin settings): a per-server user's invitation needs it. */
async function useMasterUrl() {
  expect((await ctx.panel.request("/api/settings", { token: ctx.admin.token, ...jsonInit("POST", { "panel.settings.masterUrl": "https://panel.example.com" }) })).status).toBe(204);
}

const NO_PERMISSION = { status: 403, code: "ErrNoPermission" };
const HOLDS_MORE = { status: 403, code: "ErrUserHasMorePermissions" };

describe("flags: only within what the caller holds", () => {
  test("API: granting beyond, taking away the owner's flags, removing the owner", async () => {
    const { id, owner, manager } = await sharedServer();
    const friend = await loginAs(ctx.panel.db, []);
    // Grant a flag the manager lacks, to an existing account and to themselves.
    await refused(() => put(id, friend.email, { deleteServer: true }, manager.token), NO_PERMISSION);
    await refused(() => put(id, manager.email, { editServerUsers: true, viewServerConsole: true, sendServerConsole: true }, manager.token), NO_PERMISSION);
    // `{}` would take away every flag of the owner, most of which the manager lacks.
    await refused(() => put(id, owner.email, {}, manager.token), NO_PERMISSION);
    // Even keeping the others, taking away one the manager lacks is refused.
    await refused(() => put(id, owner.email, { ...all, sendServerConsole: false }, manager.token), NO_PERMISSION);
    await refused(() => remove(id, owner.email, manager.token), HOLDS_MORE);

    // Control: changing only what the manager holds works, and leaves the rest as it was.
    expect((await put(id, owner.email, { ...all, viewServerConsole: false }, manager.token)).status).toBe(204);
    const owners = (await (await ctx.panel.request(`/api/servers/${id}?perms`, { token: owner.token })).json()).permissions;
    expect(owners).toEqual({ ...all, viewServerConsole: false });
    expect((await put(id, friend.email, { viewServerConsole: true }, manager.token)).status).toBe(204);
    expect((await remove(id, friend.email, manager.token)).status).toBe(204);
  });

  test("forms: the same refusals, translated on the users tab, which keeps flags the manager cannot change", async () => {
    const { id, owner, manager } = await sharedServer();
    const friend = await loginAs(ctx.panel.db, []);
    const ownerPath = `/server/${id}/users/${encodeURIComponent(owner.email)}`;
    const noPermission = "You do not have permission to perform this action";
    await refusedForm(() => post(`/server/${id}/users`, { email: friend.email, deleteServer: "true" }, manager.token), 403, noPermission);
    await refusedForm(() => post(ownerPath, {}, manager.token), 403, noPermission);
    await refusedForm(() => post(`${ownerPath}/delete`, {}, manager.token), 403, en["errors.ErrUserHasMorePermissions"]);
    await refusedForm(
      () => post(`${ownerPath}/delete`, {}, manager.token, { "accept-language": "de" }),
      403,
      "Dieser Benutzer besitzt Berechtigungen, die Sie nicht haben, daher können Sie ihn weder ändern noch entfernen",
    );

    // The tab offers no Delete for the owner, says why, and sends the flags it cannot change as they are.
    const tab = (await ctx.page(`/server/${id}?tab=users`, manager.token)).html;
    expect(tab).toContain("This user holds permissions you do not have: you can change only the permissions you hold, and cannot remove the user.");
    expect(tab).not.toContain(`${ownerPath}/delete"`);
    expect(tab).toContain(`/server/${id}/users/${encodeURIComponent(manager.email)}/delete"`);
    expect(tab).toContain('<input type="hidden" name="deleteServer" value="true"/>');
    // What that form sends when the manager unticks the one box they may change: accepted.
    const sent = { ...Object.fromEntries(SERVER_FLAGS.map((f) => [f, "true"])) };
    delete sent.viewServerConsole;
    expect((await post(ownerPath, sent, manager.token)).status).toBe(303);
    const owners = (await (await ctx.panel.request(`/api/servers/${id}?perms`, { token: owner.token })).json()).permissions;
    expect(owners).toEqual({ ...all, viewServerConsole: false });
  });
});

describe("invitations by a per-server user", () => {
  test("without email configured: ErrEmailNotConfigured, and no account is made", async () => {
    const { id, manager } = await sharedServer();
    await refused(() => put(id, "stranger@example.com", { viewServerConsole: true }, manager.token), { status: 400, code: "ErrEmailNotConfigured" });
    await refusedForm(
      () => post(`/server/${id}/users`, { email: "stranger@example.com", viewServerConsole: "true" }, manager.token),
      400,
      "stranger@example.com has no account yet. Inviting them needs email, which is not set up on this panel",
    );
    await refusedForm(() => post(`/server/${id}/users`, { email: "stranger@example.com" }, manager.token, { "accept-language": "fr" }), 400, fr["serverUsers.inviteNeedsEmail"].replace("{email}", "stranger@example.com").split(".")[0]!.replace(/'/g, "&#x27;"));
  });

  test("with email configured: the link goes to the invited address only, never back to the caller", async () => {
    const smtp = await startSmtp();
    try {
      await useSmtp(smtp.port);
      await useMasterUrl();
      const { id, manager } = await sharedServer();
      const res = await put(id, "victim@example.com", { viewServerConsole: true }, manager.token);
      expect(res.status).toBe(201);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({ invited: true, emailSent: true });
      expect(text).not.toContain("token");
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]!.to).toEqual(["victim@example.com"]);
      expect(smtp.received[0]!.raw.replace(/=\r?\n/g, "")).toContain("/auth/invite?token=");

      // The form: the tab says it was emailed, and shows no link.
      const page = await post(`/server/${id}/users`, { email: "second@example.com", viewServerConsole: "true" }, manager.token);
      const html = await page.text();
      expect(page.status).toBe(200);
      expect(html).toContain("The invitation was emailed to second@example.com.");
      expect(html).not.toContain("/auth/invite?token=");
      expect(smtp.received.map((m) => m.to)).toEqual([["victim@example.com"], ["second@example.com"]]);

      // An invitation asking for flags beyond the manager's is refused before anything is made or sent.
      await refused(() => put(id, "third@example.com", { deleteServer: true }, manager.token), NO_PERMISSION);
      expect(smtp.received).toHaveLength(2);
    } finally {
      await smtp.close();
    }
  });

  // A request's Host (and a trusted proxy's X-Forwarded-Host) is whatever its sender writes. Were
  // the emailed link built from it, the manager could send the invited person a genuine email of
  // the panel whose link leads, token and all, to the manager's own site, then take the account
  // made for that address.
  test("the link never names the address the caller's request gave: without the master URL no invitation is made", async () => {
    const smtp = await startSmtp();
    try {
      await useSmtp(smtp.port);
      const { id, manager } = await sharedServer();
      const asAttacker = (email: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token: manager.token, host: "attacker.example", ...jsonInit("PUT", { viewServerConsole: true }), headers: { "content-type": "application/json", origin: "http://attacker.example" } });
      await refused(() => asAttacker("victim@example.com"), { status: 400, code: "ErrInviteNeedsMasterUrl" });
      const form = await ctx.panel.request(`/server/${id}/users`, { ...formInit({ email: "victim@example.com", viewServerConsole: "true" }), token: manager.token, host: "attacker.example", headers: { ...formInit({}).headers, origin: "http://attacker.example" } });
      expect(form.status).toBe(400);
      expect(await form.text()).toContain(en["serverUsers.inviteNeedsMasterUrl"].replace("{email}", "victim@example.com").split(":")[0]!.replace(/'/g, "&#x27;"));
      expect(smtp.received).toEqual([]);

      // With the master URL set, the link names it, whatever the request said.
      await useMasterUrl();
      expect((await asAttacker("victim@example.com")).status).toBe(201);
      const mail = smtp.received[0]!.raw.replace(/=\r?\n/g, "");
      expect(mail).toContain("https://panel.example.com/auth/invite?token=");
      expect(mail).not.toContain("attacker.example");
    } finally {
      await smtp.close();
    }
  });

  test(`a per-server user sends at most ${INVITATIONS_PER_DAY} invitations a day: the next is ErrTooManyRequests, no account made, no email sent`, async () => {
    const smtp = await startSmtp();
    try {
      await useSmtp(smtp.port);
      await useMasterUrl();
      const { id, manager } = await sharedServer();
      for (let i = 0; i < INVITATIONS_PER_DAY; i++) expect((await put(id, `friend${i}@example.com`, { viewServerConsole: true }, manager.token)).status).toBe(201);
      await refused(() => put(id, "one-more@example.com", { viewServerConsole: true }, manager.token), { status: 429, code: "ErrTooManyRequests" });
      // Removed and shared again, an invited account is shared as it is: no new invitation, no mail.
      expect((await remove(id, "friend0@example.com", manager.token)).status).toBe(204);
      expect((await put(id, "friend0@example.com", { viewServerConsole: true }, manager.token)).status).toBe(204);
      expect(smtp.received).toHaveLength(INVITATIONS_PER_DAY);
      // Another server user has their own count; a caller who may create accounts is not counted.
      const otherManager = await ctx.userWith(id, { editServerUsers: true, viewServerConsole: true });
      expect((await put(id, "theirs@example.com", { viewServerConsole: true }, otherManager.token)).status).toBe(201);
      const editor = await loginAs(ctx.panel.db, [SCOPES.usersEdit]);
      await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(editor.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { editServerUsers: true, viewServerConsole: true }) });
      for (let i = 0; i <= INVITATIONS_PER_DAY; i++) expect((await put(id, `handed${i}@example.com`, { viewServerConsole: true }, editor.token)).status).toBe(201);
    } finally {
      await smtp.close();
    }
  }, 30_000);

  test("adding accounts that exist costs invitations too: a server user cannot test address after address for an account", async () => {
    const { id, manager } = await sharedServer();
    const accounts = await Promise.all(Array.from({ length: INVITATIONS_PER_DAY + 1 }, () => loginAs(ctx.panel.db, [])));
    for (const account of accounts.slice(0, INVITATIONS_PER_DAY)) expect((await put(id, account.email, {}, manager.token)).status).toBe(204);
    // Known or unknown, the next address is refused the same way, and nothing is added.
    await refused(() => put(id, accounts.at(-1)!.email, {}, manager.token), { status: 429, code: "ErrTooManyRequests" });
    await refused(() => put(id, "nobody@example.com", {}, manager.token), { status: 429, code: "ErrTooManyRequests" });
    // Changing the flags of someone already on the server costs nothing.
    expect((await put(id, accounts[0]!.email, { viewServerConsole: true }, manager.token)).status).toBe(204);
  });

  test("email that fails to go out: the error comes back, and the invited account is removed again", async () => {
    await useSmtp(await freePort());
    await useMasterUrl();
    const { id, manager } = await sharedServer();
    await refused(() => put(id, "stranger@example.com", { viewServerConsole: true }, manager.token), { status: 503, code: "ErrServiceNotAvailable" });
  });

  test("control: a caller who may create accounts (users.edit) gets the link when email is not configured", async () => {
    const { id } = await sharedServer();
    const editor = await loginAs(ctx.panel.db, [SCOPES.usersEdit]);
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(editor.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { editServerUsers: true }) });
    const res = await put(id, "handed@example.com", { editServerUsers: true }, editor.token);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject({ invited: true, emailSent: false });
    expect(body.inviteUrl).toContain("/auth/invite?token=");
    const tab = await post(`/server/${id}/users`, { email: "handed-form@example.com" }, editor.token);
    expect(await tab.text()).toContain("/auth/invite?token=");
  });
});
