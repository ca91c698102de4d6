// A page for something that is not there (404) and for something the account
// may not open (403) instead of "Something went wrong", and API answers whose `msg` is the English
// catalogue sentence with the metadata filled in (clients still translate by code).
import { describe, expect, test } from "bun:test";
import { loginAs } from "./helpers/app";
import { panelPerTest, jsonInit, type PanelWithNode } from "./helpers/panel-node";

let ctx: PanelWithNode;
panelPerTest((fresh) => (ctx = fresh));

describe("error pages", () => {
  test("an unknown server id is a not-found page with status 404", async () => {
    const { status, html } = await ctx.page("/server/ffffffff", ctx.admin.token);
    expect(status).toBe(404);
    expect(html).toContain('data-status="404"');
    expect(html).toContain("<h1>Not found</h1>");
    expect(html).toContain("Nothing is here");
    expect(html).not.toContain("Something went wrong");
    expect(html).toContain("Back to your servers");
  });

  test("a server the account may not open is a no-access page with status 403", async () => {
    const id = await ctx.createServer("Not yours");
    const stranger = await loginAs(ctx.panel.db, []);
    const { status, html } = await ctx.page(`/server/${id}`, stranger.token);
    expect(status).toBe(403);
    expect(html).toContain('data-status="403"');
    expect(html).toContain("<h1>No access</h1>");
    expect(html).toContain("ask the server&#x27;s owner or an administrator");
    expect(html).not.toContain("Something went wrong");
    // Nothing of the server itself is shown.
    expect(html).not.toContain("Not yours");
  });

  test("other failures keep the general page, in the page's language", async () => {
    const { status, html } = await ctx.page("/server/ffffffff", ctx.admin.token, { "accept-language": "de" });
    expect(status).toBe(404);
    expect(html).toContain("<h1>Nicht gefunden</h1>");
  });
});

describe("error answers", () => {
  test("msg is the English catalogue sentence with metadata, not the code", async () => {
    const login = await ctx.panel.request("/auth/login", jsonInit("POST", { email: "nobody@example.com", password: "wrong-password" }));
    expect(await login.json()).toEqual({ error: { code: "ErrInvalidCredentials", msg: "Invalid credentials" } });

    const missing = await ctx.panel.request("/api/servers/ffffffff", { token: ctx.admin.token });
    expect(missing.status).toBe(404);
    expect((await missing.json()).error).toEqual({ code: "ErrNotFound", msg: "Not found", metadata: { id: "ffffffff" } });

    const noPath = await ctx.panel.request("/api/no-such-thing", { token: ctx.admin.token });
    expect((await noPath.json()).error.msg).toBe("Not found");

    const bad = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: "", node: ctx.nodeId, template: "echo", environment: { type: "standard" } }) });
    const body = (await bad.json()).error;
    expect(body.msg).not.toBe(body.code);
    expect(body.msg).not.toContain("{");
  });

  test("answers the node gives through the proxy say the sentence too", async () => {
    const id = await ctx.createServer("Proxied");
    const res = await ctx.panel.request(`/proxy/daemon/server/${id}/file/no-such-file.txt`, { token: ctx.admin.token });
    expect(res.status).toBe(404);
    const { error } = await res.json();
    expect(error.code).toBe("ErrNotFound");
    expect(error.msg).toBe("Not found");
  });
});
