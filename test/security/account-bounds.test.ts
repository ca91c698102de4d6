// What one account can add to the panel's database through its own screens: OAuth2 clients are
// bounded per account, at account and server level together, even when the requests race. A
// refusal is the catalogue's ErrClientLimit and adds no row.
import { expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { schema } from "../../db";
import { panelPerTest, jsonInit, type PanelWithNode } from "../helpers/panel-node";
import { MAX_CLIENTS_PER_ACCOUNT } from "../../server/services/oauth2";
import { errorOf } from "../helpers/refusal";

let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
});

test(`an account holds at most ${MAX_CLIENTS_PER_ACCOUNT} OAuth2 clients, account and server level together, however the requests race`, async () => {
  const id = await ctx.createServer("bots");
  const owner = await ctx.userWith(id, { viewServerConsole: true });
  const held = async () => (await ctx.panel.db.select({ n: count() }).from(schema.oauth2Clients).where(eq(schema.oauth2Clients.userId, owner.userId)).get())!.n;
  const make = (path: string) => ctx.panel.request(path, { token: owner.token, ...jsonInit("POST", { name: "bot", password: "password123" }) });
  for (let i = 0; i < MAX_CLIENTS_PER_ACCOUNT - 5; i++) expect((await make(i % 2 === 0 ? "/api/self/oauth2" : `/api/servers/${id}/oauth2`)).status).toBeLessThan(300);
  // Ten at once for the last five places (the password each asks goes through the login throttle,
  // which lets ten checks of one account run at once).
  const raced = await Promise.all(Array.from({ length: 10 }, (_, i) => make(i % 2 === 0 ? "/api/self/oauth2" : `/api/servers/${id}/oauth2`)));
  expect(raced.filter((res) => res.status < 300)).toHaveLength(5);
  for (const refused of raced.filter((res) => res.status >= 300)) expect(await errorOf(refused)).toEqual({ status: 400, code: "ErrClientLimit" });
  expect(await held()).toBe(MAX_CLIENTS_PER_ACCOUNT);
  // Deleting one makes room for one.
  const [first] = await (await ctx.panel.request("/api/self/oauth2", { token: owner.token })).json();
  expect((await ctx.panel.request(`/api/self/oauth2/${first.client_id}`, { token: owner.token, method: "DELETE" })).status).toBe(204);
  expect((await make("/api/self/oauth2")).status).toBeLessThan(300);
  expect(await errorOf(await make("/api/self/oauth2"))).toEqual({ status: 400, code: "ErrClientLimit" });
  expect(await held()).toBe(MAX_CLIENTS_PER_ACCOUNT);
}, 60_000);
