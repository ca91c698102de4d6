// The panel's SFTP login check (POST /api/nodes/sftp/auth) as a node calls it, through
// app.request() on a fresh database: who may ask, what is checked, what the session may do
// (read-only without putServerFiles), and the shared throttle.
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { panelAuthorization } from "../daemon/http/node-auth";
import { SCOPES } from "../core/scopes";
import { sftpUsername } from "../core/sftp/username";
import type { ServerFlag } from "../core/scopes";
import { createUser } from "../server/services/users";
import { LoginThrottle } from "../server/services/auth/throttle";
import { testPanel, type TestPanel } from "./helpers/app";

const SECRET_A = "node-a-secret-node-a-secret";
const SECRET_B = "node-b-secret-node-b-secret";
const PASSWORD = "password123";
let panel: TestPanel;
let userId = 0;

async function nodeRow(name: string, secret: string): Promise<number> {
  return (await panel.db.insert(schema.nodes).values({ name, publicHost: "x", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret, createdAt: new Date() }).returning().get()).id;
}

/** The user's flags on the test server, as stored (granting through the API is tested elsewhere). */
async function grant(id: number, flags: ServerFlag[]): Promise<void> {
  await panel.db.insert(schema.serverUsers).values({ serverId: "abcd1234", userId: id, flags }).onConflictDoUpdate({ target: [schema.serverUsers.serverId, schema.serverUsers.userId], set: { flags } }).run();
}

const ask = (body: Record<string, unknown>, secret: string | null = SECRET_A) =>
  panel.request("/api/nodes/sftp/auth", {
    method: "POST",
    headers: { "content-type": "application/json", ...(secret ? { authorization: panelAuthorization({ secret }, "POST", "http://panel/api/nodes/sftp/auth") } : {}) },
    body: JSON.stringify({ address: "203.0.113.7", ...body }),
  });

beforeEach(async () => {
  panel = await testPanel();
  const a = await nodeRow("a", SECRET_A);
  await nodeRow("b", SECRET_B);
  await panel.db.insert(schema.servers).values({ id: "abcd1234", name: "on a", nodeId: a, createdAt: new Date() }).run();
  ({ id: userId } = await createUser(panel.db, { email: "Player@Example.com", username: "player", password: PASSWORD, scopes: [] }));
  await grant(userId, ["sftpServer", "viewServerFiles"]);
});

describe("POST /api/nodes/sftp/auth", () => {
  test("a node's token and a good login answer the account (email in any case, an email holding '#')", async () => {
    const res = await ask({ username: sftpUsername("player@example.com", "abcd1234"), password: PASSWORD });
    expect(res.status).toBe(200);
    // The server's first user is its owner, for whom the node keeps connection places (daemon/sftp/server's SftpPlaces).
    expect(await res.json()).toEqual({ userId, email: "player@example.com", canWrite: false, owners: true });
    const { id } = await createUser(panel.db, { email: "odd#name@example.com", username: "oddname", password: PASSWORD, scopes: [] });
    await grant(id, ["sftpServer", "viewServerFiles"]);
    const coUser = await ask({ username: "odd#name@example.com#abcd1234", password: PASSWORD });
    expect(coUser.status).toBe(200);
    expect(await coUser.json()).toMatchObject({ userId: id, owners: false });
  });

  test("without a node token nothing is said; another node cannot ask about this node's server", async () => {
    for (const res of [await ask({ username: "player@example.com#abcd1234", password: PASSWORD }, null), await ask({ username: "player@example.com#abcd1234", password: PASSWORD }, "not-a-node-secret-at-all")]) {
      expect(res.status).toBe(401);
      expect((await res.json()).error).toMatchObject({ code: "ErrInvalidCredentials", metadata: { reason: "node-token" } });
    }
    expect((await ask({ username: "player@example.com#abcd1234", password: PASSWORD }, SECRET_B)).status).toBe(404);
    expect((await ask({ username: "player@example.com#nosuchid", password: PASSWORD })).status).toBe(404);
    expect((await ask({ username: "player@example.com", password: PASSWORD })).status).toBe(404);
  });

  test("a wrong password, a missing flag; admins need no flag; two-factor accounts use the password", async () => {
    expect((await ask({ username: "player@example.com#abcd1234", password: "wrong" })).status).toBe(401);
    await grant(userId, ["viewServerFiles", "putServerFiles"]);
    const noFlag = await ask({ username: "player@example.com#abcd1234", password: PASSWORD });
    expect(noFlag.status).toBe(403);
    expect((await noFlag.json()).error).toMatchObject({ code: "ErrNoPermission", metadata: { permission: "sftpServer" } });
    await createUser(panel.db, { email: "boss@example.com", username: "bossman", password: PASSWORD, scopes: [SCOPES.admin] });
    expect((await ask({ username: "boss@example.com#abcd1234", password: PASSWORD })).status).toBe(200);
    await panel.db.update(schema.users).set({ otpEnabled: true, otpSecret: "JBSWY3DPEHPK3PXP" }).where(eq(schema.users.email, "boss@example.com")).run();
    expect((await ask({ username: "boss@example.com#abcd1234", password: PASSWORD })).status).toBe(200);
  });

  test("the answer says whether the session may change files: putServerFiles or admin; sftpServer alone may not log in", async () => {
    const login = { username: "player@example.com#abcd1234", password: PASSWORD };
    await grant(userId, ["sftpServer", "viewServerFiles", "putServerFiles"]);
    expect(await (await ask(login)).json()).toEqual({ userId, email: "player@example.com", canWrite: true, owners: true });
    // Without viewServerFiles SFTP has nothing this user may do: the file manager would not show them a file either.
    for (const flags of [["sftpServer"], ["sftpServer", "putServerFiles"]] as ServerFlag[][]) {
      await grant(userId, flags);
      const refused = await ask(login);
      expect(refused.status).toBe(403);
      expect((await refused.json()).error).toMatchObject({ code: "ErrNoPermission", metadata: { permission: "viewServerFiles" } });
    }
    const { id } = await createUser(panel.db, { email: "boss@example.com", username: "bossman", password: PASSWORD, scopes: [SCOPES.admin] });
    expect(await (await ask({ username: "boss@example.com#abcd1234", password: PASSWORD })).json()).toEqual({ userId: id, email: "boss@example.com", canWrite: true, owners: true });
  });

  test("failures count on the panel's login throttle, per account and per SFTP client address", async () => {
    panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 5, lockAfter: 3, lockMs: 60_000, delayStepMs: 1, maxDelayMs: 1 });
    for (let i = 0; i < 3; i++) expect((await ask({ username: "player@example.com#abcd1234", password: "wrong" })).status).toBe(401);
    expect((await ask({ username: "player@example.com#abcd1234", password: PASSWORD })).status).toBe(429);
    // The account is locked on the panel's own login too.
    const login = await panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "player@example.com", password: PASSWORD }) });
    expect(login.status).toBe(429);
    // Another account from the same SFTP client address is locked as well; from elsewhere it is not.
    await createUser(panel.db, { email: "other@example.com", username: "otherone", password: PASSWORD, scopes: [SCOPES.admin] });
    expect((await ask({ username: "other@example.com#abcd1234", password: PASSWORD })).status).toBe(429);
    expect((await ask({ username: "other@example.com#abcd1234", password: PASSWORD, address: "198.51.100.1" })).status).toBe(200);
  });

  test("bad bodies are refused before anything is checked", async () => {
    expect((await ask({ username: "", password: PASSWORD })).status).toBe(400);
    expect((await ask({ username: "x".repeat(600), password: PASSWORD })).status).toBe(400);
    expect((await ask({ username: "player@example.com#abcd1234" })).status).toBe(400);
  });
});
