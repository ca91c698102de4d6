// Attack: the surface PufferPanel v3 templates add. Conditions probe the node's files
// with file_exists (a climb out, an absolute path, a link out) and learn nothing; a huge
// condition is refused when the template is saved, quickly; a user who may edit a server's
// variables points its network console at another service on the node, or its docker image at
// another image, or a port binding at a privileged port: the template is refused when saved, or
// the start with a catalogue error (a tag or a port chosen badly), while nothing connects.
// Everything goes through the panel as the user would.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startTestNode, type TestNode } from "../helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";

let node: TestNode;
let ctx: PanelWithNode;
beforeAll(async () => {
  node = await startTestNode({ stopTimeoutMs: 2000 });
  ctx = await panelWithNode(node);
});
afterAll(() => node.stop());

const folder = (id: string) => node.folder(id);
const variable = (value: string | number, userEdit: boolean, type = typeof value === "number" ? "integer" : "string") => ({ type, value, display: "x", desc: "", required: true, userEdit });

async function template(name: string, body: Record<string, unknown>): Promise<Response> {
  return ctx.panel.request(`/api/templates/${name}`, { token: ctx.admin.token, ...jsonInit("PUT", { display: name, type: "test", icon: "x", ...body }) });
}

async function server(templateName: string, environment: string): Promise<{ id: string; user: { token: string } }> {
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name: `${templateName}-${Math.random().toString(36).slice(2, 7)}`, node: ctx.nodeId, template: templateName, environment: { type: environment } }) });
  if (res.status !== 201) throw new Error(`create failed: ${await res.text()}`);
  const { id } = await res.json();
  const user = await ctx.userWith(id, { editServerData: true, startServer: true, stopServer: true, installServer: true, viewServerConsole: true });
  return { id, user };
}

async function expectRefused(response: Response, code: string, field?: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  if (field) expect(JSON.stringify(body.error.metadata)).toContain(field);
  expect(JSON.stringify(body)).not.toContain(node.config.dataDir);
}

const as = (token: string, method: string, path: string, body?: unknown) => ctx.panel.request(`/proxy/daemon/server/${path}`, { token, ...jsonInit(method, body) });

describe("file_exists in conditions", () => {
  test("answers only about the server's own folder: no climb, absolute path or link out is ever true", async () => {
    const probes = [
      "file_exists('../' + serverId + '.json')",
      "file_exists('../../servers')",
      "file_exists('/etc/passwd')",
      "file_exists('//etc/passwd')",
      "file_exists('out/passwd')",
      "file_exists('out')",
      "file_exists('sub/../../' + serverId + '.json')",
      "file_exists('\\u0000')",
    ];
    const install = [
      { type: "writefile", target: "control", text: "x", if: "file_exists('inside.txt')" },
      ...probes.map((condition, i) => ({ type: "writefile", target: `escaped-${i}`, text: condition, if: condition })),
    ];
    expect((await template("probe", { run: { command: "sleep 1" }, install, environment: { type: "host" } })).status).toBe(200);
    const { id, user } = await server("probe", "host");
    writeFileSync(join(folder(id), "inside.txt"), "here");
    mkdirSync(join(folder(id), "sub"));
    symlinkSync("/etc", join(folder(id), "out"));
    // Overwriting: a reinstall that keeps changed files moves them aside while the steps run, and
    // the control below asks about one of them.
    expect((await as(user.token, "POST", `${id}/install?wait=true&keepChanged=false`)).status).toBe(204);
    expect(existsSync(join(folder(id), "control"))).toBe(true);
    for (const i of probes.keys()) expect(existsSync(join(folder(id), `escaped-${i}`)), probes[i]).toBe(false);
  });
});

describe("huge conditions", () => {
  test("are refused when the template is saved, naming the field, in little time; nothing is stored", async () => {
    const started = performance.now();
    const long = Array(2000).fill("true").join(" && ");
    await expectRefused(await template("huge1", { install: [{ type: "mkdir", target: "x", if: long }] }), "ErrTemplateFieldInvalid", "install.0.if");
    const deep = `${"!".repeat(1500)}true`;
    await expectRefused(await template("huge2", { run: { command: [{ command: "x", if: deep }] } }), "ErrTemplateFieldInvalid", "run.command.0.if");
    const nested = `${"(".repeat(300)}true${")".repeat(300)}`;
    await expectRefused(await template("huge3", { groups: [{ if: nested, variables: [] }] }), "ErrTemplateFieldInvalid", "groups.0.if");
    expect(performance.now() - started).toBeLessThan(3000);
    const list = await (await ctx.panel.request("/api/templates", { token: ctx.admin.token })).json();
    expect(list.map((t: { id: string }) => t.id)).not.toContain("huge1");
  });
});

describe("network consoles", () => {
  test("a user's value cannot point the console at another service on the node: refused when saved, nothing connects", async () => {
    let connections = 0;
    const service = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { open: () => void connections++, data() {} } });
    for (const [stdin, field] of [
      [{ type: "telnet", port: "${consoleport}" }, "run.stdin.port"],
      [{ type: "rcon", ip: "${consoleport}", port: "27015" }, "run.stdin.ip"],
    ] as const) {
      const res = await template("telnetconsole", { data: { consoleport: variable(service.port, true) }, run: { command: "sleep 30", stdin }, environment: { type: "host" } });
      await expectRefused(res, "ErrTemplateFieldInvalid", field);
    }
    const entry = await template("telnetconsole", {
      data: { consoleport: variable(service.port, true) },
      run: { command: [{ command: "sleep 30", stdin: { type: "rconws", port: "${consoleport}" } }] },
      environment: { type: "host" },
    });
    await expectRefused(entry, "ErrTemplateFieldInvalid", "run.command.0.stdin.port");
    await Bun.sleep(300);
    expect(connections).toBe(0);
    service.stop(true);
  });

  test("a console aimed off the node (even by the template) is refused: only loopback", async () => {
    for (const [ip, field] of [["192.0.2.1", "run.stdin.ip"], ["0.0.0.0", "run.stdin.ip"], ["127.0.0.1:22", "run.stdin.ip"]] as const) {
      const name = `rcon-${ip.replace(/[^0-9]/g, "")}`;
      expect((await template(name, { run: { command: "sleep 30", stdin: { type: "rcon", ip, port: "27015" } }, environment: { type: "host" } })).status).toBe(200);
      const { id, user } = await server(name, "host");
      await expectRefused(await as(user.token, "POST", `${id}/start?wait=true`), "ErrConsoleNotLocal", field);
    }
  }, 30_000);
});

describe("docker values", () => {
  const dockerTemplate = (image: string, data: Record<string, unknown>, portBindings: string[] = []) =>
    template(`img${Math.random().toString(36).slice(2, 7)}`, { data, run: { command: "true" }, environment: { type: "docker", image, portBindings }, supportedEnvironments: [{ type: "docker", image, portBindings }] });

  async function dockerServer(image: string, data: Record<string, unknown>, portBindings: string[] = []) {
    const res = await dockerTemplate(image, data, portBindings);
    expect(res.status).toBe(200);
    const { id: name } = await res.json();
    return server(name, "docker");
  }

  test("a user's value picks only a tag of the template's image; another repository, registry or digest is refused", async () => {
    const { id, user } = await dockerServer("kiln-test/busybox:${tag}", { tag: variable("latest", true) });
    for (const tag of ["x/../../attacker/rootkit", "latest@sha256:0000", "evil.example:5000/root", "a b"]) {
      expect((await as(user.token, "POST", `${id}/data`, { data: { tag } })).status).toBe(204);
      await expectRefused(await as(user.token, "POST", `${id}/start?wait=true`), "ErrUserVariableNotAllowed", "environment.image");
    }
  }, 30_000);

  test("a user's value cannot be the image's repository: such a template is refused when saved", async () => {
    await expectRefused(await dockerTemplate("${image}", { image: variable("kiln-test/busybox", true) }), "ErrTemplateFieldInvalid", "environment.image");
    await expectRefused(await dockerTemplate("${registry}/busybox:1", { registry: variable("evil.example", true) }), "ErrTemplateFieldInvalid", "environment.image");
  });

  test("a user's port binding cannot take a privileged port nor choose the address", async () => {
    const { id, user } = await dockerServer("kiln-test/busybox", { port: variable(25565, true), addr: variable("0.0.0.0", true) }, ["0.0.0.0:${port}:${port}/tcp"]);
    expect((await as(user.token, "POST", `${id}/data`, { data: { port: 22 } })).status).toBe(204);
    await expectRefused(await as(user.token, "POST", `${id}/start?wait=true`), "ErrUserVariableNotAllowed", "environment.portBindings.0");
    const other = await dockerServer("kiln-test/busybox", { addr: variable("0.0.0.0", true) }, ["${addr}:30000:30000/tcp"]);
    await expectRefused(await as(other.user.token, "POST", `${other.id}/start?wait=true`), "ErrUserVariableNotAllowed", "environment.portBindings.0");
  }, 30_000);
});
