// Good credentials spent in a loop: an OAuth2 client's script minting a token per call, a password
// signing in over and over. Each token was a row until it lapsed (an hour), so a loop grew the
// sessions table without bound. An account now keeps at most LIVE_TOKENS_PER_KIND live tokens of
// a kind (of one client, for OAuth2): one more ends the oldest, which no longer opens anything,
// while the newest keep working and other clients' and sign-ins' tokens are untouched.
import { beforeAll, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { LIVE_TOKENS_PER_KIND, createSession } from "../../server/services/sessions";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";

let panel: TestPanel;
let user: { token: string; userId: number; email: string };
const client = { id: "", secret: "" };
const other = { id: "", secret: "" };

beforeAll(async () => {
  panel = await testPanel();
  user = await loginAs(panel.db, [SCOPES.serversView]); // password "password123"
  for (const made of [client, other]) {
    const res = await panel.request("/api/self/oauth2", { token: user.token, ...jsonInit("POST", { name: "bot", description: "", password: "password123" }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    Object.assign(made, { id: body.client_id ?? body.id, secret: body.client_secret ?? body.secret });
  }
});

async function mint(made: { id: string; secret: string }): Promise<string> {
  const res = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: made.id, client_secret: made.secret }).toString() });
  expect(res.status).toBe(200);
  return (await res.json()).access_token;
}

const opens = async (token: string) => (await panel.request("/api/self", { token })).status === 200;
const live = async (kind: "oauth2" | "session", clientId?: string) =>
  (await panel.db.select().from(schema.sessions).where(and(eq(schema.sessions.userId, user.userId), eq(schema.sessions.kind, kind), ...(clientId ? [eq(schema.sessions.clientId, clientId)] : []))).all()).length;

test("a client minting tokens in a loop keeps at most the cap; the oldest stop working, the newest and the other client's work", async () => {
  const otherToken = await mint(other);
  const first = await mint(client);
  // Token times are kept to the second: the first is a second older than the rest.
  await Bun.sleep(1100);
  const tokens = [first];
  for (let i = 0; i < LIVE_TOKENS_PER_KIND + 10; i++) tokens.push(await mint(client));
  expect(await live("oauth2", client.id)).toBe(LIVE_TOKENS_PER_KIND);
  expect(await opens(first)).toBe(false);
  expect(await opens(tokens.at(-1)!)).toBe(true);
  // Of tokens made in the same second, which ones went is arbitrary (times are kept to the second): as many work as are kept.
  let working = 0;
  for (const token of tokens) if (await opens(token)) working++;
  expect(working).toBe(LIVE_TOKENS_PER_KIND);
  expect(await opens(otherToken)).toBe(true);
  expect(await opens(user.token)).toBe(true);
}, 120_000);

test("sign-ins in a loop keep at most the cap of sessions; the newest works", async () => {
  let newest = "";
  for (let i = 0; i < LIVE_TOKENS_PER_KIND + 5; i++) newest = await createSession(panel.db, user.userId);
  expect(await live("session")).toBe(LIVE_TOKENS_PER_KIND);
  expect(await opens(newest)).toBe(true);
});
