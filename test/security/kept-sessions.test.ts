// Sessions are kept in memory between requests (services/sessions, db/kept): every way a session
// loses its right must still hold from the very next request, not once a copy goes stale. The
// holder of a session that is being taken away tries it right after: a logout, lowered scopes, a
// password changed by an administrator, a deleted account, a renewal (the old token), its expiry,
// and a change made by another process (a `kiln` command on the same database file).
import { afterEach, describe, expect, test } from "bun:test";
import { loginAs, testPanel } from "../helpers/app";
import { SCOPES } from "../../core/scopes";
import { removeSqliteFolders, twoSqliteConnections } from "../helpers/database";
import { OTHER_WRITERS_MS } from "../../db/kept";
import { createSession, findSessionUser, SESSION_TTL_MS } from "../../server/services/sessions";
import { createUser } from "../../server/services/users";

const json = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

afterEach(removeSqliteFolders);

describe("a session kept in memory loses its right at once", () => {
  test("after a logout, the token is refused on the next request", async () => {
    const panel = await testPanel();
    const user = await loginAs(panel.db, [SCOPES.serversView]);
    // Read twice: the second answer came from memory.
    for (let i = 0; i < 2; i++) expect((await panel.request("/api/self", { token: user.token })).status).toBe(200);
    expect((await panel.request("/auth/logout", { method: "POST", token: user.token })).status).toBe(204);
    const after = await panel.request("/api/self", { token: user.token });
    expect(after.status).toBe(401);
    expect(((await after.json()) as { error: { code: string } }).error.code).toBe("ErrSessionTimedOut");
  });

  test("lowered scopes apply to the next request; a password changed by an administrator or a deleted account logs out at once", async () => {
    const panel = await testPanel();
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const user = await loginAs(panel.db, [SCOPES.usersView]);
    for (let i = 0; i < 2; i++) expect((await panel.request("/api/users", { token: user.token })).status).toBe(200);
    expect((await panel.request(`/api/users/${user.userId}/perms`, { ...json("PUT", { scopes: [] }), token: admin.token })).status).toBe(200);
    expect((await panel.request("/api/users", { token: user.token })).status).toBe(403);
    expect((await panel.request("/api/self", { token: user.token })).status).toBe(200);
    expect((await panel.request(`/api/users/${user.userId}`, { ...json("POST", { password: "another-password-1" }), token: admin.token })).status).toBeLessThan(300);
    expect((await panel.request("/api/self", { token: user.token })).status).toBe(401);
    const again = await loginAs(panel.db, [SCOPES.serversView]);
    for (let i = 0; i < 2; i++) expect((await panel.request("/api/self", { token: again.token })).status).toBe(200);
    expect((await panel.request(`/api/users/${again.userId}`, { ...json("DELETE"), token: admin.token })).status).toBeLessThan(300);
    expect((await panel.request("/api/self", { token: again.token })).status).toBe(401);
  });

  test("a renewed session's old token is refused at once", async () => {
    const panel = await testPanel();
    const user = await loginAs(panel.db, [SCOPES.serversView]);
    expect((await panel.request("/api/self", { token: user.token })).status).toBe(200);
    const renewed = await panel.request("/auth/reauth", { method: "POST", token: user.token });
    expect(renewed.status).toBe(200);
    const { session } = (await renewed.json()) as { session: string };
    expect((await panel.request("/api/self", { token: user.token })).status).toBe(401);
    expect((await panel.request("/api/self", { token: session })).status).toBe(200);
  });

  test("a kept session ends at its expiry, however recently it was read", async () => {
    const panel = await testPanel();
    const { id } = await createUser(panel.db, { email: "expiring@example.com", username: "expiring", password: "password123", scopes: [] });
    const start = Date.now();
    const token = await createSession(panel.db, id, { now: start });
    expect(await findSessionUser(panel.db, token, start + 1_000)).not.toBeNull();
    expect(await findSessionUser(panel.db, token, start + SESSION_TTL_MS + 1_000)).toBeNull();
  });

  test("a session deleted by another process on the same file is refused within the re-check time", async () => {
    const [db, other] = await twoSqliteConnections();
    const { id } = await createUser(db, { email: "elsewhere@example.com", username: "elsewhere", password: "password123", scopes: [] });
    const token = await createSession(db, id);
    expect(await findSessionUser(db, token)).not.toBeNull();
    expect(await findSessionUser(db, token)).not.toBeNull();
    // As a `kiln` command would: nothing in this connection is told.
    await other.$kiln.raw("DELETE FROM sessions", []);
    await Bun.sleep(OTHER_WRITERS_MS + 20);
    expect(await findSessionUser(db, token)).toBeNull();
    await other.$kiln.close();
    await db.$kiln.close();
  });
});
