// The foundation's HTTP surface, driven through app.request() on a fresh database each.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { readTar } from "../core/tar";
import { SCOPES } from "../core/scopes";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

describe("routes in history mode", () => {
  test("/ redirects to /server, which redirects to login without a session", async () => {
    const root = await panel.request("/", { headers: HTML });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toBe("/server");
    const servers = await panel.request("/server", { headers: HTML });
    expect(servers.headers.get("location")).toBe("/auth/login");
  });

  test("every login-only screen redirects to login without a session", async () => {
    for (const path of ["/server", "/addserver", "/server/1", "/account", "/user", "/user/1", "/adduser", "/template", "/template/x", "/addtemplate", "/node", "/node/1", "/addnode", "/settings"]) {
      const res = await panel.request(path, { headers: HTML });
      expect(`${path} ${res.status} ${res.headers.get("location")}`).toBe(`${path} 302 /auth/login`);
    }
  });

  test("the no-login screens answer without a session", async () => {
    for (const path of ["/auth/login", "/auth/register"]) expect((await panel.request(path, { headers: HTML })).status).toBe(200);
    const invite = await panel.request("/auth/invite?token=nope", { headers: HTML });
    expect(invite.status).toBe(400);
    expect(await invite.text()).toContain("The invite link appears to be invalid");
    expect((await panel.request("/errors/404", { headers: HTML })).status).toBe(404);
  });

  test("unknown paths redirect to the 404 screen; unknown API paths answer ErrNotFound", async () => {
    const page = await panel.request("/no/such/page", { headers: HTML });
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toBe("/errors/404");
    const api = await panel.request("/api/nope");
    expect(api.status).toBe(404);
    expect(await api.json()).toEqual({ error: { code: "ErrNotFound", msg: "Not found" } });
  });

  test("with a session the screens render in the shell", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const res = await panel.request("/server", { headers: HTML, token });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toStartWith("<!DOCTYPE html>");
    expect(html).toContain('class="drawer"');
    expect(html).toContain("No servers yet.");
  });
});

describe("drawer", () => {
  const entries = (html: string) => [...html.matchAll(/data-hotkey="(g [a-z])"/g)].map((m) => m[1]);

  test("an admin sees every entry", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    expect(entries(await (await panel.request("/account", { token })).text())).toEqual(["g a", "g s", "g n", "g u", "g t", "g y", "g w", "g c"]);
  });

  test("entries follow scopes; settings is for admins only", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.serversView, SCOPES.templatesView, SCOPES.settingsEdit]);
    expect(entries(await (await panel.request("/account", { token })).text())).toEqual(["g a", "g s", "g t"]);
    const none = await loginAs(panel.db, []);
    expect(entries(await (await panel.request("/account", { token: none.token })).text())).toEqual(["g a"]);
  });
});

describe("islands", () => {
  test("a page with an island carries one props payload and the loader", async () => {
    const html = await (await panel.request("/auth/login")).text();
    expect(html).toContain('data-island="ThemeMenu"');
    const payloads = html.match(/<script type="application\/json" id="kiln-islands">(.*?)<\/script>/g) ?? [];
    expect(payloads).toHaveLength(1);
    const payload = JSON.parse(/>(.*)</.exec(payloads[0]!)![1]!);
    expect(payload.islands.map((i: { name: string }) => i.name)).toEqual(["ThemeMenu", "PasskeyLogin"]);
    expect(payload.islands[0].props.themes.map((t: { name: string }) => t.name)).toEqual(["kiln", "forest", "ocean"]);
    // Only the messages the islands declared cross the wire.
    const keys = Object.keys(payload.messages);
    expect(keys.some((k) => k.startsWith("theme."))).toBe(true);
    expect(keys.every((k) => k.startsWith("theme.") || k.startsWith("passkey."))).toBe(true);
    expect(html).toMatch(/<script type="module" src="\/assets\/client-[a-z0-9]+\.js">/);
  });

  test("a page that renders no island emits no island script", async () => {
    const html = await (await panel.request("/auth/login", { host: "demo-8080.app.github.dev" })).text();
    expect(html).not.toContain("data-island");
    expect(html).not.toContain("kiln-islands");
    expect(html).not.toContain("<script");
  });

  test("bundles are content-hashed, cached for a year and served gzip", async () => {
    const html = await (await panel.request("/auth/login")).text();
    const src = /src="(\/assets\/client-[a-z0-9]+\.js)"/.exec(html)![1]!;
    const res = await panel.request(src, { headers: { "accept-encoding": "gzip" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(res.headers.get("content-encoding")).toBe("gzip");
    // The asset's own bytes, every time (answers share one Blob of them), gzip or not.
    const asset = panel.deps.assets.bundles.get(src.slice("/assets/".length))!;
    for (let i = 0; i < 2; i++) {
      const gz = await panel.request(src, { headers: { "accept-encoding": "gzip" } });
      expect(Bun.gunzipSync(new Uint8Array(await gz.arrayBuffer()))).toEqual(new Uint8Array(asset.body));
      const plain = await panel.request(src);
      expect(plain.headers.get("content-type")).toBe(asset.type);
      expect(new Uint8Array(await plain.arrayBuffer())).toEqual(new Uint8Array(asset.body));
    }
    const again = await panel.request(src, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect((await panel.request("/assets/nope.js")).status).toBe(404);
  });
});

describe("config and themes", () => {
  test("GET /api/config gives branding, themes and whether registration is on", async () => {
    expect(await (await panel.request("/api/config")).json()).toEqual({ branding: { name: "Kiln" }, themes: { active: "kiln", available: ["kiln", "forest", "ocean"] }, registrationEnabled: false });
  });

  test("the brand comes from config, else the company-name setting", async () => {
    const { setSetting } = await import("../server/services/settings");
    await setSetting(panel.db, "panel.settings.companyName", "Acme Hosting");
    expect((await (await panel.request("/api/config")).json()).branding.name).toBe("Acme Hosting");
    expect(await (await panel.request("/auth/login")).text()).toContain("Log in · Acme Hosting");
    const branded = await testPanel({ branding: { name: "From Config" } });
    await setSetting(branded.db, "panel.settings.companyName", "Acme Hosting");
    expect((await (await branded.request("/api/config")).json()).branding.name).toBe("From Config");
  });

  test("GET /theme/{name}.tar is a tar with theme.json first, then theme.css", async () => {
    const res = await panel.request("/theme/forest.tar");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-tar");
    const files = readTar(new Uint8Array(await res.arrayBuffer()));
    expect(files.map((f) => f.name)).toEqual(["theme.json", "theme.css"]);
    const json = JSON.parse(new TextDecoder().decode(files[0]!.data));
    expect(json.colors.dark.primary).toMatch(/^#/);
    expect((await panel.request("/theme/nope.tar")).status).toBe(404);
    expect((await panel.request("/theme/..%2Fsecret.tar")).status).toBe(404);
  });

  test("the kiln theme ships assets in its tar", async () => {
    const files = readTar(new Uint8Array(await (await panel.request("/theme/kiln.tar")).arrayBuffer()));
    expect(files.map((f) => f.name)).toContain("assets/logo.svg");
  });
});

describe("security headers and the cloud IDE guard", () => {
  test("pages carry a strict CSP and no-framing headers", async () => {
    const res = await panel.request("/auth/login");
    expect(res.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(res.headers.get("x-frame-options")).toBe("DENY");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
  });

  test("on a cloud IDE host every path answers the warning page and nothing else runs", async () => {
    for (const path of ["/auth/login", "/api/config", "/server", "/theme/kiln.tar"]) {
      const res = await panel.request(path, { host: "x-8080.app.github.dev", headers: HTML });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("Kiln cannot run here");
    }
    const viaProxy = await panel.request("/api/config", { headers: { "x-forwarded-host": "abc.gitpod.io" } });
    expect(viaProxy.status).toBe(403);
    // The warning page's own stylesheet is served, so the page is readable.
    const html = await (await panel.request("/auth/login", { host: "x.gitpod.io" })).text();
    const css = /href="(\/assets\/kiln-[a-z0-9]+\.css)"/.exec(html)![1]!;
    expect((await panel.request(css, { host: "x.gitpod.io" })).headers.get("content-type")).toContain("text/css");
  });
});
