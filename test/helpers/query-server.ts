// Kiln servers that answer player queries, for the players tests: a template whose process is a
// node script from test/fixtures/query (or any command) on a free port, with `query` declared,
// stored in the panel and one server made of it through the API.
import { join } from "node:path";
import { readFileSync } from "node:fs";
import { writeFiles } from "./file-tree";
import { putTemplate } from "../../server/services/templates";
import { echoTemplate } from "./node";
import { jsonInit, type PanelWithNode } from "./panel-node";
import { freePort } from "./process";
import type { TemplateInput } from "../../core/definition";

export const QUERY_FIXTURES = join(import.meta.dir, "..", "fixtures", "query");

export interface QueryServerOptions {
  /** The command line; ${port} is the server's port. */
  command: string;
  query?: TemplateInput["query"];
  /** The line that says the server is ready. */
  ready?: string;
  stop?: string;
  /** Fixture files (names in test/fixtures/query) copied into the server's folder: the sandbox shows the process nothing else. */
  fixtures?: string[];
}

/** A template named `name` running `command`, and a server of it: its id and port. */
export async function queryServer(ctx: PanelWithNode, name: string, options: QueryServerOptions): Promise<{ id: string; port: number }> {
  const port = await freePort();
  const base = echoTemplate({ command: options.command, stop: options.stop ?? "stop", ...(options.ready ? { readyMarkers: [options.ready] } : {}) });
  await putTemplate(ctx.panel.db, name, {
    ...base,
    name,
    install: [],
    data: { port: { display: "Port", desc: "", type: "integer", value: port, required: true, userEdit: false } },
    ...(options.query ? { query: options.query } : {}),
  });
  const res = await ctx.panel.request("/api/servers", { token: ctx.admin.token, ...jsonInit("POST", { name, node: ctx.nodeId, template: name, environment: { type: "standard" } }) });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${await res.text()}`);
  const id = ((await res.json()) as { id: string }).id;
  const files = Object.fromEntries((options.fixtures ?? []).map((file) => [file, readFileSync(join(QUERY_FIXTURES, file), "utf8")]));
  writeFiles(ctx.node.folder(id), files);
  return { id, port };
}
