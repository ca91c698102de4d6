// Login and logout as far as the foundation goes, preferences, and per-user settings.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { createUser } from "../server/services/users";
import { SCOPES } from "../core/scopes";
import { TRANSLATION_FILES } from "../locales";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" },
  body: new URLSearchParams(fields).toString(),
});

describe("login and logout", () => {
  beforeEach(async () => {
    await createUser(panel.db, { email: "viewer@example.com", username: "viewer", password: "password123", scopes: [SCOPES.serversView] });
  });

  test("JSON login answers session and scopes and sets an HttpOnly strict cookie", async () => {
    const res = await panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "Viewer@Example.com", password: "password123" }) });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.scopes).toEqual([SCOPES.serversView]);
    expect(typeof body.session).toBe("string");
    const cookie = res.headers.get("set-cookie")!;
    expect(cookie).toContain(`kiln=${body.session}`);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    expect(cookie).not.toContain("Secure");
    // The token is stored hashed, never as sent.
    const stored = (await panel.db.$kiln.raw("select token_hash from sessions")) as { token_hash: string }[];
    expect(stored.map((s) => s.token_hash)).not.toContain(body.session);
    // …and works as a bearer header.
    expect((await panel.request("/api/userSettings", { headers: { authorization: `Bearer ${body.session}` } })).status).toBe(200);
  });

  test("over https (directly or through a trusted proxy) the cookie is Secure", async () => {
    const body = JSON.stringify({ email: "viewer@example.com", password: "password123" });
    const direct = await panel.app.request("https://localhost/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(direct.headers.get("set-cookie")).toContain("Secure");
    const proxied = await testPanel({ trustProxy: true });
    await createUser(proxied.db, { email: "p@example.com", username: "proxied", password: "password123" });
    const res = await proxied.request("/auth/login", { method: "POST", headers: { "content-type": "application/json", "x-forwarded-proto": "https" }, body: JSON.stringify({ email: "p@example.com", password: "password123" }) });
    expect(res.headers.get("set-cookie")).toContain("Secure");
  });

  test("wrong credentials answer 400 ErrInvalidCredentials whether or not the email exists (a 401 would read as a lost session)", async () => {
    for (const email of ["viewer@example.com", "nobody@example.com"]) {
      const res = await panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email, password: "wrong-password" }) });
      expect(res.status).toBe(400);
      expect((await res.json()).error.code).toBe("ErrInvalidCredentials");
    }
    const missing = await panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ email: "viewer@example.com" }) });
    expect((await missing.json()).error).toEqual({ code: "ErrFieldRequired", msg: "password is required", metadata: { field: "password" } });
    const broken = await panel.request("/auth/login", { method: "POST", headers: { "content-type": "application/json" }, body: "{nope" });
    expect((await broken.json()).error.code).toBe("ErrInvalidJson");
  });

  test("the login form redirects to Servers when the user may view them, and shows errors in place", async () => {
    const ok = await panel.request("/auth/login", form({ email: "viewer@example.com", password: "password123" }));
    expect(ok.status).toBe(303);
    expect(ok.headers.get("location")).toBe("/server");
    const bad = await panel.request("/auth/login", form({ email: "viewer@example.com", password: "nope-nope" }));
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Invalid credentials");
  });

  test("a user without servers.view lands on Account", async () => {
    await createUser(panel.db, { email: "plain@example.com", username: "plain", password: "password123" });
    const res = await panel.request("/auth/login", form({ email: "plain@example.com", password: "password123" }));
    expect(res.headers.get("location")).toBe("/account");
  });

  test("logout ends the session, clears the cookie and toasts once", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const res = await panel.request("/auth/logout", { ...form({}), token });
    expect(res.headers.get("location")).toBe("/auth/login");
    expect(res.headers.get("set-cookie")).toContain("kiln=;");
    expect((await panel.request("/server", { headers: HTML, token })).headers.get("location")).toBe("/auth/login");
    const flash = /kiln_flash=([^;]+)/.exec(res.headers.get("set-cookie")!)![1];
    const page = await panel.request("/auth/login", { headers: { cookie: `kiln_flash=${flash}` } });
    expect(await page.text()).toContain("You have been logged out");
  });

  test("a session-timed-out visit shows the message", async () => {
    expect(await (await panel.request("/auth/login?reason=session_timed_out")).text()).toContain("Your session timed out, please log in again");
  });

  test("state-changing requests from another origin are refused", async () => {
    const res = await panel.request("/auth/login", { ...form({ email: "viewer@example.com", password: "password123" }), headers: { ...form({}).headers, origin: "http://evil.example" } });
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("ErrNoPermission");
  });
});

describe("preferences", () => {
  test("the language form stores a shipped locale and the page follows it", async () => {
    const res = await panel.request("/prefs", form({ locale: "de_DE", back: "/auth/login" }));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("/auth/login");
    expect(res.headers.get("set-cookie")).toContain("kiln_locale=de_DE");
    const page = await panel.request("/auth/login", { headers: { cookie: "kiln_locale=de_DE" } });
    expect(await page.text()).toContain('lang="de-DE"');
  });

  test("an Arabic, Persian or Hebrew page runs right to left, in its own words", async () => {
    for (const [locale, tag] of [["ar_SA", "ar-SA"], ["he_IL", "he-IL"], ["fa_IR", "fa-IR"]] as const) {
      const html = await (await panel.request("/auth/login", { headers: { cookie: `kiln_locale=${locale}` } })).text();
      expect(html).toContain(`lang="${tag}" dir="rtl"`);
      // The login button in the page's language, not English.
      expect(html).not.toContain(">Log in<");
    }
    expect(await (await panel.request("/auth/login", { headers: { cookie: "kiln_locale=ja_JP" } })).text()).toContain('lang="ja-JP" dir="ltr"');
  });

  test("the language picker says how much of each locale is translated", async () => {
    const html = await (await panel.request("/auth/login")).text();
    const buttons = [...html.matchAll(/<button([^>]*)>(.*?)<\/button>/g)].filter(([, attributes]) => attributes!.includes('name="locale"'));
    const labels = buttons.map(([, attributes, inner]) => [/value="(\w+)"/.exec(attributes!)![1], /<small class="muted">([^<]*)<\/small>/.exec(inner!)![1]]);
    expect(labels.length).toBe(42);
    // Only whole translations ship (locales/locales.test.ts); a locale without one reads in English and says so.
    const shipped = (locale: string) => locale.startsWith("en_") || Object.hasOwn(TRANSLATION_FILES, locale) || Object.hasOwn(TRANSLATION_FILES, locale.split("_")[0]!);
    for (const [locale, label] of labels) expect({ locale, label }).toEqual({ locale, label: shipped(locale!) ? "100% translated" : "partly translated: 0%" });
  });

  test("an unknown locale, an outside back link and a bad theme change nothing", async () => {
    const res = await panel.request("/prefs", form({ locale: "../../etc/passwd", theme: "nope", back: "//evil.example/x" }));
    expect(res.headers.get("location")).toBe("/");
    expect(res.headers.get("set-cookie")).toBeNull();
  });

  test("without a stored locale, Accept-Language decides; else en_US", async () => {
    expect(await (await panel.request("/auth/login", { headers: { "accept-language": "fr-FR,fr;q=0.9" } })).text()).toContain('lang="fr-FR"');
    expect(await (await panel.request("/auth/login")).text()).toContain('lang="en-US"');
  });

  test("logged out, dark and theme live in cookies the page honours", async () => {
    const res = await panel.request("/prefs", form({ dark: "1", theme: "ocean", back: "/auth/login" }));
    const cookies = res.headers.get("set-cookie")!;
    expect(cookies).toContain("kiln_dark=1");
    expect(cookies).toContain("kiln_theme=ocean");
    const html = await (await panel.request("/auth/login", { headers: { cookie: "kiln_dark=1; kiln_theme=ocean" } })).text();
    expect(html).toContain('class="dark"');
    expect(html).toContain('data-theme="ocean"');
  });

  test("logged in, dark and theme are stored per user", async () => {
    const { token, userId } = await loginAs(panel.db, [SCOPES.admin]);
    await panel.request("/prefs", { ...form({ dark: "1", theme: "forest" }), token });
    const rows = (await panel.db.$kiln.raw("select key, value from user_settings where user_id = ? order by key", [userId]));
    expect(rows).toEqual([{ key: "dark", value: "true" }, { key: "preferredTheme", value: "forest" }]);
    const html = await (await panel.request("/server", { token })).text();
    expect(html).toContain('class="dark"');
    expect(html).toContain('data-theme="forest"');
    expect((await (await panel.request("/api/config", { token })).json()).themes.active).toBe("forest");
  });
});

describe("user settings API", () => {
  test("PUT then GET", async () => {
    const { token } = await loginAs(panel.db);
    const put = await panel.request("/api/userSettings/dark", { method: "PUT", token, headers: { "content-type": "application/json" }, body: JSON.stringify({ value: "true" }) });
    expect(put.status).toBe(204);
    expect(await (await panel.request("/api/userSettings", { token })).json()).toEqual([{ key: "dark", value: "true" }]);
  });

  test("bad input gets a catalogue error and changes nothing", async () => {
    const { token } = await loginAs(panel.db);
    const put = (key: string, body: string) => panel.request(`/api/userSettings/${key}`, { method: "PUT", token, headers: { "content-type": "application/json" }, body });
    expect((await (await put("shoeSize", '{"value":"9"}')).json()).error).toMatchObject({ code: "ErrSettingNotConfigured", metadata: { name: "shoeSize" } });
    expect((await (await put("preferredTheme", '{"value":"nope"}')).json()).error.code).toBe("ErrFieldNotBetween");
    expect((await (await put("dark", "{")).json()).error.code).toBe("ErrInvalidJson");
    expect((await (await put("dark", "{}")).json()).error).toMatchObject({ code: "ErrFieldRequired", metadata: { field: "value" } });
    expect(await (await panel.request("/api/userSettings", { token })).json()).toEqual([]);
  });

  test("without a session: 401 ErrSessionTimedOut", async () => {
    const res = await panel.request("/api/userSettings");
    expect(res.status).toBe(401);
    expect((await res.json()).error.code).toBe("ErrSessionTimedOut");
  });
});

describe("i18n slice for the browser", () => {
  test("gives only the asked prefixes, in the caller's locale", async () => {
    const res = await panel.request("/i18n/messages?prefix=errors.&prefix=../", { headers: { cookie: "kiln_locale=en_US" } });
    const body = await res.json();
    expect(body["errors.ErrMissingScope"]).toBe("You are not authorised to perform this action");
    expect(Object.keys(body).every((k) => k.startsWith("errors."))).toBe(true);
  });
});
