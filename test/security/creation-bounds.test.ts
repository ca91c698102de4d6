// Attack: creating a server as a way to reach the node. A user holding only
// servers.create asks for their own image, docker bindings of "/" and of the node's data folder,
// another network mode, port bindings, values of variables the template keeps to itself, and a
// definition of their own: each is refused with a catalogue error and nothing is created, on the
// panel or the node. An administrator may set all of it.
import { beforeAll, describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { SCOPES } from "../../core/scopes";
import { schema } from "../../db";
import { loginAs } from "../helpers/app";
import { formInit, jsonInit, panelForAll, type PanelWithNode } from "../helpers/panel-node";

let ctx: PanelWithNode;
let creator: { token: string; email: string };

panelForAll((fresh) => (ctx = fresh));
beforeAll(async () => {
  creator = await loginAs(ctx.panel.db, [SCOPES.serversCreate]);
});

const rows = async () => (await ctx.panel.db.select().from(schema.servers).all()).length;
const onNode = () => readdirSync(join(ctx.node.config.dataDir, "servers")).filter((f) => f.endsWith(".json")).length;
const create = (token: string, body: Record<string, unknown>) =>
  ctx.panel.request("/api/servers", { token, ...jsonInit("POST", { name: `s${Math.random().toString(36).slice(2, 8)}`, node: ctx.nodeId, template: "echo", ...body }) });

async function expectRefused(response: Response, code: string, field?: string): Promise<void> {
  expect(response.status).toBeGreaterThanOrEqual(400);
  expect(response.status).toBeLessThan(500);
  const body = await response.json();
  expect(body.error.code).toBe(code);
  if (field) expect(body.error.metadata.field).toBe(field);
}

describe("a creator who is not an administrator", () => {
  test("cannot choose the image, bindings, network, port bindings, fixed variables or the definition", async () => {
    const [rowsBefore, nodeBefore] = [await rows(), onNode()];
    const docker = (more: Record<string, unknown>) => ({ environment: { type: "docker", ...more } });
    const attempts: Array<[Record<string, unknown>, string]> = [
      [docker({ image: "attacker/rootkit:latest" }), "environment.image"],
      [docker({ bindings: { "/": "/host" } }), "environment.bindings"],
      [docker({ bindings: { [ctx.node.config.dataDir]: "/data" } }), "environment.bindings"],
      [docker({ bindings: { "/var/run/docker.sock": "/var/run/docker.sock" } }), "environment.bindings"],
      [docker({ networkMode: "bridge" }), "environment.networkMode"],
      [docker({ networkName: "host" }), "environment.networkName"],
      [docker({ portBindings: ["0.0.0.0:22:22"] }), "environment.portBindings"],
      [{ environment: { type: "standard", privileged: true } }, "environment.privileged"],
      [{ variables: { port: 22 } }, "variables.port"],
      [{ definition: { run: { command: "sh -c 'touch /tmp/pwned'" } } }, "definition"],
      [{ run: { command: "sh -c 'touch /tmp/pwned'" } }, "run"],
      [{ install: [{ type: "command", commands: ["touch /tmp/pwned"] }] }, "install"],
      [{ data: { port: { value: 22 } } }, "data"],
    ];
    for (const [body, field] of attempts) await expectRefused(await create(creator.token, body), "ErrNoPermission", field);
    expect(await rows()).toBe(rowsBefore);
    expect(onNode()).toBe(nodeBefore);
  });

  test("the no-script form refuses a fixed variable too, and creates nothing", async () => {
    const [rowsBefore, nodeBefore] = [await rows(), onNode()];
    const res = await ctx.panel.request("/addserver", { token: creator.token, ...formInit({ name: "by form", node: String(ctx.nodeId), template: "echo", environment: "standard", user: creator.email, "var.greeting": "hi", "var.port": "22" }) });
    expect(res.status).toBe(403);
    expect(await rows()).toBe(rowsBefore);
    expect(onNode()).toBe(nodeBefore);
  });

  test("chooses the name, node, template, one of its environments, userEdit values and the owner", async () => {
    const res = await create(creator.token, { environment: { type: "docker", image: "kiln/generic" }, variables: { greeting: "mine" }, user: creator.email, autostart: true });
    expect(res.status).toBe(201);
    const definition = await ctx.node.json("GET", `/daemon/server/${(await res.json()).id}`);
    expect(definition.environment).toMatchObject({ type: "docker", image: "kiln/generic", bindings: {}, portBindings: [] });
    expect(definition.data.greeting.value).toBe("mine");
    expect(definition.data.port.value).toBe(25565);
  });
});

describe("an administrator", () => {
  test("may set the image, bindings, network and fixed variables", async () => {
    const environment = { type: "docker", image: "kiln-test/busybox", networkMode: "bridge", bindings: { [join(ctx.node.config.dataDir, "shared")]: "/shared" }, portBindings: ["0.0.0.0:30000:30000"] };
    const res = await create(ctx.admin.token, { environment, variables: { port: 30000 } });
    expect(res.status).toBe(201);
    const definition = await ctx.node.json("GET", `/daemon/server/${(await res.json()).id}`);
    expect(definition.environment).toMatchObject(environment);
    expect(definition.data.port.value).toBe(30000);
  });

  test("names only variables the template has, __proto__ included", async () => {
    const before = await rows();
    const raw = (variables: string) => ctx.panel.request("/api/servers", { token: ctx.admin.token, method: "POST", headers: { "content-type": "application/json" }, body: `{"name":"protos","node":${ctx.nodeId},"template":"echo","variables":${variables}}` });
    await expectRefused(await raw('{"__proto__":"x"}'), "ErrNotFound", "variables.__proto__");
    await expectRefused(await raw('{"constructor":"x"}'), "ErrNotFound", "variables.constructor");
    expect(await rows()).toBe(before);
  });
});
