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
