// A recorder in front of a panel's real node: every server call the panel makes passes through
// it to the node and is noted, so a test can say the node was never asked.
import type { PanelWithNode } from "./panel-node";
import { setNodePort } from "./panel-node";

export interface NodeRecorder {
  /** The server calls that reached the node, "METHOD /daemon/server/…" (the panel's proof of the node's identity is not one). */
  reached: string[];
  stop(): void;
}

/**
 * Puts a recorder between the panel and its node (the node row's private port points at it).
 * `answer`, when it answers a call, answers it in the node's place: a node gone hostile, whose
 * identity (its proof) is still the real node's.
 */
export async function recordNodeCalls(ctx: PanelWithNode, answer: (req: Request) => Response | undefined = () => undefined): Promise<NodeRecorder> {
  const reached: string[] = [];
  const target = ctx.node.node.port;
  const recorder = Bun.serve({
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname.startsWith("/daemon/server/")) reached.push(`${req.method} ${url.pathname}`);
      const instead = answer(req);
      if (instead) return instead;
      const body = req.method === "GET" || req.method === "HEAD" ? undefined : await req.arrayBuffer();
      return fetch(`http://127.0.0.1:${target}${url.pathname}${url.search}`, { method: req.method, headers: req.headers, body, redirect: "manual" });
    },
  });
  await setNodePort(ctx.panel, ctx.nodeId, recorder.port!);
  return { reached, stop: () => recorder.stop(true) };
}
