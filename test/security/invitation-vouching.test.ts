// Attack: Mallory holds users.edit (not admin), so his own word no longer proves an address
// (mayVouch). But an invitation answers its link to whoever may create accounts, and its use
// marked the address confirmed ("the link went to the address"): Mallory invited
// bob@corp.example (or renewed the invitation an administrator had mailed Bob), used the link
// himself with a password of his own, and held a confirmed bob@corp.example that received what was
// shared with Bob. A link handed back to someone who may not vouch proves nothing: the account it
// makes waits, unconfirmed, for its mailbox to answer or an administrator to confirm it.
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
const share = (id: string, email: string, token: string) => ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(email)}`, { token, ...jsonInit("PUT", { viewServerConsole: true }) });

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
