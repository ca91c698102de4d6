// Attacks on what every request passes before its route (server/middleware/request-frame.ts):
// answers that come from a refusal rather than a route still carry the security headers; a
// flood of made-up Host and Accept-Language values (each judged once and remembered, within a
// bound) neither lets a cloud-IDE host through nor changes a visitor's language; the public
// config worked out once per settings snapshot never shows one caller's theme to another and
// never outlives a settings change.
import { beforeAll, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import { HTML, loginAs, testPanel, type TestPanel } from "../helpers/app";

let panel: TestPanel;
let admin: { token: string };
beforeAll(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
});

function expectSecurityHeaders(response: Response): void {
  expect(response.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  expect(response.headers.get("x-frame-options")).toBe("DENY");
  expect(response.headers.get("x-content-type-options")).toBe("nosniff");
}

describe("refusals carry the security headers", () => {
  test("another site's change, a missing session, a body too large, a wrong path, an error page, the cloud-IDE warning", async () => {
    const refusals: [Response, number][] = [
      [await panel.request("/api/userSettings/dark", { method: "PUT", token: admin.token, headers: { origin: "https://evil.example", "content-type": "application/json" }, body: '{"value":"true"}' }), 403],
      [await panel.request("/api/servers"), 401],
      [await panel.request("/api/userSettings/dark", { method: "PUT", token: admin.token, headers: { origin: "http://localhost", "content-type": "application/json", "content-length": String(64 * 1024 * 1024) }, body: '{"value":"true"}' }), 413],
      [await panel.request("/api/no/such/thing"), 404],
      [await panel.request("/server/00000000", { token: admin.token, headers: HTML }), 404],
      [await panel.request("/auth/login", { host: "x-3000.app.github.dev", headers: HTML }), 403],
    ];
    for (const [response, status] of refusals) {
      expect(response.status).toBe(status);
      expectSecurityHeaders(response);
    }
    // The refused change changed nothing.
    const settings: { key: string }[] = await (await panel.request("/api/userSettings", { token: admin.token })).json();
    expect(settings.map((s) => s.key)).not.toContain("dark");
  });
});

describe("headers judged once per distinct value", () => {
  test("after thousands of made-up hosts, a cloud IDE's host in any spelling is still refused and the panel's own is served", async () => {
    for (let i = 0; i < 2_500; i++) expect((await panel.request("/api/config", { host: `made-up-${i}.example` })).status).toBe(200);
    for (const host of ["x-8080.app.github.dev", "X-8080.APP.GITHUB.DEV", "abc.gitpod.io.", "abc.gitpod.io:443"]) {
      expect((await panel.request("/api/config", { host })).status).toBe(403);
    }
    expect((await panel.request("/api/config", { host: "localhost" })).status).toBe(200);
  });

  test("after thousands of made-up Accept-Language values, each visitor still gets the language they ask for", async () => {
    for (let i = 0; i < 2_500; i++) await panel.request("/auth/login", { headers: { ...HTML, "accept-language": `xx-${i},en;q=0.1` } });
    const french = await (await panel.request("/auth/login", { headers: { ...HTML, "accept-language": "fr-FR,fr;q=0.9" } })).text();
    const german = await (await panel.request("/auth/login", { headers: { ...HTML, "accept-language": "de-DE,de;q=0.9" } })).text();
    expect(french).toContain('data-locale="fr_FR"');
    expect(german).toContain('data-locale="de_DE"');
  });
});

describe("the public config kept per settings snapshot", () => {
  const config = async (token?: string) => (await (await panel.request("/api/config", { token })).json()) as { branding: { name: string }; themes: { active: string; available: string[] } };

  test("one user's theme is theirs alone: the answer kept for everyone else is not it", async () => {
    const user = await loginAs(panel.db);
    const before = await config();
    const other = before.themes.available.find((name) => name !== before.themes.active)!;
    expect((await panel.request("/api/userSettings/preferredTheme", { method: "PUT", token: user.token, headers: { origin: "http://localhost", "content-type": "application/json" }, body: JSON.stringify({ value: other }) })).status).toBe(204);
    expect((await config(user.token)).themes.active).toBe(other);
    expect((await config()).themes.active).toBe(before.themes.active);
    expect((await config(admin.token)).themes.active).toBe(before.themes.active);
  });

  test("a settings change shows on the next request", async () => {
    await config();
    expect((await panel.request("/api/settings/panel.settings.companyName", { method: "PUT", token: admin.token, headers: { origin: "http://localhost", "content-type": "application/json" }, body: JSON.stringify({ value: "Acme Hosting" }) })).status).toBe(204);
    expect((await config()).branding.name).toBe("Acme Hosting");
  });
});
