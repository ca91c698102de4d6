// Cookies do not isolate by port: a page on another port of the panel's host (a game server's web
// map, whose files a server user controls) can set `kiln=<its session>; Path=/server` for the
// panel's host. The browser then sends both copies to /server/..., the more specific first, and the
// panel read the first: the victim (an administrator) saw and acted in the attacker's account on
// /server pages while /account was still their own. A request naming a session cookie twice is now
// nobody's, and its answer deletes every copy that could have been sent
// (server/middleware/session-cookie.ts).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Browser } from "playwright-core";
import { loginAs, testPanel, HTML } from "../helpers/app";
import { hasChromium } from "../helpers/require-part";
import { browserPanelForFile, logInAsAdmin } from "../helpers/browser-panel";

/** The Set-Cookie lines of an answer that delete `name`, as "path|domain" ("" for host-only). */
function cleared(res: Response, name: string): Set<string> {
  const out = new Set<string>();
  for (const line of res.headers.getSetCookie()) {
    if (!line.startsWith(`${name}=;`) || !/;\s*Max-Age=0/i.test(line)) continue;
    const path = /;\s*Path=([^;]*)/i.exec(line)?.[1] ?? "";
    const domain = /;\s*Domain=([^;]*)/i.exec(line)?.[1] ?? "";
    out.add(`${path}|${domain}`);
  }
  return out;
}

const PREFIXES_OF_SERVER_PAGE = ["/", "/server", "/server/", "/server/abc"];

describe("a request carrying a session cookie twice", () => {
  test("is neither the attacker's nor the victim's session, and its answer clears every copy; no session is revoked", async () => {
    const panel = await testPanel();
    const victim = await loginAs(panel.db);
    const attacker = await loginAs(panel.db);
    const cookie = `kiln=${attacker.token}; kiln=${victim.token}`;

    const api = await panel.request("/api/self", { headers: { cookie } });
    expect(api.status).toBe(401);
    expect(((await api.json()) as { error: { code: string } }).error.code).toBe("ErrSessionTimedOut");
    const apiCleared = cleared(api, "kiln");
    for (const path of ["/", "/api", "/api/", "/api/self"]) for (const domain of ["", "localhost"]) expect(apiCleared).toContain(`${path}|${domain}`);

    // A page is the login page, as for any caller without a session.
    const page = await panel.request("/server/abc", { headers: { ...HTML, cookie } });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/auth/login");
    const pageCleared = cleared(page, "kiln");
    for (const path of PREFIXES_OF_SERVER_PAGE) for (const domain of ["", "localhost"]) expect(pageCleared).toContain(`${path}|${domain}`);

    // A planted copy with Domain= a parent of the panel's host is sent too: cleared there as well.
    const sub = await panel.request("/api/self", { host: "panel.example.com", headers: { cookie } });
    expect(sub.status).toBe(401);
    expect(cleared(sub, "kiln")).toContain("/api|example.com");
    expect(cleared(sub, "kiln")).toContain("/api|panel.example.com");

    // Nothing was revoked: each copy alone is still its holder's.
    expect((await panel.request("/api/self", { token: victim.token })).status).toBe(200);
    expect((await panel.request("/api/self", { token: attacker.token })).status).toBe(200);
    // A request with one copy is untouched.
    expect(cleared(await panel.request("/api/self", { token: victim.token }), "kiln").size).toBe(0);
  });

  test("two copies of one value are that one session: nothing to tell apart, nothing cleared", async () => {
    const panel = await testPanel();
    const holder = await loginAs(panel.db);
    const res = await panel.request("/api/self", { headers: { cookie: `kiln=${holder.token}; kiln=${holder.token}` } });
    expect(res.status).toBe(200);
    expect(cleared(res, "kiln").size).toBe(0);
  });

  test("PufferPanel's puffer_auth twice is the same", async () => {
    const panel = await testPanel();
    const victim = await loginAs(panel.db);
    const attacker = await loginAs(panel.db);
    const res = await panel.request("/api/self", { headers: { cookie: `puffer_auth=${attacker.token}; puffer_auth=${victim.token}` } });
    expect(res.status).toBe(401);
    expect(cleared(res, "puffer_auth")).toContain("/api|");
  });

  test("a login sent with two copies keeps the session it makes: the clearing comes before it", async () => {
    const panel = await testPanel();
    const victim = await loginAs(panel.db);
    const attacker = await loginAs(panel.db);
    const res = await panel.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/json", cookie: `kiln=${attacker.token}; kiln=${victim.token}` },
      body: JSON.stringify({ email: victim.email, password: "password123" }),
    });
    expect(res.status).toBe(200);
    const lines = res.headers.getSetCookie().filter((l) => l.startsWith("kiln="));
    const last = lines.filter((l) => /;\s*Path=\/(;|$)/i.test(l) && !/Domain=/i.test(l)).at(-1) ?? "";
    expect(last).not.toMatch(/Max-Age=0/i);
    expect(last.startsWith("kiln=;")).toBe(false);
  });
});

// The same in Chromium, as the attack happens: another port of the panel's host sets the cookie.
const enabled = hasChromium();
let browser: Browser;
let base: string;
browserPanelForFile(enabled, (panel) => ({ browser, base } = panel));
let attackerToken = "";
let gamePage: ReturnType<typeof Bun.serve> | undefined;
beforeAll(() => {
  gamePage = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () => new Response(`<!doctype html><script>document.cookie = "kiln=${attackerToken}; path=/server"</script>`, { headers: { "content-type": "text/html" } }),
  });
});
afterAll(() => gamePage?.stop(true));

describe.if(enabled)("a session cookie planted from another port, in Chromium", () => {
  test("the administrator is shown the login page on /server, never the attacker's account", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await logInAsAdmin(page, base);
    const made = await page.request.post(`${base}/api/users`, { data: { email: "mallory@example.com", username: "mallory", password: "mallorypassword" } });
    expect(made.status()).toBeLessThan(300);
    const login = await fetch(`${base}/auth/login`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "mallory@example.com", password: "mallorypassword" }) });
    attackerToken = ((await login.json()) as { session: string }).session;
    const adminToken = (await context.cookies(base)).find((c) => c.name === "kiln")!.value;

    await page.goto(`http://localhost:${gamePage!.port}/`);
    expect((await context.cookies(`${base}/server`)).filter((c) => c.name === "kiln").map((c) => c.path).sort()).toEqual(["/", "/server"]);

    await page.goto(`${base}/server`);
    expect(new URL(page.url()).pathname).toBe("/auth/login");
    expect(await page.locator("body").innerText()).not.toContain("mallory");
    // Every copy is gone; the administrator's session was not revoked, only forgotten by this browser.
    expect((await context.cookies(`${base}/server`)).filter((c) => c.name === "kiln")).toEqual([]);
    expect((await fetch(`${base}/api/self`, { headers: { authorization: `Bearer ${adminToken}` } })).status).toBe(200);

    await logInAsAdmin(page, base);
    expect(await page.locator("body").innerText()).not.toContain("mallory");
    await context.close();
  }, 30_000);
});
