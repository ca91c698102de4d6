// A real test node that asks a real panel before each scheduled or triggered task run, over HTTP as
// a remote node does: the panel serves on a loopback port, the node's task check calls it.
import { panelAuthorization } from "../../daemon/http/node-auth";
import { panelTaskCheck } from "../../daemon/tasks/panel-check";
import type { TaskCheck } from "../../daemon/tasks/scheduler";
import { startTestNode, type TestNode, type TestNodeOptions } from "./node";
import { panelWithNode, type PanelWithNode } from "./panel-node";

export interface TaskCheckingPanel {
  node: TestNode;
  ctx: PanelWithNode;
  /** Stops the panel's listener and the node. */
  stop(): Promise<void>;
}

export async function taskCheckingPanel(options: Omit<TestNodeOptions, "checkTask"> = {}): Promise<TaskCheckingPanel> {
  // The node starts before the panel that answers its checks exists: a check asked in between fails.
  let check: TaskCheck = async () => "the panel is not listening yet";
  const node = await startTestNode({ ...options, checkTask: (serverId, task, taskId) => check(serverId, task, taskId) });
  const ctx = await panelWithNode(node);
  const listener = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (request) => ctx.panel.app.fetch(request) });
  check = panelTaskCheck(`http://127.0.0.1:${listener.port}`, { secret: node.config.secret });
  return {
    node,
    ctx,
    stop: async () => {
      listener.stop(true);
      await node.stop();
    },
  };
}

/** A call to the panel as the rig's node makes it: a token signed with the node's secret for that one request. */
export function asNode(rig: TaskCheckingPanel, path: string, body: unknown): Promise<Response> {
  return rig.ctx.panel.request(path, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: panelAuthorization({ secret: rig.node.config.secret }, "POST", `http://panel${path}`) },
    body: JSON.stringify(body),
  });
}
