// Pages kept as HTML (server/render renderKept): the login page for logged-out visitors, the
// server list page for each caller. An attacker who asks for them with their own query, headers,
// cookies or session must not change what anybody else is served, nor see a page kept for
// somebody else: everything a request puts in the page is part of what the page is kept under. A
// request with a flash to show is rendered for itself, a change shows on the next request, and a
// flood of distinct queries keeps at most KEPT_PAGES_MAX pages.
import { beforeAll, describe, expect, test } from "bun:test";
import { loginAs, testPanel, type TestPanel } from "../helpers/app";
import { KEPT_PAGES_MAX } from "../../server/render";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { eq } from "drizzle-orm";

let panel: TestPanel;
beforeAll(async () => {
  panel = await testPanel();
});

const page = async (path: string, headers: Record<string, string> = {}) => (await panel.request(path, { headers: { accept: "text/html", ...headers } })).text();

describe("the kept login page", () => {
  test("an attacker's query, language, theme and forwarded headers reach only their own copy", async () => {
    const clean = await page("/auth/login");
    const marker = "kiln-attack-marker";
    await page(`/auth/login?reason=${marker}&x=%3Cscript%3E${marker}%3C/script%3E`, { "accept-language": "ar", cookie: `kiln_theme=${marker}; kiln_dark=1`, "x-forwarded-host": `${marker}.example`, host: `${marker}.example` });
    await page("/auth/login?reason=expired", { "x-forwarded-for": "203.0.113.9", "x-forwarded-host": `${marker}.example` });
    const again = await page("/auth/login");
    expect(again === clean).toBe(true);
    expect(again.includes(marker)).toBe(false);
  });

  test("a flash and a session are the request's own; the logged-in visitor is sent on", async () => {
    const withFlash = await page("/auth/login", { cookie: "kiln_flash=toast.loggedOut" });
    expect(withFlash.includes("data-server-toast")).toBe(true);
    expect((await page("/auth/login")).includes("data-server-toast")).toBe(false);
    const { token } = await loginAs(panel.db, []);
    const answer = await panel.request("/auth/login", { token, headers: { accept: "text/html" } });
    expect(answer.status).toBe(302);
  });

  test("distinct queries without end are served and keep memory bounded", async () => {
    for (let i = 0; i < KEPT_PAGES_MAX * 3; i++) expect(await page(`/auth/login?n=${i}`)).toContain(`n=${i}`);
    expect(await page("/auth/login")).toContain("<form");
  });
});

describe("the kept server list page", () => {
  let made = 0;
  /** A server on a node that does not answer (its status reads "unknown"), shared with `userId` when given; its id. */
  async function server(name: string, userId?: number): Promise<string> {
    const id = `kept${String(++made).padStart(4, "0")}`;
    const [node] = await panel.db.insert(schema.nodes).values({ name: `node-${id}`, publicHost: "127.0.0.1", publicPort: 9, privateHost: "127.0.0.1", privatePort: 9, sftpPort: 1, secret: "x", createdAt: new Date() }).returning();
    await panel.db.insert(schema.servers).values({ id, name, nodeId: node!.id, state: "ready", createdAt: new Date() }).run();
    if (userId !== undefined) await panel.db.insert(schema.serverUsers).values({ serverId: id, userId, flags: [] }).run();
    return id;
  }
  const list = async (token: string, headers: Record<string, string> = {}) => (await panel.request("/server", { token, headers: { accept: "text/html", ...headers } })).text();

  test("each caller gets the page of their own rights and name, never one kept for another", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const user = await loginAs(panel.db, []);
    await server("shared-alpha", user.userId);
    await server("secret-beta");
    const adminPage = await list(admin.token);
    expect(adminPage).toContain("secret-beta");
    for (let i = 0; i < 2; i++) {
      const userPage = await list(user.token);
      expect(userPage).toContain("shared-alpha");
      expect(userPage).not.toContain("secret-beta");
      expect(userPage).not.toBe(adminPage);
    }
    expect(await list(admin.token)).toBe(adminPage);
  });

  test("a change shows on the next request: a new server, a rename, access taken away, a flash", async () => {
    const user = await loginAs(panel.db, []);
    await server("shared-gamma", user.userId);
    expect(await list(user.token)).toContain("shared-gamma");
    const delta = await server("shared-delta", user.userId);
    expect(await list(user.token)).toContain("shared-delta");
    await panel.db.update(schema.servers).set({ name: "renamed-delta" }).where(eq(schema.servers.id, delta)).run();
    expect(await list(user.token)).toContain("renamed-delta");
    await panel.db.delete(schema.serverUsers).where(eq(schema.serverUsers.userId, user.userId)).run();
    const none = await list(user.token);
    expect(none).not.toContain("shared-gamma");
    expect(none).not.toContain("renamed-delta");
    expect(await list(user.token, { cookie: "kiln_flash=toast.loggedOut" })).toContain("data-server-toast");
    expect(await list(user.token)).not.toContain("data-server-toast");
  });
});
