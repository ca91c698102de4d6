// An OAuth2 client bound to one server reaches that server only: its token learns nothing of the
// owner's other servers. The webhooks page offered, as the servers an endpoint may be added for,
// every server where the owner holds manageWebhooks, so a bound client's token read the names and
// ids of the owner's other servers there. Attacked with a plain user's client bound to server A,
// the owner managing webhooks on A and on B: the page (and the refused form it shows again) names
// A only; the owner's own login still sees both, and a bound client without the flag sees none.
import { beforeAll, expect, test } from "bun:test";
import { schema } from "../../db";
import { SERVER_FLAGS } from "../../core/scopes";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";

let panel: TestPanel;
let owner: Awaited<ReturnType<typeof loginAs>>;
const A = "aaaa1111";
const B = "bbbb2222";
const B_NAME = "other-server-of-the-owner";

async function boundToken(user: { token: string }, serverId: string): Promise<string> {
  const made = await panel.request(`/api/servers/${serverId}/oauth2`, { token: user.token, ...jsonInit("POST", { name: "bot", description: "", password: "password123" }) });
  expect(made.status).toBe(200);
  const client = await made.json();
  const res = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString() });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

const page = async (init: RequestInit & { token?: string }) => await (await panel.request("/webhooks", { ...init, headers: { ...HTML, ...(init.headers as Record<string, string>) } })).text();
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

beforeAll(async () => {
  panel = await testPanel();
  owner = await loginAs(panel.db, []);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  await panel.db.insert(schema.servers).values({ id: A, name: "bound-server", nodeId: node.id, createdAt: new Date() }).run();
  await panel.db.insert(schema.servers).values({ id: B, name: B_NAME, nodeId: node.id, createdAt: new Date() }).run();
  for (const id of [A, B]) await panel.db.insert(schema.serverUsers).values({ serverId: id, userId: owner.userId, flags: [...SERVER_FLAGS] }).run();
});

test("a client bound to A is offered A only on the webhooks page, and its refused form names no other server", async () => {
  const token = await boundToken(owner, A);
  const shown = await page({ headers: bearer(token) });
  expect(shown).toContain("bound-server");
  expect(shown).not.toContain(B_NAME);
  expect(shown).not.toContain(B);
  // The form sent back with an error renders the same list.
  const refused = await panel.request("/webhooks", { method: "POST", headers: { ...HTML, ...bearer(token), "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ url: "not a url", serverId: A }).toString() });
  const text = await refused.text();
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(text).not.toContain(B_NAME);
});

test("a bound client whose owner lost manageWebhooks on its server is offered none", async () => {
  const other = await loginAs(panel.db, []);
  await panel.db.insert(schema.serverUsers).values({ serverId: A, userId: other.userId, flags: ["viewServer"] }).run();
  await panel.db.insert(schema.serverUsers).values({ serverId: B, userId: other.userId, flags: ["viewServer", "manageWebhooks"] }).run();
  const shown = await page({ headers: bearer(await boundToken(other, A)) });
  expect(shown).not.toContain(B_NAME);
  expect(shown).not.toContain(`<option value="${A}"`);
});

test("control: the owner's own login is offered both servers", async () => {
  const shown = await page({ token: owner.token });
  expect(shown).toContain("bound-server");
  expect(shown).toContain(B_NAME);
});
