// An OAuth2 client's token reads what its account shows, never a second factor: the Account page
// showed an enrolment the holder had started but not confirmed, its secret and QR code, to any
// caller of the account. A leaked bot secret (account level or bound to a server) then read the
// seed the holder was about to scan; once the holder confirmed with it, whoever held the bot's
// secret made the account's two-factor codes. The enrolment is shown to the holder's own login
// only; the client's page shows no enrolment, and the seed is nowhere in it.
import { beforeAll, expect, test } from "bun:test";
import { schema } from "../../db";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";

let panel: TestPanel;
let owner: Awaited<ReturnType<typeof loginAs>>;
let seed: string;
const SERVER = "abcd1234";

async function clientToken(path: string): Promise<string> {
  const made = await panel.request(path, { token: owner.token, ...jsonInit("POST", { name: "bot", description: "", password: "password123" }) });
  expect(made.status).toBe(200);
  const client = await made.json();
  const res = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString() });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

const accountPage = async (headers: Record<string, string>, token?: string) => await (await panel.request("/account", { token, headers: { ...HTML, ...headers } })).text();

beforeAll(async () => {
  panel = await testPanel();
  owner = await loginAs(panel.db, []);
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  await panel.db.insert(schema.servers).values({ id: SERVER, name: "survival", nodeId: node.id, createdAt: new Date() }).run();
  await panel.db.insert(schema.serverUsers).values({ serverId: SERVER, userId: owner.userId, flags: ["viewServer"] }).run();
  // The holder starts an enrolment and has not confirmed it yet.
  const started = await panel.request("/api/self/otp", { token: owner.token, method: "POST" });
  expect(started.status).toBe(200);
  seed = (await started.json()).secret;
  expect(seed).toMatch(/^[A-Z2-7]{16,}$/);
});

test("an account-level client's token does not read the pending enrolment's secret or QR code", async () => {
  const page = await accountPage({ authorization: `Bearer ${await clientToken("/api/self/oauth2")}` });
  expect(page).toContain("<h1");
  expect(page).not.toContain(seed);
  expect(page).not.toContain("data:image/png;base64");
});

test("a server-bound client's token does not either", async () => {
  const page = await accountPage({ authorization: `Bearer ${await clientToken(`/api/servers/${SERVER}/oauth2`)}` });
  expect(page).not.toContain(seed);
  expect(page).not.toContain("data:image/png;base64");
});

test("control: the holder's own login is shown the enrolment again, to finish it", async () => {
  const page = await accountPage({}, owner.token);
  expect(page).toContain(seed);
  expect(page).toContain("data:image/png;base64");
});
