// Attack: a thief holding Bob's session and password asks to move his address to their own
// (PUT /api/self). With working email the new address only waits for its link, and the link goes
// to the thief's mailbox. Bob notices and recovers: he changes his password, or an administrator
// uses "Secure this account". Every session, step and token of the account ends, but the pending
// link was a way to change the account the thief still held: used a day later it moved Bob's
// address (his login name, his SFTP username) to the thief's. A recovery now ends the pending
// change too (services/users/email-confirmation: dropPendingChange).
import { describe, expect, test } from "bun:test";
import { loginAs } from "../helpers/app";
import { panelPerTest, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { confirmationTokenIn, mailThrough, smtpForFile } from "../helpers/smtp";
import { refusals } from "../helpers/refusal";
import { SCOPES } from "../../core/scopes";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});
const smtp = smtpForFile();

const THIEF = "thief@evil.example";
const q = async (sql: string) => await ctx.panel.db.$kiln.raw(sql);
const { refused } = refusals(async () => ({ users: await q("select id, email, email_confirmed from users order by id"), links: await q("select user_id, email from email_confirmations order by user_id") }));

/** Bob's account, and the link the thief's change mailed to the thief. */
async function thiefAsksForTheAddress() {
  await mailThrough(ctx.panel.db, smtp.port);
  const bob = await loginAs(ctx.panel.db, []);
  expect((await ctx.panel.request("/api/self", { token: bob.token, ...jsonInit("PUT", { email: THIEF, password: "password123" }) })).status).toBe(204);
  expect((await smtp.arrived(1)).map((m) => m.to)).toEqual([[THIEF]]);
  return { bob, link: confirmationTokenIn(smtp.received[0]!.raw) };
}
const confirm = (token: string) => ctx.panel.request("/auth/confirm-email", jsonInit("POST", { token }));

describe("a recovery ends the thief's pending email change", () => {
  test("Bob's own password change", async () => {
    const { bob, link } = await thiefAsksForTheAddress();
    expect((await ctx.panel.request("/api/self", { token: bob.token, ...jsonInit("PUT", { password: "password123", newPassword: "another-password1" }) })).status).toBe(204);
    expect((await (await ctx.panel.request("/api/self", { token: bob.token })).json()).pendingEmail).toBeNull();
    await refused(() => confirm(link), { status: 400, code: "ErrConfirmLinkInvalid" });
    expect(await q(`select email from users where id = ${bob.userId}`)).toEqual([{ email: bob.email }]);
  });

  test("an administrator's Secure this account, and a manager's new password", async () => {
    const admin = await loginAs(ctx.panel.db, [SCOPES.admin]);
    const secured = await thiefAsksForTheAddress();
    expect((await ctx.panel.request(`/api/users/${secured.bob.userId}/secure`, { token: admin.token, ...jsonInit("POST", { password: "another-password1" }) })).status).toBe(204);
    await refused(() => confirm(secured.link), { status: 400, code: "ErrConfirmLinkInvalid" });
    expect(await q(`select email from users where id = ${secured.bob.userId}`)).toEqual([{ email: secured.bob.email }]);

    smtp.received.length = 0;
    const reset = await thiefAsksForTheAddress();
    expect((await ctx.panel.request(`/api/users/${reset.bob.userId}`, { token: admin.token, ...jsonInit("POST", { password: "another-password1" }) })).status).toBe(200);
    await refused(() => confirm(reset.link), { status: 400, code: "ErrConfirmLinkInvalid" });
    expect(await q(`select email from users where id = ${reset.bob.userId}`)).toEqual([{ email: reset.bob.email }]);
  });

  test("control: a change nobody recovered from is confirmed by its link, and a registration's own link survives a password change", async () => {
    const { bob, link } = await thiefAsksForTheAddress();
    expect((await confirm(link)).status).toBe(200);
    expect(await q(`select email, email_confirmed from users where id = ${bob.userId}`)).toEqual([{ email: THIEF, email_confirmed: expect.anything() }]);

    // An unconfirmed address's own link confirms what the account already holds: it changes nothing to keep it.
    await q(`update users set email_confirmed = 0 where id = ${bob.userId}`);
    expect((await ctx.panel.request("/api/self/email/confirmation", { token: bob.token, method: "POST" })).status).toBe(200);
    // The change's link, the notice to Bob's previous address, then this one.
    const own = confirmationTokenIn((await smtp.arrived(3)).at(-1)!.raw);
    expect((await ctx.panel.request("/api/self", { token: bob.token, ...jsonInit("PUT", { password: "password123", newPassword: "another-password1" }) })).status).toBe(204);
    expect((await confirm(own)).status).toBe(200);
  });
});
