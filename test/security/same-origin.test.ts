// Attacks on the same-origin rule: a page of another site (or a sandboxed frame, or a proxy
// header the panel does not trust) tries to change state with the victim's session cookie.
// Each refused attempt must change nothing; the panel's own pages and bearer clients pass.
import { describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";

/** A cookie-authenticated change (the dark-mode preference) with these extra headers; the host the browser used is `host`. */
async function change(panel: TestPanel, token: string, headers: Record<string, string>, host = "localhost"): Promise<Response> {
  return panel.request("/api/userSettings/dark", { method: "PUT", token, host, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ value: "true" }) });
}

async function dark(panel: TestPanel, token: string): Promise<string | undefined> {
  const settings: { key: string; value: string }[] = await (await panel.request("/api/userSettings", { token })).json();
  return settings.find((s) => s.key === "dark")?.value;
}

async function expectRefused(panel: TestPanel, token: string, response: Response): Promise<void> {
  expect(response.status).toBe(403);
  expect((await response.json()).error.code).toBe("ErrNoPermission");
  expect(await dark(panel, token)).toBeUndefined();
}

describe("cookie-authenticated changes", () => {
  test("Origin: null (sandboxed frames, file: pages) is refused", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    await expectRefused(panel, token, await change(panel, token, { origin: "null" }));
  });

  test("a foreign Origin is refused, with or without an X-Forwarded-Host naming the panel, when no proxy is trusted", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    await expectRefused(panel, token, await change(panel, token, { origin: "http://evil.example" }));
    await expectRefused(panel, token, await change(panel, token, { origin: "http://evil.example", "x-forwarded-host": "evil.example" }));
    await expectRefused(panel, token, await change(panel, token, { origin: "http://evil.example", "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }));
  });

  test("malformed Origin headers are 403, never 500", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    for (const origin of ["::::", "http://[bad", "localhost", "http://", "%zz", "javascript:alert(1)", "file:///etc/passwd", "http://localhost:99999"]) {
      await expectRefused(panel, token, await change(panel, token, { origin }));
    }
  });

  test("another scheme's page on the same host is refused", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    await expectRefused(panel, token, await change(panel, token, { origin: "ws://localhost" }));
    await expectRefused(panel, token, await change(panel, token, { origin: "http://localhost:8081" }));
  });

  test("Sec-Fetch-Site cross-site or same-site is refused even without an Origin", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    await expectRefused(panel, token, await change(panel, token, { "sec-fetch-site": "cross-site" }));
    await expectRefused(panel, token, await change(panel, token, { "sec-fetch-site": "same-site" }));
    await expectRefused(panel, token, await change(panel, token, { "sec-fetch-site": "cross-site", origin: "http://localhost" }));
  });

  test("the panel's own pages are accepted: its Origin, or Sec-Fetch-Site same-origin", async () => {
    const panel = await testPanel();
    const a = await loginAs(panel.db);
    expect((await change(panel, a.token, { origin: "http://localhost", "sec-fetch-site": "same-origin" })).status).toBe(204);
    expect(await dark(panel, a.token)).toBe("true");
    const b = await loginAs(panel.db);
    expect((await change(panel, b.token, { "sec-fetch-site": "same-origin" })).status).toBe(204);
    const c = await loginAs(panel.db);
    expect((await change(panel, c.token, { origin: "http://panel.example:8080" }, "panel.example:8080")).status).toBe(204);
  });

  test("a form login posted from another site is refused (no login CSRF)", async () => {
    const panel = await testPanel();
    const { email } = await loginAs(panel.db);
    const res = await panel.request("/auth/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "null" },
      body: new URLSearchParams({ email, password: "password123" }).toString(),
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("set-cookie") ?? "").not.toContain("kiln=");
  });
});

describe("behind a trusted reverse proxy", () => {
  test("X-Forwarded-Host names the panel's public host; a foreign Origin is still refused", async () => {
    const panel = await testPanel({ trustProxy: true });
    const { token } = await loginAs(panel.db);
    const proxied = { "x-forwarded-host": "panel.example.com", "x-forwarded-proto": "https" };
    await expectRefused(panel, token, await change(panel, token, { ...proxied, origin: "https://evil.example" }, "127.0.0.1:8080"));
    await expectRefused(panel, token, await change(panel, token, { ...proxied, origin: "null" }, "127.0.0.1:8080"));
    expect((await change(panel, token, { ...proxied, origin: "https://panel.example.com" }, "127.0.0.1:8080")).status).toBe(204);
  });

  test("without trustProxy the same proxy headers do not make a foreign host the panel's", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    await expectRefused(panel, token, await change(panel, token, { "x-forwarded-host": "panel.example.com", origin: "https://panel.example.com" }, "127.0.0.1:8080"));
  });
});

describe("bearer clients", () => {
  test("are not browsers and are exempt: a foreign or null Origin does not matter", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    const res = await panel.request("/api/userSettings/dark", {
      method: "PUT",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", origin: "null" },
      body: JSON.stringify({ value: "true" }),
    });
    expect(res.status).toBe(204);
    expect(await dark(panel, token)).toBe("true");
  });

  // A header that only looks like a bearer is no credential: the request is judged by its cookie,
  // and a cookie is not excused from the rule by a header another site's page wrote beside it.
  test("a header that only looks like a bearer does not excuse the cookie it falls back to", async () => {
    const panel = await testPanel();
    const { token } = await loginAs(panel.db);
    for (const authorization of ["Bearer a b", "Bearer x, Bearer y", "Bearer ", "bearer\t"]) {
      await expectRefused(panel, token, await change(panel, token, { authorization, origin: "http://evil.example" }));
      await expectRefused(panel, token, await change(panel, token, { authorization, "sec-fetch-site": "cross-site" }));
    }
  });
});
