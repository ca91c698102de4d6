// Attack: making the panel or the node fetch an address of the attacker's choosing (here a
// listener of the test's own on 127.0.0.1, which records every request). The places that fetch:
// template repositories (only URLs in the settings), install and task download steps (admins
// only), email provider base URLs (config only), the node's address (nodes.edit). A non-admin
// tries each; the listener must hear nothing. Whoever writes a download's address (an administrator,
// a template editor, a user through a variable the template lets them set), the node never fetches
// from this machine's loopback (nor link-local addresses or its own services: daemon/processors/http),
// nor follows a redirect there. One admin action at the end proves the listener listens, on the
// machine's outward address.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import type { TemplateInput } from "../../core/definition";
import { putTemplate } from "../../server/services/templates";
import { loginAs } from "../helpers/app";
import { echoTemplate, eventually } from "../helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { outwardAddress } from "../helpers/outward-address";

let ctx: PanelWithNode;
let listener: ReturnType<typeof Bun.serve>;
const hits: string[] = [];
let target = "";
/** The same listener on the machine's outward address, which a download may reach. */
let outward = "";
let serverId = "";

/** A template whose install downloads from a site variable users may not edit (as the library's Paper does). */
function downloadTemplate(): TemplateInput {
  const echo = echoTemplate();
  return {
    ...echo,
    name: "downloader",
    install: [{ type: "download", files: ["${site}/server.jar"] }],
    data: { ...echo.data, site: { display: "Download site", desc: "", type: "string", value: "http://127.0.0.1:1", required: true, userEdit: false } },
  };
}

beforeAll(async () => {
  listener = Bun.serve({
    hostname: "0.0.0.0",
    port: 0,
    fetch(request) {
      const path = new URL(request.url).pathname;
      hits.push(`${request.method} ${path}`);
      // A public address that sends the node on to the machine's loopback.
      if (path === "/to-loopback.jar") return Response.redirect(`${target}/redirected.jar`, 302);
      return new Response("{}");
    },
  });
  target = `http://127.0.0.1:${listener.port}`;
  outward = `http://${outwardAddress() ?? "127.0.0.1"}:${listener.port}`;
  ctx = await panelWithNode();
  await putTemplate(ctx.panel.db, "downloader", downloadTemplate());
  serverId = await ctx.createServer("ssrf");
});
afterAll(async () => {
  listener.stop(true);
  await ctx.node.stop();
});

const api = (token: string, method: string, path: string, body?: unknown) => ctx.panel.request(path, { token, ...jsonInit(method, body) });
async function expectCode(response: Response, code: string): Promise<void> {
  expect(response.status).toBeLessThan(500);
  expect((await response.json()).error.code).toBe(code);
}
/** Whatever ran in the background has had its chance to fetch. */
const settle = () => Bun.sleep(300);

describe("a non-admin cannot make the panel or the node fetch an address of their choosing", () => {
  test("template import fetches only repositories listed in the settings", async () => {
    const templater = await loginAs(ctx.panel.db, [SCOPES.templatesView, SCOPES.templatesEdit]);
    for (const repository of [target, `${target}/`, `${target}/repo`, target.toUpperCase(), `${target}#kiln`, `kiln/../${target}`]) {
      await expectCode(await api(templater.token, "POST", "/api/templates/import/echo", { repository }), "ErrNoTemplate");
      await expectCode(await api(templater.token, "POST", `/api/templates/import/echo?repository=${encodeURIComponent(repository)}`), "ErrNoTemplate");
    }
    // Listing takes no address at all; whatever is sent along is ignored.
    expect((await api(templater.token, "POST", "/api/templates/import", { repository: target })).status).toBe(200);
    // The list is in the settings, which templates.edit does not reach.
    await expectCode(await api(templater.token, "POST", "/api/settings", { "panel.templates.repositories": target }), "ErrMissingScope");
    await expectCode(await api(templater.token, "PUT", "/api/settings/panel.templates.repositories", { value: target }), "ErrMissingScope");
    // A name cannot carry an address either, against a repository that is listed.
    await api(ctx.admin.token, "POST", "/api/settings", { "panel.templates.repositories": "http://127.0.0.1:1/listed" });
    for (const name of [`x@127.0.0.1:${listener.port}`, `..%2F..%2F${listener.port}`, "a?b=c"]) {
      const response = await api(templater.token, "POST", `/api/templates/import/${encodeURIComponent(name)}`, { repository: "http://127.0.0.1:1/listed" });
      expect(response.status).toBeLessThan(500);
    }
    await settle();
    expect(hits).toEqual([]);
  });

  test("email: the provider's address is config only; the SMTP host is a setting only settings.edit reaches", async () => {
    const user = await loginAs(ctx.panel.db, [SCOPES.serversView, SCOPES.templatesEdit, SCOPES.nodesView]);
    await expectCode(await api(user.token, "POST", "/api/settings", { "panel.email.provider": "smtp", "panel.email.host": `127.0.0.1:${listener.port}` }), "ErrMissingScope");
    // Not even an administrator can point Mailgun or Mailjet elsewhere through the API: no such setting.
    for (const key of ["mailgunBaseUrl", "mailjetBaseUrl", "panel.email.mailgunBaseUrl", "panel.email.baseUrl"]) {
      const response = await api(ctx.admin.token, "POST", "/api/settings", { [key]: target });
      expect([key, response.status >= 400 && response.status < 500]).toEqual([key, true]);
    }
    await settle();
    expect(hits).toEqual([]);
  });

  test("a node's address needs nodes.edit", async () => {
    const viewer = await loginAs(ctx.panel.db, [SCOPES.nodesView]);
    const node = { name: "evil", publicHost: "127.0.0.1", publicPort: listener.port, privateHost: "127.0.0.1", privatePort: listener.port, sftpPort: 5657 };
    await expectCode(await api(viewer.token, "POST", "/api/nodes", node), "ErrMissingScope");
    await expectCode(await api(viewer.token, "PUT", `/api/nodes/${ctx.nodeId}`, node), "ErrMissingScope");
    await settle();
    expect(hits).toEqual([]);
  });

  test("tasks: a download step is refused for a user holding every server flag; an admin's does not run for them", async () => {
    const owner = await ctx.userWith(serverId, { editServerData: true, installServer: true, putServerFiles: true, startServer: true, stopServer: true, sendServerConsole: true });
    const tasks = `/proxy/daemon/server/${serverId}/tasks`;
    for (const operations of [[{ type: "download", files: [`${target}/task`] }], [{ type: "mkdir", target: "d" }, { type: "download", files: [`${target}/second`] }], [{ type: "command", commands: [`wget ${target}/command`] }]]) {
      await expectCode(await api(owner.token, "POST", tasks, { name: "fetch", cronSchedule: null, operations }), "ErrNoPermission");
    }
    const created = await api(ctx.admin.token, "POST", tasks, { name: "admin fetch", cronSchedule: null, operations: [{ type: "download", files: [`${target}/admin-task`] }] });
    const { id: taskId } = await created.json();
    await expectCode(await api(owner.token, "POST", `${tasks}/${taskId}/run`), "ErrNoPermission");
    // Keeping the admin's steps while editing the task is refused too.
    await expectCode(await api(owner.token, "PUT", `${tasks}/${taskId}`, { name: "mine now", cronSchedule: "* * * * *", operations: [{ type: "download", files: [`${target}/admin-task`] }] }), "ErrNoPermission");
    await settle();
    expect(hits).toEqual([]);
  });

  test("install: a creator's value for a variable users may not edit never reaches the download step", async () => {
    const creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
    const created = await api(creator.token, "POST", "/api/servers", { name: "ssrf create", node: ctx.nodeId, template: "downloader", environment: { type: "standard" }, variables: { site: `${target}/create` } });
    expect(created.status).toBeLessThan(500);
    if (created.status === 201) expect((await api(creator.token, "POST", `/proxy/daemon/server/${(await created.json()).id}/install?wait=true`)).status).toBeLessThan(500);
    await settle();
    expect(hits.filter((hit) => hit.startsWith("GET /create"))).toEqual([]);
  });

  test("install: an owner's value for that variable, through /data, never reaches it either; nor a definition of theirs", async () => {
    const id = await ctx.createServer("ssrf data", { template: "downloader" });
    const owner = await ctx.userWith(id, { editServerData: true, installServer: true });
    await expectCode(await api(owner.token, "POST", `/proxy/daemon/server/${id}/data`, { data: { site: `${target}/data` } }), "ErrNoPermission");
    // The install fetches from the template's own (unreachable) site and fails there.
    expect((await (await api(owner.token, "POST", `/proxy/daemon/server/${id}/install?wait=true`)).json()).error.code).toBe("ErrStepFailed");
    // Replacing the definition (the whole install list) is for admins only.
    await expectCode(await api(owner.token, "POST", `/proxy/daemon/server/${id}`, { ...downloadTemplate(), install: [{ type: "download", files: [`${target}/definition`] }] }), "ErrNoPermission");
    await settle();
    expect(hits.filter((hit) => hit.startsWith("GET /data") || hit.startsWith("GET /definition"))).toEqual([]);
  });

  test("the panel's proxy reaches only the server's node, whatever the path says", async () => {
    const owner = await ctx.userWith(serverId, { viewServerFiles: true });
    const before = hits.length;
    for (const path of [`/file/@127.0.0.1:${listener.port}/x`, `/file//127.0.0.1:${listener.port}/x`, `/file/${encodeURIComponent(target)}`, `/../../../${target}`, `/file/%2F%2F127.0.0.1:${listener.port}`]) {
      const response = await ctx.panel.request(`/proxy/daemon/server/${serverId}${path}`, { token: owner.token });
      expect([path, response.status < 500]).toEqual([path, true]);
    }
    await settle();
    expect(hits.slice(before)).toEqual([]);
  });

  test("install: an address a user may set leads nowhere on the machine's loopback, directly or by a redirect", async () => {
    const closed = downloadTemplate();
    await putTemplate(ctx.panel.db, "open-downloader", { ...closed, name: "open-downloader", data: { ...closed.data, site: { ...closed.data!.site!, userEdit: true } } });
    const id = await ctx.createServer("ssrf open", { template: "open-downloader" });
    const owner = await ctx.userWith(id, { editServerData: true, installServer: true, viewServerConsole: true });
    for (const site of [`${target}/direct`, `http://localhost:${listener.port}/by-name`, `http://[::ffff:127.0.0.1]:${listener.port}/mapped`, `${outward}/to-loopback.jar?`]) {
      expect((await api(owner.token, "POST", `/proxy/daemon/server/${id}/data`, { data: { site } })).status).toBeLessThan(300);
      const install = await (await api(owner.token, "POST", `/proxy/daemon/server/${id}/install?wait=true`)).json();
      expect(install.error.code).toBe("ErrStepFailed");
    }
    await settle();
    // The redirect itself was fetched (the outward address is allowed); where it led was not.
    expect(hits.filter((hit) => /\/(direct|by-name|mapped|redirected)/.test(hit))).toEqual([]);
    expect(hits).toContain("GET /to-loopback.jar");
  });

  test("control: an admin's task does reach the listener on the machine's outward address; on its loopback it does not", async () => {
    const tasks = `/proxy/daemon/server/${serverId}/tasks`;
    const created = await api(ctx.admin.token, "POST", tasks, { name: "control", cronSchedule: null, operations: [{ type: "download", files: [`${outward}/control.jar`] }] });
    const { id } = await created.json();
    expect((await api(ctx.admin.token, "POST", `${tasks}/${id}/run`)).status).toBe(202);
    await eventually(() => hits.includes("GET /control.jar"), 5000, "the admin's download");
    const loopback = await api(ctx.admin.token, "POST", tasks, { name: "loopback", cronSchedule: null, operations: [{ type: "download", files: [`${target}/admin-loopback.jar`] }] });
    expect((await api(ctx.admin.token, "POST", `${tasks}/${(await loopback.json()).id}/run`)).status).toBe(202);
    await settle();
    expect(hits).not.toContain("GET /admin-loopback.jar");
  });
});
