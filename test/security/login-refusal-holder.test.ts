// Attack: guess at the password of an account that signs in by its username (a registration
// waiting for its link, an account whose unconfirmed address was taken: it holds a placeholder),
// or at any account's password over SFTP (whose login names "<name>#<server>"). A refused login
// is recorded about the account it names, so its holder sees the guesses on the Account page
// (services/activity/logins). The refusal found that account by its address only, as typed: a
// username, and SFTP's whole "<name>#<server>", named none, so these guesses were recorded about
// nobody and the holder saw nothing while the throttle let ten of them through per window.
import { beforeAll, expect, test } from "bun:test";
import { and, desc, eq } from "drizzle-orm";
import { schema } from "../../db";
import { panelAuthorization } from "../../daemon/http/node-auth";
import { sftpUsername } from "../../core/sftp/username";
import { createUser } from "../../server/services/users";
import { placeholderAddress } from "../../server/services/users/unconfirmed-hold";
import { createSession } from "../../server/services/sessions";
import { testPanel, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";

const SECRET = "node-a-secret-node-a-secret";
let panel: TestPanel;
let waiting = 0;
let player = 0;

beforeAll(async () => {
  panel = await testPanel();
  const node = (await panel.db.insert(schema.nodes).values({ name: "a", publicHost: "x", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: SECRET, createdAt: new Date() }).returning().get()).id;
  await panel.db.insert(schema.servers).values({ id: "abcd1234", name: "on a", nodeId: node, createdAt: new Date() }).run();
  // As a registration with a link to mail makes it: a placeholder, signing in by its username.
  ({ id: waiting } = await createUser(panel.db, { username: "Waiting-Holder", email: placeholderAddress(), password: "password123", scopes: [] }));
  ({ id: player } = await createUser(panel.db, { username: "sftp-player", email: "player@example.com", password: "password123", scopes: [] }));
  for (const userId of [waiting, player]) await panel.db.insert(schema.serverUsers).values({ serverId: "abcd1234", userId, flags: ["sftpServer", "viewServerFiles"] }).run();
});

const lastRefusal = async () => (await panel.db.select().from(schema.activity).where(eq(schema.activity.event, "user.login.failed")).orderBy(desc(schema.activity.id)).get())!;
const refusalsAbout = async (userId: number) => (await panel.db.select().from(schema.activity).where(and(eq(schema.activity.event, "user.login.failed"), eq(schema.activity.subject, String(userId)))).all()).length;

test("a wrong password for an account signing in by its username is recorded about it, and its holder sees it", async () => {
  // Typed in another letter case: still the one account (usernames are one account's in any case).
  const res = await panel.request("/auth/login", jsonInit("POST", { email: "waiting-holder", password: "not-the-password" }));
  expect(res.status).toBe(400);
  const refusal = await lastRefusal();
  expect(JSON.parse(refusal.properties)).toEqual({ username: "waiting-holder", reason: "ErrInvalidCredentials" });
  expect(refusal.subject).toBe(String(waiting));
  const page = await (await panel.request("/account", { token: await createSession(panel.db, waiting), headers: HTML })).text();
  expect(page).toContain('data-testid="account-logins"');
  expect(page).toContain("user.login.failed");
});

test("a username names no account that signs in by its address: such a refusal is nobody's", async () => {
  const before = await refusalsAbout(player);
  expect((await panel.request("/auth/login", jsonInit("POST", { email: "sftp-player", password: "not-the-password" }))).status).toBe(400);
  expect((await lastRefusal()).subject).toBeNull();
  expect(await refusalsAbout(player)).toBe(before);
});

test("a wrong SFTP password is recorded about the account its login names, by address or by username", async () => {
  const ask = (username: string) =>
    panel.request("/api/nodes/sftp/auth", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: panelAuthorization({ secret: SECRET }, "POST", "http://panel/api/nodes/sftp/auth") },
      body: JSON.stringify({ address: "203.0.113.7", username, password: "not-the-password" }),
    });
  for (const [name, userId] of [["Player@Example.com", player], ["waiting-holder", waiting]] as const) {
    const before = await refusalsAbout(userId);
    expect((await ask(sftpUsername(name, "abcd1234"))).status).toBe(401);
    const refusal = await lastRefusal();
    expect(JSON.parse(refusal.properties)).toMatchObject({ username: sftpUsername(name, "abcd1234"), reason: "sftp:ErrInvalidCredentials" });
    expect(refusal.subject).toBe(String(userId));
    expect(await refusalsAbout(userId)).toBe(before + 1);
  }
});
