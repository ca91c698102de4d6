// Prometheus metrics (docs/metrics.md): the text /metrics writes parses (promtool, and a real
// Prometheus scraping it as OpenMetrics), label values survive quotes, backslashes and newlines,
// the HTTP counters are by route pattern, gauges can be registered, and a PromQL query over a
// real Prometheus returns the memory the node reports for a running server.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { schema } from "../db";
import { panelWithNode, type PanelWithNode } from "./helpers/panel-node";
import { eventually } from "./helpers/node";
import { freePort, tempDir } from "./helpers/process";
import { hasPrometheus, PROMETHEUS_PATH, PROMTOOL_PATH } from "./helpers/require-part";
import { servePanel } from "../server/serve";
import { setSetting, SETTING_KEYS } from "../server/services/settings";
import { collectNodeMetrics, registerGauge, startMetricsCollector, OPENMETRICS_CONTENT_TYPE } from "../server/metrics";
import { escapeLabelValue, flavorFor } from "../server/metrics/exposition";
import { recallNodeMetrics } from "../server/metrics/node-figures";

const TOKEN = "metrics-token-for-tests-0123456789";
/** A server name no form would take: quotes, backslashes, a newline, braces and a fake sample. */
const AWKWARD_NAME = 'say "hi" \\ back\\slash\nkiln_fake{x="1"} 1 }';
const prometheus = hasPrometheus();

/** One line of OpenMetrics text: a HELP, TYPE or UNIT comment, a sample with escaped label values, or the closing EOF. */
const LABEL = String.raw`[a-zA-Z_][a-zA-Z0-9_]*="(?:\\[\\"n]|[^"\\\n])*"`;
const OPENMETRICS_LINE = new RegExp(String.raw`^(?:# (?:HELP|TYPE|UNIT) [a-zA-Z_:][a-zA-Z0-9_:]* .*|[a-zA-Z_:][a-zA-Z0-9_:]*(?:\{${LABEL}(?:,${LABEL})*\})? (?:[-+]?[0-9.e+-]+|NaN|[+-]Inf)|# EOF)$`);

function openMetricsProblems(text: string): string[] {
  const lines = text.split("\n");
  const problems = lines.slice(0, -1).filter((line) => !OPENMETRICS_LINE.test(line));
  if (lines.at(-2) !== "# EOF" || lines.at(-1) !== "") problems.push("does not end with # EOF and a newline");
  return problems;
}

/** What promtool says of classic text read from its standard input: its exit code and output. */
function promtool(text: string): { code: number; output: string } {
  const run = Bun.spawnSync([PROMTOOL_PATH, "check", "metrics"], { stdin: new TextEncoder().encode(text), stdout: "pipe", stderr: "pipe" });
  return { code: run.exitCode, output: `${run.stdout.toString()}${run.stderr.toString()}` };
}

let ctx: PanelWithNode;
let runningId: string;
let awkwardId: string;

const scrape = (accept?: string) => ctx.panel.request("/metrics", { headers: { authorization: `Bearer ${TOKEN}`, ...(accept ? { accept } : {}) } });

beforeAll(async () => {
  ctx = await panelWithNode();
  runningId = await ctx.createServer("metrics running");
  const started = await ctx.panel.request(`/proxy/daemon/server/${runningId}/start?wait=true`, { method: "POST", token: ctx.admin.token });
  expect(started.status).toBe(204);
  // A second server, renamed in the database to what no form accepts, to test the escaping.
  awkwardId = await ctx.createServer("metrics awkward");
  await ctx.panel.db.update(schema.servers).set({ name: AWKWARD_NAME }).where(eq(schema.servers.id, awkwardId)).run();
  await setSetting(ctx.panel.db, SETTING_KEYS.metricsToken, TOKEN);
  await collectNodeMetrics(ctx.panel.db);
});

afterAll(async () => {
  await ctx.node.call("POST", `/daemon/server/${runningId}/kill`).catch(() => undefined);
  await ctx.node.stop();
});

describe("the text /metrics writes", () => {
  test("is OpenMetrics by default and when asked for, classic text when only text/plain is asked for", async () => {
    expect(flavorFor(undefined)).toBe("openmetrics");
    expect(flavorFor("application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1")).toBe("openmetrics");
    expect(flavorFor("text/plain")).toBe("text");
    const res = await scrape();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(OPENMETRICS_CONTENT_TYPE);
    const text = await res.text();
    expect(text.endsWith("# EOF\n")).toBe(true);
    expect(openMetricsProblems(text)).toEqual([]);
    // Counters: the family without _total, the sample with it; units as UNIT lines.
    expect(text).toContain("# TYPE kiln_server_restarts counter\n");
    expect(text).toContain(`kiln_server_restarts_total{server_id="${runningId}",`);
    expect(text).toContain("# UNIT kiln_server_memory_bytes bytes\n");
    const classic = await (await scrape("text/plain")).text();
    expect(classic).toContain("# TYPE kiln_server_restarts_total counter\n");
    expect(classic).not.toContain("# EOF");
    expect(classic).not.toContain("# UNIT");
  });

  test("escapes label values: quotes, backslashes and newlines never end a value or a line", async () => {
    expect(escapeLabelValue('a"b\\c\nd')).toBe('a\\"b\\\\c\\nd');
    // A lone surrogate (not UTF-8 at all) is made whole rather than written broken.
    expect(escapeLabelValue("x\ud800y")).toBe("x\ufffdy");
    const text = await (await scrape()).text();
    const escaped = 'say \\"hi\\" \\\\ back\\\\slash\\nkiln_fake{x=\\"1\\"} 1 }';
    expect(text).toContain(`kiln_server_up{server_id="${awkwardId}",server_name="${escaped}",node="test-node"} 0`);
    expect(text.split("\n").filter((line) => line.startsWith("kiln_fake"))).toEqual([]);
    expect(openMetricsProblems(text)).toEqual([]);
  });

  test.skipIf(!prometheus)("passes promtool check metrics (classic text, the awkward name in it)", async () => {
    const classic = await (await scrape("text/plain")).text();
    expect(classic).toContain(awkwardId);
    expect(promtool(classic)).toEqual({ code: 0, output: "" });
    // The check can fail: a broken label value is reported.
    expect(promtool('# HELP kiln_x X.\n# TYPE kiln_x gauge\nkiln_x{a="b\nc"} 1\n').code).not.toBe(0);
  });
});

describe("the HTTP counters", () => {
  test("count by route pattern, method and status, never by the URL", async () => {
    expect((await ctx.panel.request(`/api/servers/${runningId}`, { token: ctx.admin.token })).status).toBe(200);
    await ctx.panel.request("/no/such/page/at/all");
    // Refused by middleware every request passes (another site's form): counted under the route it was headed for.
    const crossSite = await ctx.panel.request("/api/servers", { method: "POST", token: ctx.admin.token, headers: { origin: "https://elsewhere.example", "content-type": "application/json" }, body: "{}" });
    expect(crossSite.status).toBe(403);
    // Refused by a login guard in front of a route: counted under that route, not the guard's pattern.
    const anonymous = await ctx.panel.request(`/api/servers/${runningId}`);
    expect(anonymous.status).toBe(401);
    const text = await (await scrape()).text();
    expect(text).toMatch(/kiln_http_requests_total\{route="\/api\/servers\/:id",method="GET",code="200"\} [1-9]/);
    expect(text).toMatch(/kiln_http_requests_total\{route="unmatched",method="GET",code="302"\} [1-9]/);
    expect(text).toMatch(/kiln_http_requests_total\{route="\/api\/servers",method="POST",code="403"\} 1\n/);
    expect(text).toMatch(/kiln_http_requests_total\{route="\/api\/servers\/:id",method="GET",code="401"\} 1\n/);
    expect(text).toMatch(/kiln_http_request_duration_seconds_count\{route="\/api\/servers\/:id"\} [1-9]/);
    expect(text).toMatch(/kiln_http_request_duration_seconds_bucket\{route="\/api\/servers\/:id",le="\+Inf"\} [1-9]/);
    // No raw path reaches a label.
    const routes = [...text.matchAll(/route="([^"]*)"/g)].map((m) => m[1]!);
    expect(routes.filter((route) => route.includes(runningId) || route.includes("no/such"))).toEqual([]);
  });
});

describe("registered gauges", () => {
  test("appear at the next scrape and go when taken away; bad names and doubles are refused", async () => {
    let depth = 3;
    const unregister = registerGauge("kiln_test_queue_depth", "Items waiting in the test queue.", () => depth);
    try {
      expect(() => registerGauge("kiln_test_queue_depth", "Again.", () => 1)).toThrow();
      expect(() => registerGauge("not_kiln", "No prefix.", () => 1)).toThrow();
      expect(() => registerGauge("kiln_bad name", "A space.", () => 1)).toThrow();
      expect(await (await scrape()).text()).toContain("# TYPE kiln_test_queue_depth gauge\nkiln_test_queue_depth 3\n");
      depth = 7;
      expect(await (await scrape()).text()).toContain("kiln_test_queue_depth 7\n");
    } finally {
      unregister();
    }
    expect(await (await scrape()).text()).not.toContain("kiln_test_queue_depth");
  });
});

describe.skipIf(!prometheus)("a real Prometheus scraping the panel", () => {
  let served: ReturnType<typeof servePanel>;
  let proc: ReturnType<typeof Bun.spawn> | undefined;
  let folder: string;
  let api: string;

  beforeAll(async () => {
    served = servePanel(ctx.panel.app, { port: 0, hostname: "127.0.0.1" });
    folder = tempDir("kiln-prometheus-");
    mkdirSync(join(folder, "data"));
    const config = [
      "global:",
      "  scrape_interval: 1s",
      "  scrape_timeout: 1s",
      "scrape_configs:",
      "  - job_name: kiln",
      "    authorization:",
      "      type: Bearer",
      `      credentials: ${JSON.stringify(TOKEN)}`,
      "    static_configs:",
      `      - targets: ["127.0.0.1:${served.port}"]`,
      "",
    ].join("\n");
    writeFileSync(join(folder, "prometheus.yml"), config);
    const port = await freePort();
    api = `http://127.0.0.1:${port}`;
    proc = Bun.spawn([PROMETHEUS_PATH, `--config.file=${join(folder, "prometheus.yml")}`, `--storage.tsdb.path=${join(folder, "data")}`, `--web.listen-address=127.0.0.1:${port}`], { stdout: "ignore", stderr: Bun.file(join(folder, "prometheus.log")) });
    await eventually(async () => (await fetch(`${api}/-/ready`).catch(() => null))?.ok === true, 30_000, "Prometheus to be ready").catch((error: Error) => {
      throw new Error(`${error.message}; its log ends: ${readFileSync(join(folder, "prometheus.log"), "utf8").slice(-2000)}`);
    });
  });

  afterAll(async () => {
    proc?.kill();
    await proc?.exited;
    served?.stop(true);
    if (folder) rmSync(folder, { recursive: true, force: true });
  });

  async function query(promql: string): Promise<{ metric: Record<string, string>; value: [number, string] }[]> {
    const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`);
    const body = (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    expect(body.status).toBe("success");
    return body.data.result;
  }

  test("a PromQL query returns the memory the node reports for the running server", async () => {
    let result: Awaited<ReturnType<typeof query>> = [];
    await eventually(async () => (result = await query(`kiln_server_memory_bytes{server_id="${runningId}"}`)).length > 0, 30_000, "Prometheus to have scraped the server's memory");
    const reported = recallNodeMetrics(ctx.panel.db, ctx.nodeId)?.figures?.servers[runningId]?.memoryBytes;
    expect(reported).toBeGreaterThan(0);
    expect(Number(result[0]!.value[1])).toBe(reported!);
    expect(result[0]!.metric).toMatchObject({ server_id: runningId, server_name: "metrics running", node: "test-node", job: "kiln" });
    // And that is what the node itself says of the process (asked again now: it may have moved a little).
    const stats = await ctx.node.json("GET", `/daemon/server/${runningId}/stats`);
    expect(Math.abs(stats.memory - reported!)).toBeLessThan(reported! / 2);
    // The scrape was read as OpenMetrics without error, the awkward name arriving whole.
    const targets = (await (await fetch(`${api}/api/v1/targets`)).json()) as { data: { activeTargets: { health: string; lastError: string }[] } };
    expect(targets.data.activeTargets.map((t) => [t.health, t.lastError])).toEqual([["up", ""]]);
    const awkward = await query(`kiln_server_up{server_id="${awkwardId}"}`);
    expect(awkward.map((r) => [r.metric.server_name, r.value[1]])).toEqual([[AWKWARD_NAME, "0"]]);
    expect(await query("kiln_fake")).toEqual([]);
    expect((await query('kiln_node_up{node="test-node"}')).map((r) => r.value[1])).toEqual(["1"]);
  }, 60_000);
});

describe("the node's counters and the collector", () => {
  test("restarts and crashes are counted by the node and reach /metrics", async () => {
    const put = await ctx.panel.request("/api/templates/crashy", {
      token: ctx.admin.token,
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ display: "Crashy", run: { command: "sh -c 'exit 3'", stop: "exit" }, supportedEnvironments: [{ type: "standard" }] }),
    });
    expect(put.status).toBeLessThan(300);
    const crashy = await ctx.createServer("metrics crashy", { template: "crashy" });
    await ctx.panel.request(`/proxy/daemon/server/${crashy}/start?wait=true`, { method: "POST", token: ctx.admin.token });
    await eventually(async () => (await ctx.node.json("GET", `/daemon/server/${crashy}/status`)).crash !== undefined, 10_000, "the crash to be recorded");
    expect((await ctx.panel.request(`/proxy/daemon/server/${runningId}/restart?wait=true`, { method: "POST", token: ctx.admin.token })).status).toBe(204);
    await collectNodeMetrics(ctx.panel.db);
    const text = await (await scrape()).text();
    expect(text).toContain(`kiln_server_crashes_total{server_id="${crashy}",server_name="metrics crashy",node="test-node"} 1\n`);
    expect(text).toContain(`kiln_server_restarts_total{server_id="${crashy}",server_name="metrics crashy",node="test-node"} 0\n`);
    expect(text).toContain(`kiln_server_restarts_total{server_id="${runningId}",server_name="metrics running",node="test-node"} 1\n`);
    expect(text).toContain(`kiln_server_state{server_id="${crashy}",server_name="metrics crashy",node="test-node",state="stopped"} 1\n`);
    expect(text).toMatch(/\nkiln_panel_open_sockets \d+\n/);
  }, 30_000);

  test("the collector asks the nodes in the background, and only while a metrics token is set", async () => {
    const other = await panelWithNode(ctx.node);
    const stop = startMetricsCollector(other.panel.db, 100);
    try {
      await Bun.sleep(400);
      expect(recallNodeMetrics(other.panel.db, other.nodeId)).toBeNull();
      await setSetting(other.panel.db, SETTING_KEYS.metricsToken, TOKEN);
      await eventually(() => recallNodeMetrics(other.panel.db, other.nodeId)?.figures?.servers[runningId] !== undefined, 5000, "the collector to have asked the node");
      const first = recallNodeMetrics(other.panel.db, other.nodeId)!.at;
      await eventually(() => recallNodeMetrics(other.panel.db, other.nodeId)!.at > first, 5000, "a second round");
    } finally {
      stop();
    }
  });
});
