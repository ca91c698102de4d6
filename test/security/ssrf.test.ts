// Attack: making the panel or the node fetch an address of the attacker's choosing (here a
// listener of the test's own on 127.0.0.1, which records every request). The places that fetch:
// template repositories (only URLs in the settings), install and task download steps (admins
// only), email provider base URLs (config only), the node's address (nodes.edit). A non-admin
// tries each; the listener must hear nothing. One admin action at the end proves it listens.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { SCOPES } from "../../core/scopes";
import type { TemplateInput } from "../../core/definition";
import { putTemplate } from "../../server/services/templates";
import { loginAs } from "../helpers/app";
import { echoTemplate, eventually } from "../helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let listener: ReturnType<typeof Bun.serve>;
const hits: string[] = [];
let target = "";
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
  listener = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (request) => (hits.push(`${request.method} ${new URL(request.url).pathname}`), new Response("{}")) });
  target = `http://127.0.0.1:${listener.port}`;
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

  test("control: an admin's task does reach the listener (the listener hears what it should)", async () => {
    const tasks = `/proxy/daemon/server/${serverId}/tasks`;
    const created = await api(ctx.admin.token, "POST", tasks, { name: "control", cronSchedule: null, operations: [{ type: "download", files: [`${target}/control.jar`] }] });
    const { id } = await created.json();
    expect((await api(ctx.admin.token, "POST", `${tasks}/${id}/run`)).status).toBe(202);
    await eventually(() => hits.includes("GET /control.jar"), 5000, "the admin's download");
  });
});
