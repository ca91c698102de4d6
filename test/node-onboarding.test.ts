// Node onboarding, as the panel answers it: the node list's version, OS,
// last contact and server count from a real node's heartbeat; the deployment's one-line install
// command, which fetches the kiln executable and the config from the panel with a node-bound
// token; the master URL warning; a panel with no executable to offer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import pkg from "../package.json";
import { testPanel, loginAs, HTML, type TestPanel } from "./helpers/app";
import { panelWithNode, type PanelWithNode } from "./helpers/panel-node";
import { tempDir } from "./helpers/process";
import { SCOPES } from "../core/scopes";
import { NODE_PROOF_PATH, nodeProof } from "../core/node-token";
import { checkNodes } from "../server/node-heartbeat";
import { createNode, getNodeRow, nodeDeployment, type NodeInput } from "../server/services/nodes";
import { serviceUnit } from "../server/services/nodes/service-unit";
import { partAvailable } from "./helpers/require-part";
import { setSetting, SETTING_KEYS } from "../server/services/settings";

const input = (over: Partial<NodeInput> = {}): NodeInput => ({ name: "east-1", publicHost: "games.example.com", publicPort: 8081, privateHost: "10.0.0.4", privatePort: 8081, sftpPort: 5657, ...over });
const row = (html: string, name: string) => new RegExp(`<tr data-node="${name}">(.*?)</tr>`).exec(html)?.[1] ?? "";
const cell = (html: string, name: string, which: string) => new RegExp(`data-cell="${which}">(.*?)</td>`).exec(row(html, name))?.[1] ?? "";
/** The deployment token inside an install command. */
const tokenOf = (install: string) => /Bearer (kd1\.[^"']+)"/.exec(install)?.[1] ?? "";
const decode = (html: string) => html.replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&").replaceAll("&lt;", "<").replaceAll("&gt;", ">");

describe("node list with a real node", () => {
  let ctx: PanelWithNode;
  beforeAll(async () => {
    ctx = await panelWithNode();
  });
  afterAll(async () => {
    await ctx.node.stop();
  });

  test("version, OS and last contact come from the heartbeat, the count from the servers it holds; a node never seen says so", async () => {
    await createNode(ctx.panel.db, input({ name: "silent", privateHost: "127.0.0.1", privatePort: 1 }));
    await ctx.createServer("First");
    await ctx.createServer("Second");
    await checkNodes(ctx.panel.db);
    const { status, html } = await ctx.page("/node", ctx.admin.token);
    expect(status).toBe(200);
    expect(cell(html, "test-node", "version")).toBe(`<code>${pkg.version}</code>`);
    expect(cell(html, "test-node", "os")).toBe(`${process.platform} ${process.arch}`);
    expect(cell(html, "test-node", "last-contact")).toMatch(/<time dateTime="[^"]+" title="[^"]+">(now|\d+ seconds? ago)<\/time>/);
    expect(cell(html, "test-node", "servers")).toContain(`href="/server?node=${ctx.nodeId}"`);
    expect(cell(html, "test-node", "servers")).toContain(">2</a>");
    expect(cell(html, "test-node", "servers")).toContain('aria-label="Servers on test-node (2)"');
    expect(cell(html, "silent", "version")).toBe("—");
    expect(cell(html, "silent", "os")).toBe("—");
    expect(cell(html, "silent", "last-contact")).toBe("Never");
    expect(cell(html, "silent", "servers")).toContain(">0</a>");
    expect(row(html, "silent")).toContain('data-status="offline"');
  });

  test("a node that reports another version is flagged; what it reports is shown only when well-formed", async () => {
    const answers = [{ version: "0.0.1", os: "linux", arch: "arm64" }, { version: "<img src=x onerror=alert(1)>", os: "linux" }];
    let answer = answers[0];
    // Another machine's answer to the status call; it holds no servers, and proves it holds the node's secret.
    let secret = "";
    const fake = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: (req) => {
        const url = new URL(req.url);
        if (url.pathname === NODE_PROOF_PATH) return Response.json({ proof: nodeProof(secret, Number(url.searchParams.get("node")), url.searchParams.get("challenge")!) });
        return Response.json(url.pathname === "/daemon" ? answer : { servers: [] });
      },
    });
    try {
      const old = await createNode(ctx.panel.db, input({ name: "old", privateHost: "127.0.0.1", privatePort: fake.port! }));
      secret = (await getNodeRow(ctx.panel.db, old.id)).secret;
      await checkNodes(ctx.panel.db);
      let html = (await ctx.page("/node", ctx.admin.token)).html;
      expect(cell(html, "old", "version")).toContain("<code>0.0.1</code>");
      expect(cell(html, "old", "version")).toContain(`title="The panel runs kiln ${pkg.version}: update this node to the same version."`);
      expect(cell(html, "old", "os")).toBe("linux arm64");
      answer = answers[1];
      await checkNodes(ctx.panel.db);
      html = (await ctx.page("/node", ctx.admin.token)).html;
      expect(cell(html, "old", "version")).toBe("—");
      expect(html).not.toContain("<img src=x");
    } finally {
      fake.stop(true);
    }
  });
});

describe("empty node list", () => {
  test("who may add nodes is offered 'Add a node'; a viewer is told an administrator must add one", async () => {
    const panel = await testPanel();
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const adminHtml = await (await panel.request("/node", { token: admin.token, headers: HTML })).text();
    expect(adminHtml).toContain('data-testid="nodes-empty"');
    expect(adminHtml).toMatch(/<a class="btn btn-primary" href="\/addnode">Add a node<\/a>/);
    const viewer = await loginAs(panel.db, [SCOPES.nodesView]);
    const viewerHtml = await (await panel.request("/node", { token: viewer.token, headers: HTML })).text();
    expect(viewerHtml).toContain("An administrator must add one before servers can be created.");
    expect(viewerHtml).not.toContain('href="/addnode"');
  });
});

describe("deployment", () => {
  let panel: TestPanel;
  let executable: string;
  const bytes = randomBytes(300_000);
  beforeAll(async () => {
    executable = join(tempDir("kiln-exe-"), "kiln");
    writeFileSync(executable, bytes);
    panel = await testPanel({ executable });
  });

  async function nodePage(token: string, host = "localhost") {
    const res = await panel.request(`/node/${(await createNode(panel.db, input({ name: `n-${randomBytes(4).toString("hex")}` }))).id}`, { token, headers: HTML, host });
    expect(res.status).toBe(200);
    return decode(await res.text());
  }

  test("the one-line install fetches kiln and the config with the node's token (in a header), then installs and starts the systemd service; both fetches work with it", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const node = await createNode(panel.db, input({ name: "fresh" }));
    const html = decode(await (await panel.request(`/node/${node.id}`, { token: admin.token, headers: HTML, host: "panel.example:8080" })).text());
    const install = /data-testid="deployment-install" dir="ltr">([^<]+)<\/pre>/.exec(html)?.[1] ?? "";
    const base = `http://panel.example:8080/api/nodes/${node.id}`;
    expect(install).toStartWith(
      [
        "{ command -v systemctl >/dev/null || { echo 'kiln: no systemd on this machine; start the node with: /usr/local/bin/kiln daemon' >&2; false; }; }",
        `printf '%s\\n' 'header = "Authorization: Bearer ${tokenOf(install)}"' | curl -fsSL -K - -o '/usr/local/bin/kiln.new' '${base}/kiln'`,
        "chmod 755 '/usr/local/bin/kiln.new'",
        "mv '/usr/local/bin/kiln.new' '/usr/local/bin/kiln'",
        "mkdir -p '/etc/kiln' '/etc/systemd/system'",
        `(umask 077 && printf '%s\\n' 'header = "Authorization: Bearer ${tokenOf(install)}"' | curl -fsSL -K - -o '/etc/kiln/daemon.json' '${base}/deployment/config')`,
        "printf '%s\\n' '[Unit]' 'Description=Kiln node'",
      ].join(" && "),
    );
    // It ends by starting the service, never the node in the foreground.
    expect(install).toEndWith("> '/etc/systemd/system/kiln.service' && systemctl daemon-reload && systemctl enable kiln && systemctl restart kiln");
    expect(install).not.toContain("' daemon &&");
    // The command carries a token, never the node's secret.
    expect(install).not.toContain((await getNodeRow(panel.db, node.id)).secret);
    expect(tokenOf(install)).toStartWith(`kd1.${node.id}.`);
    // The page says what it installs, and how large the download is.
    expect(html).toContain("installs the systemd service /etc/systemd/system/kiln.service and starts it");
    expect(html).toContain('data-testid="download-size">The download is 293 KiB.</p>');
    // Each part has its copy button; the page says until when the token works.
    expect(html.match(/data-copy="/g)?.length).toBe(5);
    // To keep it running: a systemd unit that starts what the install put in place.
    const unit = /data-testid="deployment-unit" dir="ltr">([^<]+)<\/pre>/.exec(html)?.[1] ?? "";
    expect(unit).toContain("ExecStart=/usr/local/bin/kiln daemon\n");
    expect(unit).toContain("Environment=KILN_DAEMON_CONFIG=/etc/kiln/daemon.json\n");
    expect(unit).toContain("Restart=on-failure\n");
    expect(unit).toContain("WantedBy=multi-user.target\n");
    expect(html).toContain("save this systemd unit as /etc/systemd/system/kiln.service");
    expect(html).toContain('data-testid="deployment-enable" dir="ltr">systemctl daemon-reload &amp;&amp; systemctl enable --now kiln</pre>'.replaceAll("&amp;", "&"));
    expect(html).toMatch(/until \d\d:\d\d/);

    // As curl sends them: to the address in the command.
    const auth = { headers: { authorization: `Bearer ${tokenOf(install)}` }, host: "panel.example:8080" };
    const kiln = await panel.request(`/api/nodes/${node.id}/kiln`, auth);
    expect(kiln.status).toBe(200);
    expect(kiln.headers.get("content-type")).toBe("application/octet-stream");
    expect(kiln.headers.get("content-disposition")).toBe('attachment; filename="kiln"');
    expect(Buffer.from(await kiln.arrayBuffer()).equals(bytes)).toBe(true);
    const config = await panel.request(`/api/nodes/${node.id}/deployment/config`, auth);
    expect(config.status).toBe(200);
    expect(config.headers.get("cache-control")).toBe("no-store");
    expect(await config.json()).toEqual({ id: node.id, host: "0.0.0.0", port: 8081, sftpPort: 5657, data: "/var/lib/kiln", panelUrl: "http://panel.example:8080", secret: (await getNodeRow(panel.db, node.id)).secret });
  });

  test("the Download kiln button serves the executable to the session that may deploy; the API's deployment carries the same install", async () => {
    const deployer = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesDeploy]);
    const html = await nodePage(deployer.token);
    const href = /href="([^"]+)" download="kiln" data-testid="download-kiln"/.exec(html)?.[1];
    expect(html).toMatch(/data-testid="download-kiln">.*<span>Download kiln \(293 KiB\)<\/span>/);
    expect(href).toMatch(/^\/api\/nodes\/\d+\/kiln$/);
    // The panel's own executable: the page says which system it is for.
    expect(html).toContain(`It is built for ${process.platform} ${process.arch}, the system the panel runs on`);
    const res = await panel.request(href!, { token: deployer.token });
    expect(res.status).toBe(200);
    expect(Number(res.headers.get("content-length"))).toBe(bytes.length);
    expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    const id = href!.split("/")[3];
    const api = await (await panel.request(`/api/nodes/${id}/deployment`, { token: deployer.token })).json();
    expect(api.install).toContain(`'http://localhost/api/nodes/${id}/kiln'`);
    expect(api.executableUrl).toBe(`http://localhost/api/nodes/${id}/kiln`);
    expect(api.executableSize).toBe(bytes.length);
  });

  test("without a master URL the page warns and uses the browser's address; with one, no warning and the commands use it", async () => {
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    let html = await nodePage(admin.token, "10.1.2.3:8080");
    expect(html).toContain('data-testid="master-url-warning"');
    expect(html).toContain("The node is told to reach the panel at the address this browser used (http://10.1.2.3:8080)");
    expect(html).toContain('<a href="/settings">Set it in Settings.</a>');
    expect(html).toContain("'http://10.1.2.3:8080/api/nodes/");
    // Plain HTTP to another machine: the token and the secret would cross in the clear.
    expect(html).toContain('data-testid="plain-http-warning"');
    // Someone who may deploy but not change settings is told who can.
    const deployer = await loginAs(panel.db, [SCOPES.nodesView, SCOPES.nodesDeploy]);
    const local = await nodePage(deployer.token);
    expect(local).toContain("An administrator can set it in the panel's settings.");
    // http://localhost stays on the machine: no warning.
    expect(local).not.toContain('data-testid="plain-http-warning"');
    await setSetting(panel.db, SETTING_KEYS.masterUrl, "https://panel.example.com");
    try {
      html = await nodePage(admin.token, "10.1.2.3:8080");
      expect(html).not.toContain('data-testid="master-url-warning"');
      expect(html).not.toContain('data-testid="plain-http-warning"');
      expect(html).toContain("'https://panel.example.com/api/nodes/");
      expect(html).toContain('"panelUrl": "https://panel.example.com"');
    } finally {
      await setSetting(panel.db, SETTING_KEYS.masterUrl, "");
    }
  });

  test("a panel with no executable says how to get one, offers no install line, and the download answers the catalogue error", async () => {
    const bare = await testPanel({ executable: null, executableBuild: null });
    const admin = await loginAs(bare.db, [SCOPES.admin]);
    const node = await createNode(bare.db, input());
    const html = decode(await (await bare.request(`/node/${node.id}`, { token: admin.token, headers: HTML })).text());
    expect(html).toContain('data-testid="no-executable"');
    expect(html).toContain("run npm run build and start dist/kiln".replace("run npm", "Run npm"));
    expect(html).not.toContain('data-testid="deployment-install"');
    expect(html).not.toContain('data-testid="download-kiln"');
    expect(html).toContain('data-testid="deployment-config"');
    const res = await bare.request(`/api/nodes/${node.id}/kiln`, { token: admin.token });
    expect(res.status).toBe(404);
    const body = await res.json();
    expect(body.error.code).toBe("ErrNoExecutable");
    expect(body.error.msg).toContain("npm run build");
    // A named executable that is not there (KILN_NODE_EXECUTABLE mistyped) is no executable either.
    const missing = await testPanel({ executable: join(tempDir("kiln-none-"), "kiln"), executableChosen: true });
    const missingAdmin = await loginAs(missing.db, [SCOPES.admin]);
    const missingNode = await createNode(missing.db, input());
    expect(await (await missing.request(`/node/${missingNode.id}`, { token: missingAdmin.token, headers: HTML })).text()).toContain('data-testid="no-executable"');
    // One an operator named may be for another system: the page does not claim it is the panel's.
    const chosen = await testPanel({ executable, executableChosen: true });
    const chosenAdmin = await loginAs(chosen.db, [SCOPES.admin]);
    const chosenHtml = await (await chosen.request(`/node/${(await createNode(chosen.db, input())).id}`, { token: chosenAdmin.token, headers: HTML })).text();
    expect(chosenHtml).toContain('data-testid="download-kiln"');
    expect(chosenHtml).not.toContain("It is built for");
    expect((await missing.request(`/api/nodes/${missingNode.id}/kiln`, { token: missingAdmin.token })).status).toBe(404);
  });
});

describe("a panel started from a checkout that was never built", () => {
  /**
   * A checkout whose build.ts stands in for the real one (test/build.test.ts runs that): it waits
   * a moment, then writes `--outfile` (or fails), as `bun build.ts` does.
   */
  function checkout(build: "works" | "fails"): { root: string; executable: string; bytes: Buffer } {
    const root = tempDir("kiln-checkout-");
    const bytes = randomBytes(4096);
    writeFileSync(join(root, "made.bin"), bytes);
    const body = build === "works"
      ? `const out = process.argv[process.argv.indexOf("--outfile") + 1]; await Bun.sleep(1500); require("node:fs").mkdirSync(require("node:path").dirname(out), { recursive: true }); await Bun.write(out, Bun.file(${JSON.stringify(join(root, "made.bin"))}));`
      : `console.error('error: Could not resolve: "./missing"'); console.error("    at /somewhere/build.ts:1:2"); process.exit(1);`;
    writeFileSync(join(root, "build.ts"), body);
    return { root, executable: join(root, "dist", "kiln"), bytes };
  }

  test("offers the install line, builds on the first download (which waits for it), then shows the size", async () => {
    const made = checkout("works");
    const panel = await testPanel({ executable: made.executable, executableBuild: made.root });
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const node = await createNode(panel.db, input());
    const page = async () => decode(await (await panel.request(`/node/${node.id}`, { token: admin.token, headers: HTML })).text());
    let html = await page();
    expect(html).toContain('data-testid="deployment-install"');
    expect(html).toContain('data-testid="executable-buildable"');
    expect(html).toContain("the first download builds the kiln executable");
    const install = /data-testid="deployment-install" dir="ltr">([^<]+)<\/pre>/.exec(html)?.[1] ?? "";
    // The install line's download, made before the build: it waits for it.
    const download = panel.request(`/api/nodes/${node.id}/kiln`, { headers: { authorization: `Bearer ${tokenOf(install)}` } });
    await Bun.sleep(300);
    html = await page();
    expect(html).toContain('data-testid="executable-building"');
    const res = await download;
    expect(res.status).toBe(200);
    expect(Buffer.from(await res.arrayBuffer()).equals(made.bytes)).toBe(true);
    html = await page();
    expect(html).toContain('data-testid="download-size">The download is 4 KiB.</p>');
  });

  test("'Build it now' starts the build from the page; a build that fails says why and nothing is offered", async () => {
    const good = checkout("works");
    const panel = await testPanel({ executable: good.executable, executableBuild: good.root });
    const admin = await loginAs(panel.db, [SCOPES.admin]);
    const node = await createNode(panel.db, input());
    const built = await panel.request(`/node/${node.id}/build-executable`, { token: admin.token, method: "POST", headers: { origin: "http://localhost", "content-type": "application/x-www-form-urlencoded" }, body: "" });
    expect(built.status).toBe(303);
    expect(built.headers.get("location")).toBe(`/node/${node.id}#deployment`);
    const deadline = Date.now() + 15_000;
    while (!(await Bun.file(good.executable).exists())) {
      expect(Date.now()).toBeLessThan(deadline);
      await Bun.sleep(100);
    }

    const bad = checkout("fails");
    const failing = await testPanel({ executable: bad.executable, executableBuild: bad.root });
    const failingAdmin = await loginAs(failing.db, [SCOPES.admin]);
    const failingNode = await createNode(failing.db, input());
    const res = await failing.request(`/api/nodes/${failingNode.id}/kiln`, { token: failingAdmin.token });
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe("ErrNoExecutable");
    const html = decode(await (await failing.request(`/node/${failingNode.id}`, { token: failingAdmin.token, headers: HTML })).text());
    expect(html).toContain('data-testid="no-executable"');
    expect(html).toContain('could not build the kiln executable: error: Could not resolve: "./missing"');
    expect(html).not.toContain('data-testid="deployment-install"');
  });
});

describe("the one-line install, run by a real shell as root", () => {
  const runnable = partAvailable("bubblewrap and curl, as root", () => Boolean(Bun.which("bwrap") && Bun.which("curl")) && process.getuid?.() === 0);

  /** Runs `install` in a sandbox whose /usr/local/bin and /etc are empty folders of the test's, with `systemctl` a script that notes its calls (or none). */
  async function runInstall(install: string, withSystemd: boolean) {
    const root = tempDir("kiln-install-run-");
    for (const dir of ["bin", "etc", "fake"]) mkdirSync(join(root, dir));
    const fake = join(root, "fake");
    if (withSystemd) writeFileSync(join(fake, "systemctl"), `#!/bin/sh\necho "$*" >> ${fake}/calls\n`, { mode: 0o755 });
    // Without systemd: the machine's own systemctl, if it has one, is not there either.
    const hide = !withSystemd && Bun.which("systemctl") ? ["--ro-bind", "/dev/null", Bun.which("systemctl")!] : [];
    // Not spawnSync: the panel answering curl runs in this process.
    const child = Bun.spawn(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--bind", root, root, "--bind", join(root, "bin"), "/usr/local/bin", "--bind", join(root, "etc"), "/etc", ...hide, "--setenv", "PATH", `${fake}:/usr/bin:/bin`, "sh", "-c", install], { stdout: "pipe", stderr: "pipe", timeout: 30_000 });
    const [exitCode, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()]);
    return { root, run: { exitCode, stderr } };
  }

  test.if(runnable)("installs the executable, the config (root only) and the unit, then restarts the service; it does not run the node itself", async () => {
    const exe = join(tempDir("kiln-exe-"), "kiln");
    const bytes = randomBytes(50_000);
    writeFileSync(exe, bytes);
    const panel = await testPanel({ executable: exe });
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => panel.app.fetch(req) });
    try {
      const node = await createNode(panel.db, input());
      const { install } = nodeDeployment(await getNodeRow(panel.db, node.id), `http://127.0.0.1:${server.port}`);
      const started = Date.now();
      const { root, run } = await runInstall(install, true);
      expect(run.stderr).toBe("");
      expect(run.exitCode).toBe(0);
      expect(Date.now() - started).toBeLessThan(20_000);
      expect(readFileSync(join(root, "bin", "kiln")).equals(bytes)).toBe(true);
      expect(statSync(join(root, "bin", "kiln")).mode & 0o777).toBe(0o755);
      expect(statSync(join(root, "etc", "kiln", "daemon.json")).mode & 0o777).toBe(0o600);
      expect(JSON.parse(readFileSync(join(root, "etc", "kiln", "daemon.json"), "utf8")).secret).toBe((await getNodeRow(panel.db, node.id)).secret);
      expect(readFileSync(join(root, "etc", "systemd", "system", "kiln.service"), "utf8")).toBe(serviceUnit("/etc/kiln/daemon.json"));
      expect(readFileSync(join(root, "fake", "calls"), "utf8")).toBe("daemon-reload\nenable kiln\nrestart kiln\n");
    } finally {
      void server.stop(true);
    }
  });

  test.if(runnable)("on a machine without systemd it says so and writes nothing", async () => {
    const panel = await testPanel();
    const node = await createNode(panel.db, input());
    const { install } = nodeDeployment(await getNodeRow(panel.db, node.id), "http://127.0.0.1:9");
    const { root, run } = await runInstall(install, false);
    expect(run.exitCode).not.toBe(0);
    expect(run.stderr).toContain("kiln: no systemd on this machine; start the node with: /usr/local/bin/kiln daemon");
    expect(readdirSync(join(root, "bin"))).toEqual([]);
    expect(readdirSync(join(root, "etc"))).toEqual([]);
  });
});

describe("install command quoting", () => {
  test("a panel address with quotes, $(…) and spaces stays one argument when a real shell runs the command", async () => {
    const panel = await testPanel();
    const node = await createNode(panel.db, input());
    const proof = join(tempDir("kiln-quote-"), "pwned");
    const evil = `https://panel.example/it's $(touch ${proof}) \`touch ${proof}\` "x"`;
    const { install } = nodeDeployment(await getNodeRow(panel.db, node.id), evil);
    // Every command the line runs is a shell function here that prints its arguments, one a line.
    const shim = "curl() { printf '[%s]\\n' \"$@\"; }; chmod() { :; }; mv() { :; }; mkdir() { :; }; systemctl() { [ \"$1\" = restart ] && printf '[%s]\\n' done; :; }";
    const run = Bun.spawnSync(["sh", "-c", `${shim}; ${install.replace("> '/etc/systemd/system/kiln.service'", "> /dev/null")}`]);
    const args = run.stdout.toString().trim().split("\n");
    expect(args).toContain(`[${evil}/api/nodes/${node.id}/kiln]`);
    expect(args).toContain(`[${evil}/api/nodes/${node.id}/deployment/config]`);
    expect(args.at(-1)).toBe("[done]");
    expect(await Bun.file(proof).exists()).toBe(false);
  });
});
