// Attacks on /metrics (docs/metrics.md, docs/security.md): only the metrics token opens it (no
// token, a wrong one, a session, an admin's cookie or an OAuth2 token do not; with no token set
// metrics are off); the token is write-only; and a node answering garbage, huge numbers,
// label-breaking strings or an endless answer cannot make the panel write broken text.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { nodeProof, NODE_PROOF_PATH } from "../../core/node-token";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { hasPrometheus, PROMTOOL_PATH } from "../helpers/require-part";
import { SCOPES } from "../../core/scopes";
import { getSetting, setSetting, SETTING_KEYS } from "../../server/services/settings";
import { collectNodeMetrics } from "../../server/metrics";
import { MAX_ANSWER_BYTES } from "../../server/metrics/collector";
import { recallNodeMetrics } from "../../server/metrics/node-figures";

const TOKEN = "the-right-metrics-token-0123456789";
const json = (method: string, body: unknown) => ({ method, headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
const promtoolHere = hasPrometheus();

let panel: TestPanel;
let admin: { token: string; userId: number; email: string };

async function refusal(res: Response): Promise<{ status: number; code: unknown; hasMsg: boolean }> {
  const body = (await res.json()) as { error?: { code?: unknown; msg?: unknown } };
  return { status: res.status, code: body.error?.code, hasMsg: typeof body.error?.msg === "string" };
}
const REFUSED = { status: 401, code: "ErrInvalidCredentials", hasMsg: true };
const metrics = (headers: Record<string, string> = {}, token?: string) => panel.request("/metrics", { headers, token });

beforeAll(async () => {
  panel = await testPanel();
  admin = await loginAs(panel.db, [SCOPES.admin]);
});

describe("who may read /metrics", () => {
  test("with no token set, metrics are off: every caller is refused, the admin too", async () => {
    expect(await getSetting(panel.db, SETTING_KEYS.metricsToken)).toBeUndefined();
    expect(await refusal(await metrics())).toEqual(REFUSED);
    expect(await refusal(await metrics({ authorization: "Bearer " }))).toEqual(REFUSED);
    expect(await refusal(await metrics({ authorization: "Bearer undefined" }))).toEqual(REFUSED);
    expect(await refusal(await metrics({}, admin.token))).toEqual(REFUSED);
    // An empty stored token is off too.
    await setSetting(panel.db, SETTING_KEYS.metricsToken, "");
    expect(await refusal(await metrics({ authorization: "Bearer " }))).toEqual(REFUSED);
  });

  test("only the metrics token opens it: not none, a wrong one, a session, an admin's cookie or an OAuth2 token", async () => {
    expect((await panel.request("/api/settings", { ...json("PUT", { metricsToken: TOKEN }), token: admin.token })).status).toBe(204);
    expect((await metrics({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    // The scheme's case and extra spaces do not matter; the token does.
    expect((await metrics({ authorization: `bearer  ${TOKEN}` })).status).toBe(200);

    const wrong = [
      "",
      "Bearer",
      TOKEN,
      `Basic ${Buffer.from(`x:${TOKEN}`).toString("base64")}`,
      `Bearer ${TOKEN.slice(0, -1)}`,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(0, -1)}X`,
      `Bearer ${TOKEN.toUpperCase()}`,
      `Bearer ${"a".repeat(TOKEN.length)}`,
      `Bearer ${admin.token}`,
    ];
    for (const authorization of wrong) expect([authorization, await refusal(await metrics(authorization ? { authorization } : {}))]).toEqual([authorization, REFUSED]);

    // An administrator's session, as the cookie a browser sends or as a bearer token.
    expect(await refusal(await metrics({}, admin.token))).toEqual(REFUSED);
    expect(await refusal(await metrics({ authorization: `Bearer ${admin.token}` }, admin.token))).toEqual(REFUSED);
    // A browser asking for a page gets the same answer, not a login page or a redirect.
    expect(await refusal(await metrics({ ...HTML }, admin.token))).toEqual(REFUSED);
    // An OAuth2 access token of an administrator's client.
    const client = await (await panel.request("/api/self/oauth2", { ...json("POST", { name: "scraper", description: "", password: "password123" }), token: admin.token })).json();
    const issued = await (await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}` })).json();
    expect(typeof issued.access_token).toBe("string");
    expect((await panel.request("/api/self", { headers: { authorization: `Bearer ${issued.access_token}` } })).status).toBe(200);
    expect(await refusal(await metrics({ authorization: `Bearer ${issued.access_token}` }))).toEqual(REFUSED);
  });

  test("the token is write-only, held to its rule, set only by settings editors, and an empty one through the API turns metrics off", async () => {
    await setSetting(panel.db, SETTING_KEYS.metricsToken, TOKEN);
    expect(await (await panel.request(`/api/settings/${SETTING_KEYS.metricsToken}`, { token: admin.token })).json()).toEqual({ value: null, isSet: true });
    expect(await (await panel.request("/settings", { token: admin.token, headers: HTML })).text()).not.toContain(TOKEN);
    for (const [value, code] of [["short-token", "ErrFieldLength"], ["tab\tin-the-middle-of-it", "ErrFieldMustBePrintable"], ["é".repeat(20), "ErrFieldMustBePrintable"], ["x".repeat(257), "ErrFieldTooLarge"], [{ a: 1 }, "ErrFieldMustBePrintable"]] as const) {
      const res = await panel.request("/api/settings", { ...json("PUT", { metricsToken: value }), token: admin.token });
      expect([String(value).slice(0, 20), (await refusal(res)).code]).toEqual([String(value).slice(0, 20), code]);
    }
    expect(await getSetting(panel.db, SETTING_KEYS.metricsToken)).toBe(TOKEN);
    // A user without settings.edit, even with every other scope of a server operator.
    const user = await loginAs(panel.db, [SCOPES.serversView, SCOPES.nodesView]);
    expect((await panel.request("/api/settings", { ...json("PUT", { metricsToken: "attackers-own-token-1234" }), token: user.token })).status).toBe(403);
    expect((await panel.request(`/api/settings/${SETTING_KEYS.metricsToken}`, { ...json("PUT", { value: "attackers-own-token-1234" }), token: user.token })).status).toBe(403);
    expect(await getSetting(panel.db, SETTING_KEYS.metricsToken)).toBe(TOKEN);
    // The settings form: an empty field keeps the token; the off box clears it.
    const form = (fields: Record<string, string>) => ({ method: "POST", token: admin.token, headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams({ "panel.settings.defaultTheme": panel.deps.themes.names[0]!, ...fields }).toString() });
    expect((await panel.request("/settings/general", form({ "panel.metrics.token": "" }))).status).toBe(303);
    expect(await getSetting(panel.db, SETTING_KEYS.metricsToken)).toBe(TOKEN);
    expect((await panel.request("/settings/general", form({ "panel.metrics.token": "short" }))).status).toBe(400);
    expect(await getSetting(panel.db, SETTING_KEYS.metricsToken)).toBe(TOKEN);
    expect((await panel.request("/settings/general", form({ "panel.metrics.token": "", "panel.metrics.off": "true" }))).status).toBe(303);
    expect(await getSetting(panel.db, SETTING_KEYS.metricsToken)).toBe("");
    expect(await refusal(await metrics({ authorization: `Bearer ${TOKEN}` }))).toEqual(REFUSED);
    // Through the API: set, then "" turns it off.
    expect((await panel.request("/api/settings", { ...json("PUT", { metricsToken: TOKEN }), token: admin.token })).status).toBe(204);
    expect((await metrics({ authorization: `Bearer ${TOKEN}` })).status).toBe(200);
    expect((await panel.request("/api/settings", { ...json("PUT", { metricsToken: "" }), token: admin.token })).status).toBe(204);
    expect(await refusal(await metrics({ authorization: `Bearer ${TOKEN}` }))).toEqual(REFUSED);
    await setSetting(panel.db, SETTING_KEYS.metricsToken, TOKEN);
  });
});

describe("a node answering what no node should", () => {
  const secret = randomBytes(24).toString("base64url");
  let answer: () => Response = () => Response.json({});
  let fake: ReturnType<typeof Bun.serve>;
  let nodeId: number;
  const servers = { good: "hostile1", huge: "hostile2", text: "hostile3", state: "hostile4", infinite: "hostile5", negative: "hostile6" };

  beforeAll(async () => {
    // A node that holds its secret (it proves it) and says anything at all: another machine, taken over.
    fake = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) => {
        const url = new URL(request.url);
        if (url.pathname === NODE_PROOF_PATH) return Response.json({ proof: nodeProof(secret, Number(url.searchParams.get("node")), url.searchParams.get("challenge") ?? "") });
        return url.pathname === "/daemon/metrics" ? answer() : new Response("not here", { status: 404 });
      },
    });
    nodeId = (await panel.db.insert(schema.nodes).values({ name: 'taken "over"\nnode', publicHost: "127.0.0.1", publicPort: fake.port!, privateHost: "127.0.0.1", privatePort: fake.port!, sftpPort: 5657, secret, createdAt: new Date() }).returning().get()).id;
    for (const [what, id] of Object.entries(servers)) await panel.db.insert(schema.servers).values({ id, name: `hostile ${what}`, nodeId, createdAt: new Date() }).run();
  });
  afterAll(async () => {
    fake.stop(true);
    await panel.db.delete(schema.servers).where(eq(schema.servers.nodeId, nodeId)).run();
  });

  const machine = { load: [0.5, 0.25, 0.125], memoryTotalBytes: 8e9, memoryAvailableBytes: 4e9, diskTotalBytes: 1e11, diskFreeBytes: 5e10 };
  const figures = { state: "running", cpuPercent: 12.5, memoryBytes: 123456789, diskBytes: 4096, uptimeSeconds: 60, restarts: 2, crashes: 1, playersOnline: 3 };

  async function page(): Promise<string> {
    const res = await metrics({ authorization: `Bearer ${TOKEN}` });
    expect(res.status).toBe(200);
    return res.text();
  }

  /** Every line is a comment, a sample or the closing EOF, and no line the node wrote is among them. */
  async function expectWellFormed(): Promise<string> {
    const text = await page();
    const label = String.raw`[a-zA-Z_][a-zA-Z0-9_]*="(?:\\[\\"n]|[^"\\\n])*"`;
    const line = new RegExp(String.raw`^(?:# (?:HELP|TYPE|UNIT) kiln_[a-z0-9_]+ .*|kiln_[a-z0-9_]+(?:\{${label}(?:,${label})*\})? (?:[0-9.e+-]+|\+Inf)|# EOF)$`);
    expect(text.split("\n").slice(0, -1).filter((l) => !line.test(l))).toEqual([]);
    expect(text.endsWith("# EOF\n")).toBe(true);
    expect(text).not.toMatch(/^kiln_evil/m);
    if (promtoolHere) {
      const classic = await (await metrics({ authorization: `Bearer ${TOKEN}`, accept: "text/plain" })).text();
      const run = Bun.spawnSync([PROMTOOL_PATH, "check", "metrics"], { stdin: new TextEncoder().encode(classic), stdout: "pipe", stderr: "pipe" });
      expect([run.exitCode, run.stdout.toString() + run.stderr.toString()]).toEqual([0, ""]);
    }
    return text;
  }

  const nodeLabel = 'node="taken \\"over\\"\\nnode"';
  const serverLine = (metric: string, id: string) => new RegExp(`^${metric}\\{server_id="${id}",[^\\n]*\\} (.*)$`, "m");

  test("a readable answer is shown as it says (the check below can pass)", async () => {
    answer = () => Response.json({ version: "0.1.0", machine, servers: { [servers.good]: figures } });
    await collectNodeMetrics(panel.db);
    const text = await expectWellFormed();
    expect(text).toContain(`kiln_node_up{${nodeLabel}} 1\n`);
    expect(serverLine("kiln_server_memory_bytes", servers.good).exec(text)?.[1]).toBe("123456789");
    expect(serverLine("kiln_server_players_online", servers.good).exec(text)?.[1]).toBe("3");
  });

  test("garbage, or an answer without a readable version or machine, is no answer: the node is down", async () => {
    const unreadable: [string, () => Response][] = [
      ["not JSON", () => new Response("{{{ kiln_evil 1", { headers: { "content-type": "application/json" } })],
      ["a list", () => Response.json([1, 2, 3])],
      ["a label-breaking version", () => Response.json({ version: '1.0"} 1\nkiln_evil{a="', machine, servers: {} })],
      ["a version too long", () => Response.json({ version: "1".repeat(200), machine, servers: {} })],
      ["a huge load", () => Response.json({ version: "0.1.0", machine: { ...machine, load: [1e300, 0, 0] }, servers: {} })],
      ["memory as text", () => Response.json({ version: "0.1.0", machine: { ...machine, memoryTotalBytes: "8\nkiln_evil 1" }, servers: {} })],
      ["memory past 2^53", () => Response.json({ version: "0.1.0", machine: { ...machine, memoryTotalBytes: 2 ** 60 }, servers: {} })],
      ["servers as a list", () => Response.json({ version: "0.1.0", machine, servers: [figures] })],
      ["an error status", () => Response.json({ version: "0.1.0", machine, servers: {} }, { status: 500 })],
      ["an endless answer", () => new Response(new ReadableStream({ pull: (c) => c.enqueue(new Uint8Array(1024 * 1024).fill(32)) }), { headers: { "content-type": "application/json" } })],
      ["an answer past the cap", () => new Response(`{"version":"0.1.0","pad":"${"x".repeat(MAX_ANSWER_BYTES)}"}`, { headers: { "content-type": "application/json" } })],
    ];
    for (const [what, respond] of unreadable) {
      answer = () => Response.json({ version: "0.1.0", machine, servers: { [servers.good]: figures } });
      await collectNodeMetrics(panel.db);
      expect(recallNodeMetrics(panel.db, nodeId)?.figures).not.toBeNull();
      answer = respond;
      await collectNodeMetrics(panel.db);
      expect([what, recallNodeMetrics(panel.db, nodeId)?.figures ?? null]).toEqual([what, null]);
      const text = await expectWellFormed();
      expect([what, text.includes(`kiln_node_up{${nodeLabel}} 0\n`)]).toEqual([what, true]);
      // Its servers say only that they are not up: nothing kept is shown as current.
      expect([what, serverLine("kiln_server_up", servers.good).exec(text)?.[1], serverLine("kiln_server_memory_bytes", servers.good).exec(text)]).toEqual([what, "0", null]);
      // The last contact stays what it was.
      expect(text).toMatch(new RegExp(`kiln_node_last_contact_timestamp_seconds\\{${nodeLabel.replace(/[\\"]/g, "\\$&")}\\} \\d`));
    }
  }, 60_000);

  test("an answer that trickles a byte at a time: the round ends within its time-out, the node down, not every node's figures waiting", async () => {
    answer = () =>
      new Response(
        new ReadableStream({
          async pull(c) {
            await Bun.sleep(200);
            c.enqueue(new Uint8Array([32]));
          },
        }),
        { headers: { "content-type": "application/json" } },
      );
    const started = Date.now();
    await collectNodeMetrics(panel.db, 1000);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(recallNodeMetrics(panel.db, nodeId)?.figures ?? null).toBeNull();
  });

  test("a server entry with huge numbers, strings or an unknown state is left out alone; the rest of the answer stands", async () => {
    const text = (n: string) => JSON.stringify(figures).replace('"memoryBytes":123456789', `"memoryBytes":${n}`);
    const body = [
      `{"version":"0.1.0","machine":${JSON.stringify(machine)},"servers":{`,
      `"${servers.good}":${JSON.stringify(figures)},`,
      `"${servers.huge}":${text("1e300")},`,
      `"${servers.infinite}":${text("1e400")},`,
      `"${servers.negative}":${text("-5")},`,
      `"${servers.text}":${JSON.stringify({ ...figures, cpuPercent: "5\nkiln_evil 1" })},`,
      `"${servers.state}":${JSON.stringify({ ...figures, state: 'running"} 1\nkiln_evil{a="' })},`,
      `"__proto__":${JSON.stringify(figures)},`,
      `"bad id\\n":${JSON.stringify(figures)}`,
      "}}",
    ].join("");
    answer = () => new Response(body, { headers: { "content-type": "application/json" } });
    await collectNodeMetrics(panel.db);
    const kept = recallNodeMetrics(panel.db, nodeId)?.figures;
    expect(Object.keys(kept?.servers ?? {}).filter((id) => id !== "__proto__")).toEqual([servers.good]);
    const page = await expectWellFormed();
    expect(page).toContain(`kiln_node_up{${nodeLabel}} 1\n`);
    expect(serverLine("kiln_server_memory_bytes", servers.good).exec(page)?.[1]).toBe("123456789");
    for (const id of [servers.huge, servers.infinite, servers.negative, servers.text, servers.state]) {
      expect([id, serverLine("kiln_server_up", id).exec(page)?.[1], serverLine("kiln_server_memory_bytes", id).exec(page)]).toEqual([id, "0", null]);
    }
    // Ids come from the panel's database: an id only the node names is never written.
    expect(page).not.toContain("__proto__");
    expect(page).not.toContain("bad id");
  });
});
