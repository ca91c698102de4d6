// The server screens as plain forms (no script): list, add server, the server page's tabs by
// permission, and every form on it against a real node.
import { describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { flashOf, loginAs, HTML } from "./helpers/app";
import { eventually, type TestNode } from "./helpers/node";
import { panelPerTest, jsonInit, formInit, type PanelWithNode } from "./helpers/panel-node";
import { SCOPES } from "../core/scopes";

let node: TestNode;
let ctx: PanelWithNode;
panelPerTest((fresh) => {
  ctx = fresh;
  node = fresh.node;
});

const form = formInit;
const page = (path: string, token: string, headers?: Record<string, string>) => ctx.page(path, token, headers);

describe("server screens", () => {
  test("the list shows name, node and address; Add only for servers.create", async () => {
    const id = await ctx.createServer("Listed One");
    const { html } = await page("/server", ctx.admin.token);
    expect(html).toContain(`href="/server/${id}"`);
    expect(html).toContain("Listed One");
    expect(html).toContain("test-node");
    expect(html).toContain("localhost:25565");
    expect(html).toContain('href="/addserver"');
    const viewer = await loginAs(ctx.panel.db, [SCOPES.serversView]);
    const theirs = await page("/server", viewer.token);
    expect(theirs.html).not.toContain("Listed One");
    expect(theirs.html).not.toContain('href="/addserver"');
  });

  test("add server: choose a template, fill the form, land on the new server", async () => {
    const first = await page("/addserver", ctx.admin.token);
    expect(first.html).toContain("Echo test");
    const second = await page("/addserver?template=echo", ctx.admin.token);
    expect(second.html).toContain('name="var.greeting"');
    expect(second.html).toContain('value="docker"');
    const fields = { template: "echo", name: "From the form", node: String(ctx.nodeId), environment: "standard", user: ctx.admin.email, "var.greeting": "form", "var.port": "25580", autorestart: "true" };
    const res = await ctx.panel.request("/addserver", { token: ctx.admin.token, ...form(fields) });
    expect(res.status).toBe(303);
    const id = res.headers.get("location")!.split("/").pop()!;
    const definition = await node.json("GET", `/daemon/server/${id}`);
    expect(definition.data.greeting.value).toBe("form");
    expect(definition.run.autorestart).toBe(true);
    expect(definition.run.autostart).toBe(false);
    // A clash re-renders the form with the message and the values kept.
    const again = await ctx.panel.request("/addserver", { token: ctx.admin.token, ...form(fields) });
    expect(again.status).toBe(409);
    const html = await again.text();
    expect(html).toContain("A server with this name already exists");
    expect(html).toContain('value="From the form"');
    // Without servers.create there is no form.
    const plain = await loginAs(ctx.panel.db, []);
    expect((await ctx.panel.request("/addserver", { token: plain.token, headers: HTML })).status).toBe(403);
  });

  test("tabs follow the permissions; the hotkeys are on the tab links", async () => {
    const id = await ctx.createServer("Tabbed");
    const admin = await page(`/server/${id}`, ctx.admin.token);
    for (const hotkey of ["t c", "t i", "t s", "t u", "t a"]) expect(admin.html).toContain(`data-hotkey="${hotkey}"`);
    expect(admin.html).toContain('data-island="ServerConsole"');
    expect(admin.html).toContain('data-island="ServerControls"');

    const user = await loginAs(ctx.panel.db, []);
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { viewServerStats: true }) });
    const limited = await page(`/server/${id}`, user.token);
    expect(limited.html).toContain('data-island="ServerStats"');
    expect(limited.html).not.toContain('data-island="ServerConsole"');
    expect(limited.html).not.toContain('data-hotkey="t c"');
    expect(limited.html).not.toContain('data-hotkey="t u"');
    expect(limited.html).toContain('data-hotkey="t a"');
    // Asking for a tab one may not see shows one that may be seen.
    expect((await page(`/server/${id}?tab=users`, user.token)).html).not.toContain('data-testid="add-server-user"');
    const admintab = await page(`/server/${id}?tab=admin`, user.token);
    expect(admintab.html).toContain("OAuth2 clients for this server");
    expect(admintab.html).not.toContain('data-testid="server-admin"');
    const stranger = await loginAs(ctx.panel.db, []);
    expect((await page(`/server/${id}`, stranger.token)).status).toBe(403);
    // Sharing a server with someone puts Servers in their drawer, scope or not.
    expect((await page("/account", user.token)).html).toContain('data-hotkey="g s"');
    expect((await page("/account", stranger.token)).html).not.toContain('data-hotkey="g s"');
  });

  test("power, console, rename and settings forms work without script", async () => {
    const id = await ctx.createServer("Formed");
    const start = await ctx.panel.request(`/server/${id}/power/start`, { token: ctx.admin.token, ...form({}) });
    expect(start.status).toBe(303);
    expect(flashOf(start)).toBe("serverPage.sent.start");
    await eventually(async () => (await node.json("GET", `/daemon/server/${id}/status`)).running, 10_000, "running");
    expect((await ctx.panel.request(`/server/${id}/console`, { token: ctx.admin.token, ...form({ command: "from-the-form" }) })).status).toBe(303);
    await eventually(async () => (await node.json("GET", `/daemon/server/${id}/console`)).logs.join("").includes("got from-the-form"), 5000, "command answer");
    const consolePage = await page(`/server/${id}`, ctx.admin.token);
    expect(consolePage.html).toContain("got from-the-form");
    await ctx.panel.request(`/server/${id}/power/kill`, { token: ctx.admin.token, ...form({}) });

    const bad = await ctx.panel.request(`/server/${id}/rename`, { token: ctx.admin.token, ...form({ name: "no/slashes" }) });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("alert-error");
    expect((await ctx.panel.request(`/server/${id}/rename`, { token: ctx.admin.token, ...form({ name: "Renamed by form" }) })).status).toBe(303);
    expect((await ctx.panel.db.select().from(schema.servers).where(eq(schema.servers.id, id)).get())?.name).toBe("Renamed by form");

    const settings = await page(`/server/${id}?tab=settings`, ctx.admin.token);
    expect(settings.html).toContain('name="var.greeting"');
    expect((await ctx.panel.request(`/server/${id}/settings`, { token: ctx.admin.token, ...form({ "var.greeting": "saved", "var.port": "25590" }) })).status).toBe(303);
    const definition = await node.json("GET", `/daemon/server/${id}`);
    expect(definition.data.greeting.value).toBe("saved");
    expect(definition.data.port.value).toBe(25590);
    expect((await page("/server", ctx.admin.token)).html).toContain("localhost:25590");

    // A user with editServerData but the port not user-editable sees only the greeting.
    const user = await loginAs(ctx.panel.db, []);
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { editServerData: true }) });
    const theirs = await page(`/server/${id}?tab=settings`, user.token);
    expect(theirs.html).toContain('name="var.greeting"');
    expect(theirs.html).not.toContain('name="var.port"');
    expect((await ctx.panel.request(`/server/${id}/settings`, { token: user.token, ...form({ "var.port": "1" }) })).status).toBe(403);
  });

  test("settings without editable variables say so", async () => {
    const id = await ctx.createServer("Bare");
    const user = await loginAs(ctx.panel.db, []);
    await ctx.panel.request(`/proxy/daemon/server/${id}`, { token: ctx.admin.token, ...jsonInit("POST", { ...(await node.json("GET", `/daemon/server/${id}`)), data: {} }) });
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(user.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { editServerData: true }) });
    expect((await page(`/server/${id}?tab=settings`, user.token)).html).toContain("This server does not have variables you can edit");
  });

  test("users tab: add (and invite), update, delete, with 'Saved'", async () => {
    const id = await ctx.createServer("Peopled");
    const friend = await loginAs(ctx.panel.db, []);
    const empty = await ctx.panel.request(`/server/${id}/users`, { token: ctx.admin.token, ...form({ email: "" }) });
    expect(empty.status).toBe(400);
    expect(await empty.text()).toContain("You must provide the email of the user you want to add");
    const add = await ctx.panel.request(`/server/${id}/users`, { token: ctx.admin.token, ...form({ email: friend.email, viewServerConsole: "true" }) });
    expect(flashOf(add)).toBe("serverUsers.saved");
    const invited = await ctx.panel.request(`/server/${id}/users`, { token: ctx.admin.token, ...form({ email: "fresh@example.com", viewServerStats: "true" }) });
    expect(await invited.text()).toContain("/auth/invite?token=");
    const tab = await page(`/server/${id}?tab=users`, ctx.admin.token);
    expect(tab.html).toContain(friend.email);
    expect(tab.html).toContain("fresh@example.com");
    await ctx.panel.request(`/server/${id}/users/${encodeURIComponent(friend.email)}`, { token: ctx.admin.token, ...form({ stopServer: "true" }) });
    const perms = (await (await ctx.panel.request(`/api/servers/${id}?perms`, { token: friend.token })).json()).permissions;
    expect(perms).toMatchObject({ stopServer: true, viewServerConsole: false });
    await ctx.panel.request(`/server/${id}/users/${encodeURIComponent(friend.email)}/delete`, { token: ctx.admin.token, ...form({}) });
    expect((await ctx.panel.request(`/api/servers/${id}`, { token: friend.token })).status).toBe(403);
  });

  test("admin tab: run-flag switches save the whole definition, definition JSON, reload, delete", async () => {
    const id = await ctx.createServer("Administered");
    const tab = await page(`/server/${id}?tab=admin`, ctx.admin.token);
    expect(tab.html).toContain('data-island="DefinitionEditor"');
    expect(tab.html).toContain("Do you really want to delete this server? (this cannot be undone)");
    await ctx.panel.request(`/server/${id}/flags`, { token: ctx.admin.token, ...form({ flag: "autorecover" }) });
    expect((await node.json("GET", `/daemon/server/${id}`)).run.autorecover).toBe(true);
    await ctx.panel.request(`/server/${id}/flags`, { token: ctx.admin.token, ...form({ flag: "autorecover" }) });
    expect((await node.json("GET", `/daemon/server/${id}`)).run.autorecover).toBe(false);

    const definition = await node.json("GET", `/daemon/server/${id}`);
    const bad = await ctx.panel.request(`/server/${id}/definition`, { token: ctx.admin.token, ...form({ definition: "{not json" }) });
    expect(bad.status).toBe(400);
    expect((await node.json("GET", `/daemon/server/${id}`)).display).toBe(definition.display);
    await ctx.panel.request(`/server/${id}/definition`, { token: ctx.admin.token, ...form({ definition: JSON.stringify({ ...definition, display: "Edited" }) }) });
    expect((await node.json("GET", `/daemon/server/${id}`)).display).toBe("Edited");
    expect((await ctx.panel.request(`/server/${id}/reload`, { token: ctx.admin.token, ...form({}) })).status).toBe(303);

    // Holders of deleteServer see Delete but not the admin-only controls.
    const holder = await loginAs(ctx.panel.db, []);
    await ctx.panel.request(`/api/servers/${id}/user/${encodeURIComponent(holder.email)}`, { token: ctx.admin.token, ...jsonInit("PUT", { deleteServer: true }) });
    const theirs = await page(`/server/${id}?tab=admin`, holder.token);
    expect(theirs.html).toContain('data-testid="delete-server"');
    expect(theirs.html).not.toContain('data-island="DefinitionEditor"');
    expect((await ctx.panel.request(`/server/${id}/flags`, { token: holder.token, ...form({ flag: "autostart" }) })).status).toBe(403);
    const deleted = await ctx.panel.request(`/server/${id}/delete`, { token: holder.token, ...form({}) });
    expect(deleted.headers.get("location")).toBe("/server");
    expect(flashOf(deleted)).toBe("serverAdmin.deleted");
    expect((await node.call("GET", `/daemon/server/${id}`)).status).toBe(404);
  });
});
