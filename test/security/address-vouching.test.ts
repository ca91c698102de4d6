// Attack: Mallory holds users.edit (not admin). An address a manager set was confirmed (they
// "vouch"), so Mallory made an account with bob@corp.example and a password of his own, or set
// it on an account he controls, or marked it confirmed: a server shared with Bob's address then
// went to Mallory's account (and a provider's verified email for Bob would find it, and Bob's own
// unconfirmed account lost the address to it). Only an administrator's word proves an address now;
// Mallory's stays unconfirmed until its mailbox answers, and reaches nothing.
import { describe, expect, test } from "bun:test";
import { loginAs } from "../helpers/app";
import { panelPerTest, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { refusals } from "../helpers/refusal";
import { SCOPES } from "../../core/scopes";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

const BOB = "bob@corp.example";
const q = async (sql: string) => await ctx.panel.db.$kiln.raw(sql);
const confirmedOf = async (email: string) => ((await q(`select email_confirmed from users where email = '${email}'`)) as { email_confirmed: number | boolean }[]).map((r) => Boolean(r.email_confirmed));
const { refused } = refusals(async () => ({ users: await q("select id, email, email_confirmed from users order by id"), grants: await q("select * from server_users order by user_id") }));
const login = async (email: string, password: string) => (await (await ctx.panel.request("/auth/login", jsonInit("POST", { email, password }))).json()).session as string;
const share = (id: string, email: string, token: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", { viewServerConsole: true }) });

describe("a users.edit holder does not vouch for an address", () => {
  test("an account he makes with Bob's address is unconfirmed, and a share with Bob does not reach it", async () => {
    const mallory = await loginAs(ctx.panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const owner = await loginAs(ctx.panel.db, []);
    const id = await ctx.createServer("Bobs", { user: owner.email });
    const made = await ctx.panel.request("/api/users", { token: mallory.token, ...jsonInit("POST", { username: "mal-bob", email: BOB, password: "mallory-pass-1" }) });
    expect(made.status).toBe(201);
    expect(await confirmedOf(BOB)).toEqual([false]);
    await refused(() => share(id, BOB, owner.token), { status: 409, code: "ErrEmailUnconfirmed" });
    expect((await ctx.panel.request(`/api/servers/${id}`, { token: await login(BOB, "mallory-pass-1") })).status).not.toBe(200);
    // Nor may he mark it confirmed.
    const madeId = (await made.json()).id as number;
    await refused(() => ctx.panel.request(`/api/users/${madeId}/email/confirm`, { method: "POST", token: mallory.token }), { status: 403, code: "ErrMissingScope" });
    expect(await confirmedOf(BOB)).toEqual([false]);
  });

  test("setting Bob's address on an account he controls leaves it unconfirmed", async () => {
    const mallory = await loginAs(ctx.panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const puppet = await loginAs(ctx.panel.db, []);
    const changed = await ctx.panel.request(`/api/users/${puppet.userId}`, { token: mallory.token, ...jsonInit("POST", { email: BOB }) });
    expect(changed.status).toBe(200);
    expect((await changed.json()).emailConfirmed).toBe(false);
    expect(await confirmedOf(BOB)).toEqual([false]);
  });

  test("control: an administrator's account for the address is confirmed, and may be marked so", async () => {
    const made = await ctx.panel.request("/api/users", { token: ctx.admin.token, ...jsonInit("POST", { username: "realbob", email: BOB, password: "password123" }) });
    expect(made.status).toBe(201);
    expect(await confirmedOf(BOB)).toEqual([true]);
    const other = await loginAs(ctx.panel.db, []);
    await q(`update users set email_confirmed = false where id = ${other.userId}`);
    expect((await ctx.panel.request(`/api/users/${other.userId}/email/confirm`, { method: "POST", token: ctx.admin.token })).status).toBe(204);
  });
});

// Invitations: Mallory's own word no longer proves an address (mayVouch). But an invitation answers its link to whoever may create accounts, and its use
// marked the address confirmed ("the link went to the address"): Mallory invited
// bob@corp.example (or renewed the invitation an administrator had mailed Bob), used the link
// himself with a password of his own, and held a confirmed bob@corp.example that received what was
// shared with Bob. A link handed back to someone who may not vouch proves nothing: the account it
// makes waits, unconfirmed, for its mailbox to answer or an administrator to confirm it.
/** Invites `email` as the holder of `token`; the link's token it answers. */
async function inviteFor(token: string, email: string): Promise<string> {
  const res = await ctx.panel.request("/api/users", { token, ...jsonInit("POST", { email }) });
  expect(res.status).toBe(201);
  const url = (await res.json()).inviteUrl as string;
  return new URL(url).searchParams.get("token")!;
}

const accept = async (link: string, username: string) => {
  const res = await ctx.panel.request("/auth/invite", jsonInit("POST", { token: link, username, password: "mallory-pass-1" }));
  expect(res.status).toBeLessThan(400);
};

describe("an invitation's link handed to a users.edit holder does not vouch for the address", () => {
  test("Mallory invites Bob's address and answers the link himself: unconfirmed, a share with Bob does not reach it", async () => {
    const mallory = await loginAs(ctx.panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const owner = await loginAs(ctx.panel.db, []);
    const id = await ctx.createServer("Bobs", { user: owner.email });
    await accept(await inviteFor(mallory.token, BOB), "mal-bob");
    expect(await confirmedOf(BOB)).toEqual([false]);
    await refused(() => share(id, BOB, owner.token), { status: 409, code: "ErrEmailUnconfirmed" });
  });

  test("Mallory renews the invitation an administrator made for Bob and answers it: unconfirmed", async () => {
    const mallory = await loginAs(ctx.panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    await inviteFor(ctx.admin.token, BOB);
    await accept(await inviteFor(mallory.token, BOB), "mal-bob");
    expect(await confirmedOf(BOB)).toEqual([false]);
  });

  test("control: an administrator's invitation, answered, is confirmed, and so is his renewal of Mallory's", async () => {
    await accept(await inviteFor(ctx.admin.token, BOB), "realbob");
    expect(await confirmedOf(BOB)).toEqual([true]);
    const mallory = await loginAs(ctx.panel.db, [SCOPES.usersView, SCOPES.usersEdit]);
    const carol = "carol@corp.example";
    await inviteFor(mallory.token, carol);
    await accept(await inviteFor(ctx.admin.token, carol), "realcarol");
    expect(await confirmedOf(carol)).toEqual([true]);
  });
});
