// Lists mark an account whose address is unconfirmed: the Users page and a server's Users tab show
// a translated mark beside the address, and the users API answers carry `emailConfirmed` beside
// PufferPanel's fields (which stay as they were, and a perms PUT that sends the whole answer back,
// as PufferPanel's client does, is still taken).
import { expect, test } from "bun:test";
import { HTML, loginAs } from "./helpers/app";
import { panelForAll, grantFlags, jsonInit, type PanelWithNode } from "./helpers/panel-node";

let ctx: PanelWithNode;
panelForAll((made) => {
  ctx = made;
});

const MARK = 'data-testid="email-unconfirmed"';
/** Makes an account whose address is unconfirmed (as a self-registration's is). */
async function unconfirmed() {
  const user = await loginAs(ctx.panel.db, []);
  await ctx.panel.db.$kiln.raw(`update users set email_confirmed = 0 where id = ${user.userId}`);
  return user;
}
const page = async (path: string, headers: Record<string, string> = {}) => await (await ctx.panel.request(path, { token: ctx.admin.token, headers: { ...HTML, ...headers } })).text();
/** The table row or user card holding `email`. */
const around = (html: string, email: string, open: string, close: string) => {
  const at = html.indexOf(email);
  return html.slice(html.lastIndexOf(open, at), html.indexOf(close, at));
};

test("the users API carries emailConfirmed beside PufferPanel's fields; a perms PUT of the whole answer is taken", async () => {
  const eve = await unconfirmed();
  const confirmed = await loginAs(ctx.panel.db, []);
  const { users } = await (await ctx.panel.request(`/api/users?limit=100`, { token: ctx.admin.token })).json();
  const row = users.find((u: { id: number }) => u.id === eve.userId);
  expect(row).toEqual({ id: eve.userId, username: expect.any(String), email: eve.email, status: "active", otpEnabled: false, emailConfirmed: false });
  expect(users.find((u: { id: number }) => u.id === confirmed.userId).emailConfirmed).toBe(true);
  const one = await (await ctx.panel.request(`/api/users/${eve.userId}`, { token: ctx.admin.token })).json();
  expect(one.emailConfirmed).toBe(false);
  const perms = await (await ctx.panel.request(`/api/users/${eve.userId}/perms`, { token: ctx.admin.token })).json();
  const put = await ctx.panel.request(`/api/users/${eve.userId}/perms`, { token: ctx.admin.token, ...jsonInit("PUT", { ...one, ...perms, viewServers: true }) });
  expect(put.status).toBe(200);
});

test("the Users page marks an unconfirmed address, and only that one, in the reader's language", async () => {
  const eve = await unconfirmed();
  const confirmed = await loginAs(ctx.panel.db, []);
  const html = await page("/user?limit=100");
  expect(around(html, eve.email, "<tr", "</tr>")).toContain(`${MARK}>unconfirmed</span>`);
  expect(around(html, eve.email, "<tr", "</tr>")).toContain("nothing shared with it by address reaches this account");
  expect(around(html, confirmed.email, "<tr", "</tr>")).not.toContain(MARK);
  expect(around(await page("/user?limit=100", { "accept-language": "de" }), eve.email, "<tr", "</tr>")).toContain(`${MARK}>unbestätigt</span>`);
});

test("a server's Users tab marks an unconfirmed address; the tab's JSON carries the flag", async () => {
  const id = await ctx.createServer("Marked");
  const eve = await loginAs(ctx.panel.db, []);
  const confirmed = await loginAs(ctx.panel.db, []);
  await grantFlags(ctx, id, eve.email, ["viewServerConsole"]);
  await grantFlags(ctx, id, confirmed.email, ["viewServerConsole"]);
  // Eve's address became unconfirmed after the grant (an account already on a server keeps it).
  await ctx.panel.db.$kiln.raw(`update users set email_confirmed = 0 where id = ${eve.userId}`);
  const html = await page(`/server/${id}?tab=users`);
  expect(around(html, eve.email, "<details", "</summary>")).toContain(MARK);
  expect(around(html, confirmed.email, "<details", "</summary>")).not.toContain(MARK);
  const entries = await (await ctx.panel.request(`/api/servers/${id}/user`, { token: ctx.admin.token })).json();
  const mine = entries.find((u: { email: string }) => u.email === eve.email);
  expect(mine).toMatchObject({ email: eve.email, username: expect.any(String), emailConfirmed: false, viewServerConsole: true });
  expect(entries.find((u: { email: string }) => u.email === confirmed.email).emailConfirmed).toBe(true);
});
