// Attack: Eve registers bob@corp.example before Bob arrives. Her address is unconfirmed, so nothing
// shared with Bob reaches her, but the address was unique and hers: Bob could no longer register
// with it, change his own account to it, nor be given it by an administrator (ErrDuplicateUser)
// until someone found and deleted Eve's account. An unconfirmed address now reserves nothing
// (services/users/unconfirmed-hold): an administrator's account or change for it, or Bob's own
// confirmation link, takes it from Eve (her address becomes a placeholder at `.invalid`), while
// nothing that proves nothing (Eve registering again, her own change) takes it back from Bob.
import { describe, expect, test } from "bun:test";
import { loginAs } from "../helpers/app";
import { panelPerTest, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { confirmationTokenIn, mailThrough, startSmtp } from "../helpers/smtp";
import { refusals } from "../helpers/refusal";
import { setSetting } from "../../server/services/settings";
import { PLACEHOLDER_DOMAIN } from "../../server/services/users/unconfirmed-hold";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

const BOB = "bob@corp.example";
const q = async (sql: string) => await ctx.panel.db.$kiln.raw(sql);
const holderOf = async (email: string) => (await q(`select username, email_confirmed from users where email = '${email}'`)) as { username: string; email_confirmed: number | boolean }[];
const { refused } = refusals(async () => ({ users: await q("select id, username, email, email_confirmed from users order by id"), links: await q("select user_id, email from email_confirmations order by user_id") }));

async function register(email: string, username: string): Promise<Response> {
  await setSetting(ctx.panel.db, "panel.registrationEnabled", "true");
  return await ctx.panel.request("/auth/register", jsonInit("POST", { username, email, password: "password123" }));
}
const login = (email: string) => ctx.panel.request("/auth/login", jsonInit("POST", { email, password: "password123" }));
const share = (id: string, email: string, token: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", { viewServerConsole: true }) });
const canRead = async (id: string, token: string) => (await ctx.panel.request(`/api/servers/${id}`, { token })).status === 200;

/** Eve's account now holds a placeholder, and her password no longer opens anything at Bob's address. */
async function expectEveReleased() {
  const eve = (await q("select email, email_confirmed from users where username = 'eve-squat'")) as { email: string; email_confirmed: number | boolean }[];
  expect(eve).toHaveLength(1);
  expect(eve[0]!.email.endsWith(`@${PLACEHOLDER_DOMAIN}`)).toBe(true);
  expect(Boolean(eve[0]!.email_confirmed)).toBe(false);
}

describe("without email", () => {
  test("an administrator makes Bob's account with the address Eve registered, and the share reaches Bob", async () => {
    const owner = await loginAs(ctx.panel.db, []);
    const id = await ctx.createServer("Bobs", { user: owner.email });
    expect((await register(BOB, "eve-squat")).status).toBe(200);
    // Bob cannot register it himself without a link to prove it (nobody's word beats Eve's).
    await refused(() => register(BOB, "realbob"), { status: 400, code: "ErrSavingInviteduser" });

    const made = await ctx.panel.request("/api/users", { token: ctx.admin.token, ...jsonInit("POST", { username: "realbob", email: BOB, password: "password123" }) });
    expect(made.status).toBe(201);
    expect(await holderOf(BOB)).toEqual([{ username: "realbob", email_confirmed: expect.anything() }]);
    expect(Boolean((await holderOf(BOB))[0]!.email_confirmed)).toBe(true);
    await expectEveReleased();
    // The share reaches Bob, and signing in at his address opens his account.
    expect((await share(id, BOB, owner.token)).status).toBe(204);
    const bob = (await (await login(BOB)).json()).session as string;
    expect(await canRead(id, bob)).toBe(true);
  });

  test("an administrator setting an existing account's email to the squatted address takes it too", async () => {
    expect((await register(BOB, "eve-squat")).status).toBe(200);
    const bob = await loginAs(ctx.panel.db, []);
    const changed = await ctx.panel.request(`/api/users/${bob.userId}`, { token: ctx.admin.token, ...jsonInit("POST", { email: BOB }) });
    expect(changed.status).toBe(200);
    expect((await changed.json()).emailConfirmed).toBe(true);
    await expectEveReleased();
  });

  test("control: a confirmed holder's address, and an invited one's, are never taken", async () => {
    const holder = await loginAs(ctx.panel.db, []);
    await refused(() => ctx.panel.request("/api/users", { token: ctx.admin.token, ...jsonInit("POST", { username: "another", email: holder.email, password: "password123" }) }), { status: 409, code: "ErrDuplicateUser" });
    expect((await ctx.panel.request("/api/users", { token: ctx.admin.token, ...jsonInit("POST", { email: "invited@corp.example" }) })).status).toBe(201);
    await refused(() => ctx.panel.request("/api/users", { token: ctx.admin.token, ...jsonInit("POST", { username: "another", email: "invited@corp.example", password: "password123" }) }), { status: 409, code: "ErrDuplicateUser" });
  });
});

describe("with email", () => {
  test("Bob registers the address Eve holds unconfirmed, and his link takes it from her; Eve cannot take it back", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      expect((await register(BOB, "eve-squat")).status).toBe(200);
      const evesLink = confirmationTokenIn((await smtp.arrived(1))[0]!.raw);

      const registered = await register(BOB, "realbob");
      expect(registered.status).toBe(200);
      const bobSession = (await registered.json()).token as string;
      // Until his link is used Bob waits for the address, as Eve's registration does (neither holds it).
      const waiting = await (await ctx.panel.request("/api/self", { token: bobSession })).json();
      expect(waiting.pendingEmail).toBe(BOB);
      expect((await smtp.arrived(2)).map((m) => m.to)).toEqual([[BOB], [BOB]]);
      const confirmed = await ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token: confirmationTokenIn(smtp.received[1]!.raw) }));
      expect(confirmed.status).toBe(200);
      expect(await holderOf(BOB)).toEqual([{ username: "realbob", email_confirmed: expect.anything() }]);
      expect(Boolean((await holderOf(BOB))[0]!.email_confirmed)).toBe(true);
      await expectEveReleased();

      // Eve's own link (it went to Bob's mailbox) is gone; registering again answers as any
      // registration (the answer tells nothing of Bob's confirmation) but takes nothing and mails nothing.
      await refused(() => ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token: evesLink })), { status: 400, code: "ErrConfirmLinkInvalid" });
      expect((await register(BOB, "eve-again")).status).toBe(200);
      expect(await holderOf(BOB)).toEqual([{ username: "realbob", email_confirmed: expect.anything() }]);
      await Bun.sleep(200);
      expect(smtp.received).toHaveLength(2);
      expect((await login(BOB)).status).toBe(200);
    } finally {
      await smtp.close();
    }
  });

  test("Bob's existing account changed to the squatted address: the link goes to Bob and takes it", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      expect((await register(BOB, "eve-squat")).status).toBe(200);
      await smtp.arrived(1);
      const bob = await loginAs(ctx.panel.db, []);
      expect((await ctx.panel.request("/api/self", { token: bob.token, ...jsonInit("PUT", { email: BOB, password: "password123" }) })).status).toBe(204);
      expect((await smtp.arrived(2)).at(-1)!.to).toEqual([BOB]);
      expect((await ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token: confirmationTokenIn(smtp.received.at(-1)!.raw) }))).status).toBe(200);
      expect((await q(`select id from users where email = '${BOB}'`))).toEqual([{ id: bob.userId }]);
      await expectEveReleased();
    } finally {
      await smtp.close();
    }
  });

  test("Eve cannot take a confirmed address: her registration is refused, and her change waits for a link only Bob receives", async () => {
    const smtp = await startSmtp();
    try {
      await mailThrough(ctx.panel.db, smtp.port);
      const bob = await loginAs(ctx.panel.db, []);
      await q(`update users set email = '${BOB}' where id = ${bob.userId}`);
      // Bob's address is confirmed (an administrator made his account): Eve's registration and her
      // own email change get nothing, and her change's link (mailed to Bob) never reaches her.
      expect((await register(BOB, "eve-squat")).status).toBe(200);
      const eve = await loginAs(ctx.panel.db, []);
      expect((await ctx.panel.request("/api/self", { token: eve.token, ...jsonInit("PUT", { email: BOB, password: "password123" }) })).status).toBe(204);
      expect(await holderOf(BOB)).toHaveLength(1);
      expect((await q(`select id from users where email = '${BOB}'`))).toEqual([{ id: bob.userId }]);
    } finally {
      await smtp.close();
    }
  });
});
