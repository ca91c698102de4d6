// Races between two panel processes on one PostgreSQL database, found by a review of several
// panels behind one balancer. Each is a check and a write that held in one process and must hold
// when the two halves run in two:
// - a thief holding a copy of a session renews it again and again through one panel while an
//   administrator resets the password through the other: a renewal that checked the old token
//   before the reset and wrote its new one after kept a session the reset never saw;
// - the same with logins under the old password: a login that checked it before the reset and
//   made its session after kept it;
// - two administrators remove each other's admin scope at the same moment, one through each panel:
//   both passed the last-administrator check and none was left;
// - a server user asks both panels at once for more extra ports than the server's limit: each
//   panel queued only its own requests, and a failed change put back a holding the other had made.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { and, eq } from "drizzle-orm";
import { openDatabase, schema, type Db } from "../../db";
import { SCOPES } from "../../core/scopes";
import { freshPostgresDatabase, hasPostgres } from "../helpers/database";
import { echoTemplate, startTestNode, type TestNode } from "../helpers/node";
import { fileNode, jsonCall, killPanels, sessionAt, startPanelProcess, type PanelProcess } from "../helpers/panel-process";

const enabled = hasPostgres();
let db: Db;
let a: PanelProcess;
let b: PanelProcess;
let admin: string;

describe.if(enabled)("two panels on one PostgreSQL database, raced", () => {
  beforeAll(async () => {
    const url = await freshPostgresDatabase();
    db = await openDatabase(url);
    [a, b] = await Promise.all([startPanelProcess(url), startPanelProcess(url)]);
    admin = await sessionAt(a.base);
  }, 60_000);
  afterAll(async () => {
    await killPanels([a, b].filter(Boolean));
    await db?.$kiln.close();
  });

  const makeUser = async (username: string, password: string): Promise<number> => {
    const made = await fetch(`${a.base}/api/users`, jsonCall("POST", { email: `${username}@example.com`, username, password }, admin));
    expect(made.status).toBe(201);
    return ((await made.json()) as { id: number }).id;
  };

  /**
   * Three at a time through panel B, `attempt` answers a session or null, again and again, while
   * the account's password is reset through panel A (once the thief got a first session, so the
   * reset lands among its attempts however busy the machine); answers the sessions it got that
   * still work once the reset has answered.
   */
  const outlivingReset = async (userId: number, newPassword: string, attempt: () => Promise<string | null>): Promise<{ got: number; alive: string[] }> => {
    const held = new Set<string>();
    let trying = true;
    const thief = (async () => {
      while (trying) for (const session of await Promise.all([0, 1, 2].map(attempt))) if (session) held.add(session);
    })();
    for (const deadline = Date.now() + 20_000; held.size === 0 && Date.now() < deadline; ) await Bun.sleep(10);
    expect((await fetch(`${a.base}/api/users/${userId}`, jsonCall("POST", { password: newPassword }, admin))).status).toBe(200);
    trying = false;
    await thief;
    const alive = [];
    for (const session of held) if ((await fetch(`${b.base}/api/self`, jsonCall("GET", undefined, session))).status === 200) alive.push(session);
    return { got: held.size, alive };
  };
  const sessionOf = async (answer: Promise<Response>) => {
    const response = await answer;
    return response.ok ? ((await response.json()) as { session: string }).session : null;
  };

  test("a session renewed without pause through one panel ends with a password reset through the other", async () => {
    const victimId = await makeUser("victim", "victim-password-0");
    for (let trial = 1; trial <= 4; trial++) {
      let stolen = await sessionAt(b.base, { email: "victim@example.com", password: `victim-password-${trial - 1}` });
      const renew = async () => {
        const renewed = await sessionOf(fetch(`${b.base}/auth/reauth`, jsonCall("POST", undefined, stolen)));
        if (renewed) stolen = renewed;
        return renewed;
      };
      const { got, alive } = await outlivingReset(victimId, `victim-password-${trial}`, renew);
      expect(got).toBeGreaterThan(0);
      expect({ trial, alive }).toEqual({ trial, alive: [] });
    }
  }, 60_000);

  test("logins with the old password through one panel while the other resets it: none of their sessions outlives the reset", async () => {
    const victimId = await makeUser("logs-in", "logs-in-password-0");
    for (let trial = 1; trial <= 3; trial++) {
      const old = JSON.stringify({ email: "logs-in@example.com", password: `logs-in-password-${trial - 1}` });
      const logIn = () => sessionOf(fetch(`${b.base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: old }));
      const { got, alive } = await outlivingReset(victimId, `logs-in-password-${trial}`, logIn);
      expect(got).toBeGreaterThan(0);
      expect({ trial, alive }).toEqual({ trial, alive: [] });
    }
  }, 60_000);

  test("two administrators demoting each other at once through the two panels leave one administrator", async () => {
    const firstId = ((await (await fetch(`${a.base}/api/self`, jsonCall("GET", undefined, admin))).json()) as { id: number }).id;
    for (let trial = 0; trial < 3; trial++) {
      const secondId = await makeUser(`second${trial}`, "second-password");
      expect((await fetch(`${a.base}/api/users/${secondId}/perms`, jsonCall("PUT", { scopes: [SCOPES.admin] }, admin))).status).toBe(200);
      const second = await sessionAt(b.base, { email: `second${trial}@example.com`, password: "second-password" });
      const answers = await Promise.all([fetch(`${a.base}/api/users/${secondId}/perms`, jsonCall("PUT", { scopes: [] }, admin)), fetch(`${b.base}/api/users/${firstId}/perms`, jsonCall("PUT", { scopes: [] }, second))]);
      // One wins; the other is refused, as the last administrator (409) or, when the winner's change
      // had already answered, as no longer an administrator at all (403).
      const statuses = answers.map((answer) => answer.status).sort();
      const admins = await db.select().from(schema.userScopes).where(eq(schema.userScopes.scope, SCOPES.admin)).all();
      expect({ trial, won: statuses[0], admins: admins.length }).toEqual({ trial, won: 200, admins: 1 });
      expect([403, 409]).toContain(statuses[1]!);
      // The first administrator back for the next trial, whichever lost.
      if (!admins.some((row) => row.userId === firstId)) {
        await db.delete(schema.userScopes).where(and(eq(schema.userScopes.userId, secondId), eq(schema.userScopes.scope, SCOPES.admin))).run();
        await db.insert(schema.userScopes).values({ userId: firstId, scope: SCOPES.admin }).run();
        admin = await sessionAt(a.base);
      }
    }
  }, 60_000);

  describe("with a node", () => {
    let node: TestNode;
    beforeAll(async () => {
      node = await startTestNode({ panelUrl: a.base, reportToPanel: false });
      await fileNode(db, node);
    }, 60_000);
    afterAll(async () => {
      await node?.stop();
    });

    test("extra ports asked of both panels at once stay within the server's limit, and each answered one is held", async () => {
      expect((await fetch(`${a.base}/api/templates/echo`, jsonCall("PUT", echoTemplate(), admin))).ok).toBe(true);
      const nodeId = ((await (await fetch(`${a.base}/api/nodes`, jsonCall("GET", undefined, admin))).json()) as Array<{ id: number }>)[0]!.id;
      expect((await fetch(`${a.base}/api/nodes/${nodeId}/allocations`, jsonCall("POST", { ports: "30000-30099" }, admin))).status).toBe(201);
      await makeUser("operator", "operator-password");
      const operator = await sessionAt(a.base, { email: "operator@example.com", password: "operator-password" });
      for (let trial = 0; trial < 3; trial++) {
        const made = await fetch(`${b.base}/api/servers`, jsonCall("POST", { name: `ports${trial}`, node: nodeId, template: "echo", environment: { type: "standard" } }, admin));
        expect(made.status).toBe(201);
        const serverId = ((await made.json()) as { id: string }).id;
        expect((await fetch(`${a.base}/api/servers/${serverId}/allocations/limit`, jsonCall("PUT", { limit: 2 }, admin))).status).toBe(200);
        expect((await fetch(`${a.base}/api/servers/${serverId}/user/operator@example.com`, jsonCall("PUT", { manageAllocations: true }, admin))).status).toBeLessThan(300);
        const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => fetch(`${(i % 2 ? a : b).base}/api/servers/${serverId}/allocations`, jsonCall("POST", {}, operator))));
        const taken = answers.filter((answer) => answer.status === 201).length;
        const held = (await db.select().from(schema.allocations).where(eq(schema.allocations.serverId, serverId)).all()).length;
        // The primary and two extras: every 201 is a port the server holds, and no more than the limit.
        expect({ trial, taken, held }).toEqual({ trial, taken: 2, held: 3 });
      }
    }, 90_000);
  });
});
