// A test panel wired to a real test node: the node's row carries the node's port and secret, and
// the echo template is stored, so servers can be created through the panel's API.
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { testPanel, loginAs, type TestPanel } from "./app";
import { startTestNode, echoTemplate, type TestNode } from "./node";
import { putTemplate } from "../../server/services/templates";
import { SCOPES } from "../../core/scopes";

export interface PanelWithNode {
  panel: TestPanel;
  node: TestNode;
  nodeId: number;
  admin: { token: string; userId: number; email: string };
  /** Creates a server from the echo template as the admin and returns its id. */
  createServer(name: string, body?: Record<string, unknown>): Promise<string>;
}

export const jsonInit = (method: string, body?: unknown) => ({ method, headers: { "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });

export async function panelWithNode(node?: TestNode): Promise<PanelWithNode> {
  const panel = await testPanel();
  const running = node ?? (await startTestNode());
  const row = panel.db
    .insert(schema.nodes)
    .values({ name: "test-node", publicHost: "{ip}", publicPort: running.node.port, privateHost: "127.0.0.1", privatePort: running.node.port, sftpPort: 5657, secret: running.config.secret, createdAt: new Date() })
    .returning()
    .get();
  putTemplate(panel.db, "echo", { ...echoTemplate(), data: { ...echoTemplate().data, port: { display: "Port", type: "integer", value: 25565, required: true, userEdit: false } } });
  const admin = await loginAs(panel.db, [SCOPES.admin]);
  return {
    panel,
    node: running,
    nodeId: row.id,
    admin,
    async createServer(name, body = {}) {
      const res = await panel.request("/api/servers", { token: admin.token, ...jsonInit("POST", { name, node: row.id, template: "echo", environment: { type: "standard" }, ...body }) });
      if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
      return (await res.json()).id;
    },
  };
}

export function setNodePort(panel: TestPanel, nodeId: number, port: number): void {
  panel.db.update(schema.nodes).set({ privatePort: port }).where(eq(schema.nodes.id, nodeId)).run();
}
