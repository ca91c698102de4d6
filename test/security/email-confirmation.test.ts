// An address names its account for a share only once the account confirmed it. The attack: a
// squatter registers, or changes their own email to, bob@corp.example before Bob has an account,
// and receives what the owner of a server shares with Bob. Every way a server is given by address
// (the API, the users tab's forms, a server made for an owner by email) refuses an unconfirmed
// holder (ErrEmailUnconfirmed, nothing granted); with working email a self-chosen address only
// waits for its link, which the squatter never sees, and the share invites Bob instead.
import { describe, expect, test } from "bun:test";
import { loginAs } from "../helpers/app";
import { panelPerTest, jsonInit, formInit, type PanelWithNode } from "../helpers/panel-node";
import { confirmationTokenIn, mailThrough, startSmtp } from "../helpers/smtp";
import { refusals } from "../helpers/refusal";
import { setSetting } from "../../server/services/settings";
import { CONFIRMATION_RESENDS_PER_DAY } from "../../server/services/users/email-confirmation";
import { hashToken } from "../../server/services/sessions";
import { SCOPES } from "../../core/scopes";
import en from "../../locales/en.json";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

const BOB = "bob@corp.example";

async function snapshot() {
  const q = async (sql: string) => await ctx.panel.db.$kiln.raw(sql);
  return {
    users: await q("select id, email, email_confirmed, status from users order by id"),
    serverUsers: await q("select server_id, user_id, flags from server_users order by server_id, user_id"),
    links: await q("select user_id, email from email_confirmations order by user_id"),
  };
}
const { refused, refusedForm } = refusals(snapshot);

const share = (id: string, email: string, token: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", { viewServerConsole: true, sftpServer: true }) });
const canRead = async (id: string, token: string) => (await ctx.panel.request(`/api/servers/${id}`, { token })).status === 200;

/** A stranger registers with `email` (registration switched on); their session. */
async function register(email: string, username = "squatter"): Promise<string> {
  await setSetting(ctx.panel.db, "panel.registrationEnabled", "true");
  const res = await ctx.panel.request("/auth/register", jsonInit("POST", { username, email, password: "password123" }));
  expect(res.status).toBe(200);
  return (await res.json()).token;
}


describe("without email: a self-chosen address stays unconfirmed and names nobody", () => {
  test("a squatter who registered Bob's address receives nothing the owner shares with Bob", async () => {
    const owner = await loginAs(ctx.panel.db, []);
    const id = await ctx.createServer("Bobs", { user: owner.email });
    const squatter = await register(BOB);
    await refused(() => share(id, BOB, ctx.admin.token), { status: 409, code: "ErrEmailUnconfirmed" });
    expect(await canRead(id, squatter)).toBe(false);
    // The users tab's form, and its per-user update form, refuse alike.
    const tab = formInit({ email: BOB, viewServerConsole: "on" });
    await refusedForm(() => ctx.panel.request(`/server/${id}/users`, { token: ctx.admin.token, ...tab }), 409, "has not confirmed");
    await refusedForm(() => ctx.panel.request(`/server/${id}/users/${encodeURIComponent(BOB)}`, { token: ctx.admin.token, ...formInit({ viewServerConsole: "on" }) }), 409, "has not confirmed");
    // Nor is a server made for it by its address.
    await refused(() => ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "ForBob", node: ctx.nodeId, template: "echo", environment: { type: "standard" }, user: BOB }) }), { status: 409, code: "ErrEmailUnconfirmed" });
    expect(await canRead(id, squatter)).toBe(false);
  });

  test("a holder who changed their own email to Bob's receives nothing shared with Bob", async () => {
    const owner = await loginAs(ctx.panel.db, []);
    const id = await ctx.createServer("Bobs", { user: owner.email });
    const squatter = await loginAs(ctx.panel.db, []);
    expect((await ctx.panel.request("/api/self", { token: squatter.token, ...jsonInit("PUT", { email: BOB, password: "password123" }) })).status).toBe(204);
    // The server's owner (editServerUsers there, no panel scope) shares with Bob.
    await refused(() => share(id, BOB, owner.token), { status: 409, code: "ErrEmailUnconfirmed" });
    expect(await canRead(id, squatter.token)).toBe(false);
    // Nor can the squatter, holding users.edit somewhere, vouch for their own address.
    const editor = await loginAs(ctx.panel.db, [SCOPES.usersEdit]);
    await refused(() => ctx.panel.request(`/api/users/${editor.userId}/email/confirm`, { token: editor.token, method: "POST" }), { status: 403, code: "ErrNoPermission" });
  });

  test("an administrator's word confirms it, and the share then reaches the account", async () => {
    const owner = await loginAs(ctx.panel.db, []);
    const id = await ctx.createServer("Bobs", { user: owner.email });
    const bob = await register(BOB, "realbob");
    const self = await (await ctx.panel.request("/api/self", { token: bob })).json();
    expect(self.emailConfirmed).toBe(false);
    expect((await ctx.panel.request(`/api/users/${self.id}/email/confirm`, { token: ctx.admin.token, method: "POST" })).status).toBe(204);
    expect((await share(id, BOB, owner.token)).status).toBe(204);
    expect(await canRead(id, bob)).toBe(true);
  });
});

describe("with email: the link proves the address", () => {
  test("an email change waits for its link; the share invites Bob; the squatter never confirms", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      const owner = await loginAs(ctx.panel.db, []);
      const id = await ctx.createServer("Bobs", { user: owner.email });
      const squatter = await loginAs(ctx.panel.db, []);
      expect((await ctx.panel.request("/api/self", { token: squatter.token, ...jsonInit("PUT", { email: BOB, password: "password123" }) })).status).toBe(204);
      const self = await (await ctx.panel.request("/api/self", { token: squatter.token })).json();
      expect({ email: self.email, pending: self.pendingEmail }).toEqual({ email: squatter.email, pending: BOB });
      // The link went to Bob's mailbox only, and is stored as its hash.
      expect((await smtp.arrived(1)).map((m) => m.to)).toEqual([[BOB]]);
      const token = confirmationTokenIn(smtp.received[0]!.raw);
      expect(await ctx.panel.db.$kiln.raw("select token_hash from email_confirmations")).toEqual([{ token_hash: hashToken(token) }]);

      // The owner's share goes to Bob as an invitation, not to the squatter.
      const shared = await share(id, BOB, owner.token);
      expect(shared.status).toBe(201);
      expect(await canRead(id, squatter.token)).toBe(false);

      // Guessing, or opening the confirmation page (a GET), confirms nothing.
      await refused(() => ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token: "x".repeat(43) })), { status: 400, code: "ErrConfirmLinkInvalid" });
      const before = await snapshot();
      expect((await ctx.panel.request(`/auth/confirm-email?token=${encodeURIComponent(token)}`, { headers: { accept: "text/html" } })).status).toBe(200);
      expect(await snapshot()).toEqual(before);
      // Bob now holds the address (his invitation): the squatter's link, even used, does not take it.
      await ctx.panel.db.$kiln.raw(`update users set status = 'active', username = 'realbob', email_confirmed = 1 where email = '${BOB}'`);
      await refused(() => ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token })), { status: 409, code: "ErrDuplicateUser" });
    } finally {
      await smtp.close();
    }
  });

  test("an expired link confirms nothing", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      await register(BOB);
      const token = confirmationTokenIn((await smtp.arrived(1))[0]!.raw);
      await ctx.panel.db.$kiln.raw(`update email_confirmations set expires_at = ${Math.floor(Date.now() / 1000) - 1}`);
      await refused(() => ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token })), { status: 400, code: "ErrConfirmLinkInvalid" });
    } finally {
      await smtp.close();
    }
  });

  test("an email change answers alike whether the address is taken, and mails its holder nothing", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      const holder = await loginAs(ctx.panel.db, []);
      const prober = await loginAs(ctx.panel.db, []);
      const change = async (email: string) => (await ctx.panel.request("/api/self", { token: prober.token, ...jsonInit("PUT", { email, password: "password123" }) })).status;
      expect(await change(holder.email)).toBe(204);
      expect(smtp.received).toEqual([]);
      expect(await change("free@corp.example")).toBe(204);
      expect((await smtp.arrived(1)).map((m) => m.to)).toEqual([["free@corp.example"]]);
    } finally {
      await smtp.close();
    }
  });

  test("the link is sent again at most a few times a day", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      const token = await register(BOB);
      const resend = () => ctx.panel.request("/api/self/email/confirmation", { token, method: "POST" });
      for (let i = 0; i < CONFIRMATION_RESENDS_PER_DAY; i++) expect((await resend()).status).toBe(200);
      await refused(resend, { status: 429, code: "ErrTooManyRequests" });
      expect(await smtp.arrived(1 + CONFIRMATION_RESENDS_PER_DAY)).toHaveLength(1 + CONFIRMATION_RESENDS_PER_DAY);
    } finally {
      await smtp.close();
    }
  });

  test("without the master URL no link is mailed: one built from the request's Host would lead Bob to the sender's site", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port, { masterUrl: false });
      await setSetting(ctx.panel.db, "panel.registrationEnabled", "true");
      const res = await ctx.panel.request("/auth/register", { host: "attacker.example", ...jsonInit("POST", { username: "squatter", email: BOB, password: "password123" }) });
      expect(res.status).toBe(200);
      expect(smtp.received).toEqual([]);
      expect(await ctx.panel.db.$kiln.raw("select count(*) as n from email_confirmations")).toEqual([{ n: 0 }]);
    } finally {
      await smtp.close();
    }
  });
});

test("the refusal's message is the catalogue's", () => {
  expect(en["errors.ErrEmailUnconfirmed"]).toContain("has not confirmed");
});
