// The Nodes screens, as a browser without script uses them: list with status, add, edit, delete,
// and the deployment section that only nodes.deploy may see.
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { SCOPES } from "../core/scopes";
import { schema } from "../db";
import { createNode, ensureLocalNode, getNodeRow, markSeen, type NodeInput } from "../server/services/nodes";

let panel: TestPanel;
beforeEach(async () => {
  panel = await testPanel();
});

const input = (over: Partial<NodeInput> = {}): NodeInput => ({ name: "east-1", publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657, ...over });
const form = (over: Record<string, string> = {}) =>
  new URLSearchParams({ name: "east-1", publicHost: "games.example.com", publicPort: "8081", privateHost: "10.0.0.4", privatePort: "8081", sftpPort: "5657", internalHost: "", ...over });
const post = (token: string, body: URLSearchParams) => ({
  method: "POST",
  token,
  headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", origin: "http://localhost" },
  body: body.toString(),
});
const nodeCount = async () => (await panel.db.select().from(schema.nodes).all()).length;

/** Follows a redirect the way a browser does, carrying the flash cookie it set. */
async function follow(res: Response, token: string): Promise<string> {
  const flash = /kiln_flash=([^;]+)/.exec(res.headers.get("set-cookie") ?? "")?.[1];
  const next = await panel.request(res.headers.get("location")!, { token, headers: { ...HTML, cookie: flash ? `kiln_flash=${flash}` : "" } });
  expect(next.status).toBe(200);
  return next.text();
}

describe("node list", () => {
  test("shows every node with its address, SFTP port and status; the local node is 'In the panel', never its loopback port", async () => {
    const east = await createNode(panel.db, input());
    await createNode(panel.db, input({ name: "west-2", publicHost: "2001:db8::7", publicPort: 9000, sftpPort: 2022 }));
    await markSeen(panel.db, east.id);
    await ensureLocalNode(panel.db, { privatePort: 41234, sftpPort: 5658, secret: "s".repeat(32) });
    const { token } = await loginAs(panel.db, [SCOPES.nodesView]);
    const res = await panel.request("/node", { token, headers: HTML, host: "panel.example:8080" });
    expect(res.status).toBe(200);
    const html = await res.text();
    const row = (name: string) => new RegExp(`<tr data-node="${name}">(.*?)</tr>`).exec(html)?.[1] ?? "";
    expect(row("east-1")).toContain("games.example.com:8081");
    expect(row("east-1")).toContain('data-status="online"');
    expect(row("west-2")).toContain("[2001:db8::7]:9000");
    expect(row("west-2")).toContain("2022");
    expect(row("west-2")).toContain('data-status="offline"');
    // Its API port listens on loopback only, so it is not an address anyone could use.
    expect(row("local")).toContain("In the panel");
    expect(row("local")).not.toContain("41234");
    expect(row("local")).toContain("SFTP port 5658");
    expect(row("local")).toContain(">Local<");
    expect(row("east-1")).not.toContain(">Local<");
    // A viewer gets no Add button; an editor (and so an admin) does.
    expect(html).not.toContain('href="/addnode"');
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    expect(await (await panel.request("/node", { token: admin.token, headers: HTML })).text()).toContain('href="/addnode"');
  });

  test("needs nodes.view; adding and editing need nodes.edit", async () => {
    const node = await createNode(panel.db, input());
    const none = await loginAs(panel.db, [SCOPES.usersView]);
    for (const path of ["/node", `/node/${node.id}`, "/addnode"]) {
      const res = await panel.request(path, { token: none.token, headers: HTML });
      expect(res.status).toBe(403);
      expect(await res.text()).toContain("You are not authorised to perform this action");
    }
    const viewer = await loginAs(panel.db, [SCOPES.nodesView]);
    expect((await panel.request("/addnode", { token: viewer.token, headers: HTML })).status).toBe(403);
    expect((await panel.request(`/node/${node.id}`, post(viewer.token, form({ name: "renamed" })))).status).toBe(403);
    expect((await panel.request(`/node/${node.id}/delete`, post(viewer.token, new URLSearchParams()))).status).toBe(403);
    expect((await getNodeRow(panel.db, node.id)).name).toBe("east-1");
    // The viewer sees the form, but nothing to submit and no delete.
    const page = await (await panel.request(`/node/${node.id}`, { token: viewer.token, headers: HTML })).text();
    expect(page).toContain("<fieldset disabled");
    expect(page).not.toContain("/delete");
  });
});

describe("add node", () => {
  test("creates the node and opens its deployment section with a toast", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit, SCOPES.nodesDeploy]);
    const res = await panel.request("/addnode", post(token, form({ internalHost: "192.168.1.4" })));
    expect(res.status).toBe(303);
    const row = (await panel.db.select().from(schema.nodes).where(eq(schema.nodes.name, "east-1")).get())!;
    expect(row).toMatchObject({ publicHost: "games.example.com", publicPort: 8081, privatePort: 8081, sftpPort: 5657, internalHost: "192.168.1.4" });
    expect(res.headers.get("location")).toBe(`/node/${row.id}#deployment`);
    const html = await follow(res, token);
    expect(html).toContain("Node created");
    expect(html).toContain(row.secret);
  });

  test("a duplicate name shows the catalogue message, keeps what was typed and changes nothing", async () => {
    await createNode(panel.db, input());
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const res = await panel.request("/addnode", post(token, form({ publicHost: "other.example.com" })));
    expect(res.status).toBe(409);
    const html = await res.text();
    expect(html).toContain("A node with this name already exists");
    expect(html).toContain('value="other.example.com"');
    expect(await nodeCount()).toBe(1);
    expect((await panel.db.select().from(schema.nodes).get())!.publicHost).toBe("games.example.com");
  });

  test("a field error names the field by its label", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const res = await panel.request("/addnode", post(token, form({ privateHost: "not a host!" })));
    expect(res.status).toBe(400);
    expect(await res.text()).toContain("Private host must be a valid IP or FQDN");
    expect(await nodeCount()).toBe(0);
  });
});

describe("node screen", () => {
  test("saving shows 'Node updated successfully'", async () => {
    const node = await createNode(panel.db, input());
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const res = await panel.request(`/node/${node.id}`, post(token, form({ name: "east-renamed", publicPort: "9090", internalHost: "10.1.1.1" })));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`/node/${node.id}`);
    expect(await getNodeRow(panel.db, node.id)).toMatchObject({ name: "east-renamed", publicPort: 9090, internalHost: "10.1.1.1" });
    const html = await follow(res, token);
    expect(html).toContain("Node updated successfully");
    expect(html).toContain('value="east-renamed"');
  });

  test("a bad port shows 'Error updating node' with the reason, and nothing changes", async () => {
    const node = await createNode(panel.db, input());
    const { token } = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    const res = await panel.request(`/node/${node.id}`, post(token, form({ name: "changed", publicPort: "70000" })));
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain("Error updating node");
    expect(html).toContain("toast toast-error");
    expect(html).toContain("Public port cannot be larger than 65535");
    expect(html).toContain('value="70000"');
    expect(await getNodeRow(panel.db, node.id)).toMatchObject({ name: "east-1", publicPort: 8081 });
  });

  test("deleting a node that holds servers is refused with the catalogue message; an empty one goes", async () => {
    const node = await createNode(panel.db, input());
    await panel.db.insert(schema.servers).values({ id: "abc123", name: "survival", nodeId: node.id, createdAt: new Date() }).run();
    const { token } = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    const page = await (await panel.request(`/node/${node.id}`, { token, headers: HTML })).text();
    expect(page).toContain(`action="/node/${node.id}/delete"`);
    const refused = await panel.request(`/node/${node.id}/delete`, post(token, new URLSearchParams()));
    expect(refused.status).toBe(409);
    const html = await refused.text();
    expect(html).toContain("The node was not deleted");
    expect(html).toContain("This node still has 1 server; move or delete it first");
    expect(await nodeCount()).toBe(1);

    await panel.db.delete(schema.servers).run();
    const deleted = await panel.request(`/node/${node.id}/delete`, post(token, new URLSearchParams()));
    expect(deleted.status).toBe(303);
    expect(deleted.headers.get("location")).toBe("/node");
    expect(await follow(deleted, token)).toContain("Node deleted");
    expect(await nodeCount()).toBe(0);
  });

  test("the deployment section, with the node's secret, is shown only to nodes.deploy", async () => {
    const node = await createNode(panel.db, input({ privatePort: 8443, sftpPort: 2022 }));
    const secret = (await getNodeRow(panel.db, node.id)).secret;
    const viewer = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesEdit]);
    const hidden = await (await panel.request(`/node/${node.id}`, { token: viewer.token, headers: HTML })).text();
    expect(hidden).not.toContain(secret);
    expect(hidden).not.toContain('data-testid="deployment"');

    const deployer = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesDeploy]);
    const shown = await (await panel.request(`/node/${node.id}`, { token: deployer.token, headers: HTML })).text();
    const config = JSON.parse(/<pre data-testid="deployment-config" dir="ltr">([^<]*)<\/pre>/.exec(shown)![1]!.replaceAll("&quot;", '"'));
    expect(config).toEqual({ id: node.id, host: "0.0.0.0", port: 8443, sftpPort: 2022, data: "/var/lib/kiln", panelUrl: "http://localhost", secret });
    expect(shown).toContain("/etc/kiln/daemon.json");
    expect(shown).toContain('<pre data-testid="deployment-command" dir="ltr">kiln daemon</pre>');
    // The screen and the API build the same instructions.
    const api = await (await panel.request(`/api/nodes/${node.id}/deployment`, { token: deployer.token })).json();
    expect(api.config).toEqual(config);
  });

  test("the local node needs no deployment, and its panel-set ports stay as the panel set them", async () => {
    const local = await ensureLocalNode(panel.db, { privatePort: 41234, sftpPort: 5658, secret: "s".repeat(32) });
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    const html = await (await panel.request(`/node/${local.id}`, { token, headers: HTML })).text();
    expect(html).toContain("runs inside the panel and needs no deployment");
    expect(html).not.toContain("s".repeat(32));
    expect(html).not.toContain(`/node/${local.id}/delete`);
    const res = await panel.request(`/node/${local.id}`, post(token, form({ name: "local", publicHost: "{ip}", privateHost: "10.9.9.9", privatePort: "1", sftpPort: "2" })));
    expect(res.status).toBe(303);
    expect(await getNodeRow(panel.db, local.id)).toMatchObject({ publicHost: "{ip}", privateHost: "127.0.0.1", privatePort: 41234, sftpPort: 5658 });
  });

  test("an unknown node is the not-found page", async () => {
    const { token } = await loginAs(panel.db, [SCOPES.admin]);
    expect((await panel.request("/node/999", { token, headers: HTML })).status).toBe(404);
    expect((await panel.request("/node/abc", { token, headers: HTML })).status).toBe(404);
  });
});
