// Attacks on the eggs' run-time features (egg-run): values that try to add structure to each
// config parser, configfile paths that climb out or go through links, install-script and
// runtime images a non-administrator tries to choose, and the fileDenylist through the file API,
// the file manager, archives and SFTP (links included).
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ZipFile } from "yazl";
import { parse as parseProperties } from "dot-properties";
import { stepSchema, templateSchema, substituteStep, type Step } from "../../core/definition";
import { SCOPES } from "../../core/scopes";
import { Jail } from "../../daemon/files/jail";
import { runSteps } from "../../daemon/processors";
import type { StepContext } from "../../daemon/processors/types";
import { createUser } from "../../server/services/users";
import { LoginThrottle } from "../../server/services/auth/throttle";
import { putTemplate } from "../../server/services/templates";
import { startTestNode, echoTemplate, type TestNode } from "../helpers/node";
import { jsonInit, panelWithNode, type PanelWithNode } from "../helpers/panel-node";
import { loginAs } from "../helpers/app";
import { hasSftpClient, sftpBatch, sftpRig, type SftpRig } from "../helpers/sftp";
import { tempDir } from "../helpers/process";

const temps: string[] = [];

async function zipOf(entries: Record<string, string>): Promise<Uint8Array> {
  const zip = new ZipFile();
  for (const [path, text] of Object.entries(entries)) zip.addBuffer(Buffer.from(text), path);
  zip.end();
  return new Uint8Array(await new Response(zip.outputStream as unknown as ReadableStream).arrayBuffer());
}
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function folder(): { base: string; root: string; ctx: StepContext } {
  const base = mkdtempSync(join(tmpdir(), "kiln-egg-attack-"));
  temps.push(base);
  const root = join(base, "server");
  mkdirSync(root);
  const ctx: StepContext = {
    jail: new Jail(root),
    binariesDir: join(base, "bin"),
    sources: {} as StepContext["sources"],
    log: () => undefined,
    execute: () => Promise.reject(new Error("nothing runs here")),
    placeholders: { facts: { port: "25565", ip: "0.0.0.0", memory: "1024", uuid: "s1" }, dockerInterface: "127.0.0.1" },
  };
  return { base, root, ctx };
}
const configfile = (file: string, parser: string, replace: object[]): Step => stepSchema.parse({ type: "configfile", file, parser, replace });

const HOSTILE = 'x\nop=true\r\n[admin]\npassword = "\'$(id)`id`${HOME}</a><b>&amp;\u2028- {a: 1} #';

describe("configfile: a value cannot add structure", () => {
  test("properties: the value stays one key's value", async () => {
    const { root, ctx } = folder();
    await runSteps([configfile("server.properties", "properties", [{ match: "motd", value: "{{env.MOTD}}" }])], { MOTD: HOSTILE }, ctx);
    expect(parseProperties(readFileSync(join(root, "server.properties"), "utf8"))).toEqual({ motd: HOSTILE });
  });

  test("yaml and json: the value stays one string", async () => {
    const { root, ctx } = folder();
    await runSteps([configfile("a.yml", "yaml", [{ match: "motd", value: "${MOTD}" }]), configfile("a.json", "json", [{ match: "motd", value: "{{env.MOTD}}" }])], { MOTD: HOSTILE }, ctx);
    expect(Bun.YAML.parse(readFileSync(join(root, "a.yml"), "utf8"))).toEqual({ motd: HOSTILE });
    expect(JSON.parse(readFileSync(join(root, "a.json"), "utf8"))).toEqual({ motd: HOSTILE });
  });

  test("xml: the value stays text, in an element and in an attribute", async () => {
    const { root, ctx } = folder();
    writeFileSync(join(root, "c.xml"), "<c><motd/></c>");
    await runSteps([configfile("c.xml", "xml", [{ match: "c.motd", value: "{{env.MOTD}}" }, { match: "c.name", value: "[v='{{env.MOTD}}']" }])], { MOTD: HOSTILE.replace("\u2028", "") }, ctx);
    const text = readFileSync(join(root, "c.xml"), "utf8");
    expect(text).not.toContain("<b>");
    expect(text).not.toContain("<a");
    expect(text.match(/<[a-z]/g)).toEqual(["<c", "<m", "<n"]);
  });

  test("ini and file: a value with a line break is refused and the file is left as it was", async () => {
    for (const [file, parser, match] of [["s.ini", "ini", "Server.Name"], ["s.cfg", "file", "name"]] as const) {
      const { root, ctx } = folder();
      writeFileSync(join(root, file), parser === "ini" ? "[Server]\nName=old\n" : "name old\n");
      const value = parser === "ini" ? "{{env.MOTD}}" : "name {{env.MOTD}}";
      const run = runSteps([configfile(file, parser, [{ match, value }])], { MOTD: HOSTILE }, ctx);
      await expect(run).rejects.toMatchObject({ code: "ErrStepFailed" });
      expect(readFileSync(join(root, file), "utf8")).toBe(parser === "ini" ? "[Server]\nName=old\n" : "name old\n");
    }
  });

  test("a value holding a placeholder is never resolved: a hidden variable cannot be copied into a file", async () => {
    const { root, ctx } = folder();
    await runSteps([configfile("a.json", "json", [{ match: "motd", value: "{{env.MOTD}}" }])], { MOTD: "{{env.RCON_PASSWORD}}${RCON_PASSWORD}", RCON_PASSWORD: "hunter2" }, ctx);
    expect(readFileSync(join(root, "a.json"), "utf8")).not.toContain("hunter2");
  });
});

describe("configfile: paths stay in the server's folder", () => {
  const outsideFile = (base: string) => join(base, "outside.properties");

  test.each(["../outside.properties", "/../outside.properties", "a/../../outside.properties", "{{env.P}}", "${P}"])("%s is refused; nothing outside is written", async (file) => {
    const { base, ctx } = folder();
    const run = runSteps([configfile(file, "properties", [{ match: "a", value: "b" }])], { P: "../outside.properties" }, ctx);
    await expect(run).rejects.toMatchObject({ code: "ErrStepFailed" });
    expect(existsSync(outsideFile(base))).toBe(false);
  });

  test("a link to a file outside, or through a linked folder, is refused; the outside file is untouched", async () => {
    const { base, root, ctx } = folder();
    writeFileSync(outsideFile(base), "a=original\n");
    symlinkSync(outsideFile(base), join(root, "server.properties"));
    symlinkSync(base, join(root, "up"));
    for (const file of ["server.properties", "up/outside.properties", "up/new.properties"]) {
      await expect(runSteps([configfile(file, "properties", [{ match: "a", value: "pwned" }])], {}, ctx)).rejects.toMatchObject({ code: "ErrStepFailed" });
    }
    expect(readFileSync(outsideFile(base), "utf8")).toBe("a=original\n");
    expect(existsSync(join(base, "new.properties"))).toBe(false);
  });

  test("a name for a config file cannot hold a line break", async () => {
    const { ctx } = folder();
    await expect(runSteps([configfile("{{env.F}}", "json", [{ match: "a", value: "b" }])], { F: "a\nb.json" }, ctx)).rejects.toMatchObject({ code: "ErrStepFailed" });
  });
});

describe("containerscript: the image and the script are the template's", () => {
  test("variables are neither substituted into the script nor into the image", () => {
    const step = stepSchema.parse({ type: "containerscript", image: "${image}", entrypoint: "ash", script: "echo ${GREETING} $(whoami)" });
    expect(substituteStep(step, { image: "attacker/rootkit", GREETING: "$(rm -rf /)" })).toEqual(step);
  });

  test("without a Docker Engine the step is refused, saying why", async () => {
    const { ctx } = folder();
    await expect(runSteps([stepSchema.parse({ type: "containerscript", image: "x", script: "true" })], {}, ctx)).rejects.toMatchObject({ code: "ErrStepFailed", metadata: { reason: "the containerscript step needs a Docker Engine on this node" } });
  });
});

describe("a non-administrator choosing images at creation", () => {
  let t: PanelWithNode;
  beforeAll(async () => {
    t = await panelWithNode();
    await putTemplate(t.panel.db, "egg-images", {
      ...echoTemplate(),
      install: [{ type: "containerscript", image: "kiln-test/egg-installer", script: "true" }],
      environment: { type: "docker", image: "egg/java:21", images: [{ display: "Java 21", image: "egg/java:21" }, { display: "Java 17", image: "egg/java:17" }], conventions: "egg" },
      supportedEnvironments: [],
    });
  });
  afterAll(() => t.node.stop());

  const create = (token: string, environment: object) => t.panel.request("/api/servers", { token, ...jsonInit("POST", { name: `egg ${randomBytes(3).toString("hex")}`, node: t.nodeId, template: "egg-images", environment }) });

  test("may pick one of the template's images, and no other; nor change the conventions or the offered list", async () => {
    const user = await loginAs(t.panel.db, [SCOPES.serversCreate]);
    expect((await create(user.token, { type: "docker", image: "egg/java:17" })).status).toBe(201);
    for (const environment of [
      { type: "docker", image: "attacker/rootkit:latest" },
      { type: "docker", image: "egg/java:17 " },
      { type: "docker", image: ["egg/java:17"] },
      { type: "docker", images: [{ display: "mine", image: "attacker/rootkit" }], image: "attacker/rootkit" },
      { type: "docker", conventions: "egg", image: "attacker/x" },
    ]) {
      const res = await create(user.token, environment);
      expect(res.status).toBe(403);
      expect((await res.json()).error.code).toBe("ErrNoPermission");
    }
  });
});

describe("fileDenylist through the file API and the file manager", () => {
  let node: TestNode;
  let root: string;
  const ID = "deny1";

  beforeAll(async () => {
    node = await startTestNode();
    await node.json("PUT", `/daemon/server/${ID}`, templateSchema.parse({ ...echoTemplate(), fileDenylist: ["*.jar", "/config/secret.yml", "!allowed.jar"] }));
    root = node.folder(ID);
    mkdirSync(join(root, "config"), { recursive: true });
    mkdirSync(join(root, "mods"), { recursive: true });
  });
  beforeEach(() => {
    writeFileSync(join(root, "server.jar"), "protected");
    writeFileSync(join(root, "mods", "mod.jar"), "protected mod");
    writeFileSync(join(root, "allowed.jar"), "allowed");
    writeFileSync(join(root, "config", "secret.yml"), "token: s3cret");
    writeFileSync(join(root, "config", "other.yml"), "ok: true");
  });
  afterAll(() => node.stop());

  const url = (path: string) => `${node.node.url}/daemon/server/${ID}/${path}`;
  const call = (path: string, init: RequestInit = {}) => node.fetch(url(path), init);
  const expectDenied = async (res: Response) => {
    expect(res.status).toBe(403);
    expect((await res.json()).error.code).toBe("ErrFileDenied");
  };
  const upload = (path: string, text: string) => {
    const form = new FormData();
    form.append("file", new Blob([text]), "x");
    return call(`file/${path}`, { method: "PUT", body: form });
  };
  const post = (path: string, body: unknown) => call(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  test("download and upload of a denied file are refused; others, and negated patterns, work", async () => {
    await expectDenied(await call("file/server.jar"));
    await expectDenied(await call("file/mods/mod.jar"));
    await expectDenied(await call("file/config/secret.yml"));
    await expectDenied(await upload("server.jar", "replaced"));
    await expectDenied(await upload("new.jar", "new"));
    await expectDenied(await call("file/x.jar?folder=true", { method: "PUT" }));
    expect(readFileSync(join(root, "server.jar"), "utf8")).toBe("protected");
    expect(existsSync(join(root, "new.jar"))).toBe(false);
    expect(await (await call("file/allowed.jar")).text()).toBe("allowed");
    expect(await (await call("file/config/other.yml")).text()).toBe("ok: true");
    // The listing still shows them, as Wings does: only their content is kept from users.
    expect((await (await call("file")).json()).files.map((f: { name: string }) => f.name)).toContain("server.jar");
  });

  test("a link to a denied file does not open it", async () => {
    symlinkSync("config/secret.yml", join(root, "innocent.txt"));
    await expectDenied(await call("file/innocent.txt"));
    rmSync(join(root, "innocent.txt"));
  });

  test("rename and copy neither take a denied file nor land on a denied name (into a folder too)", async () => {
    await expectDenied(await post("move", { from: "server.jar", to: "server.txt" }));
    await expectDenied(await post("move", { from: "config/other.yml", to: "config/secret.yml" }));
    await expectDenied(await post("copy", { from: "config/secret.yml", to: "leak.txt" }));
    await expectDenied(await post("copy", { from: "config", to: "config-copy" }));
    await expectDenied(await post("move", { from: "config", to: "mods" }));
    writeFileSync(join(root, "mods", "evil.txt"), "x");
    await expectDenied(await post("move", { from: "mods/evil.txt", to: "evil.jar" }));
    await expectDenied(await post("mode", { path: "server.jar", mode: "777" }));
    expect(readdirSync(root).sort()).toEqual(["allowed.jar", "config", "mods", "server.jar"]);
    expect((await post("move", { from: "mods/evil.txt", to: "fine.txt" })).status).toBe(200);
  });

  test("archives and zip downloads leave denied files out; an archive named like one is refused", async () => {
    const made = await post("archive/backup.zip", ["/config", "/server.jar", "/allowed.jar"]);
    expect(made.status).toBe(200);
    const names = (await (await call(`zip?path=/config&path=/mods`)).arrayBuffer()).byteLength;
    expect(names).toBeGreaterThan(0);
    const listing = Bun.spawnSync(["unzip", "-Z1", join(root, (await made.json()).path)]).stdout.toString();
    expect(listing).toContain("config/other.yml");
    expect(listing).toContain("allowed.jar");
    expect(listing).not.toContain("secret.yml");
    expect(listing).not.toContain("server.jar");
    await expectDenied(await post("archive/stolen.jar", ["/config"]));
  });

  test("an archive with an entry on a denied name is refused whole; nothing is placed", async () => {
    writeFileSync(join(root, "drop.zip"), await zipOf({ "readme.txt": "hi", "server.jar": "replaced", "config/secret.yml": "token: mine" }));
    await expectDenied(await call("extract/drop.zip"));
    expect(readFileSync(join(root, "server.jar"), "utf8")).toBe("protected");
    expect(existsSync(join(root, "readme.txt"))).toBe(false);
    expect(readdirSync(root).filter((name) => name.startsWith(".kiln-extract"))).toEqual([]);
    rmSync(join(root, "drop.zip"));
  });

  test("deleting a denied file stays possible (as with Wings): the denylist guards content, not existence", async () => {
    expect((await call("file/server.jar", { method: "DELETE" })).status).toBe(204);
  });
});

describe.skipIf(!hasSftpClient())("fileDenylist through SFTP", () => {
  let rig: SftpRig;
  let serverId = "";
  let root = "";
  const PASSWORD = "password123";
  beforeAll(async () => {
    rig = await sftpRig();
    serverId = await rig.createServer("deny sftp");
    const definition = await rig.daemon.json("GET", `/daemon/server/${serverId}`);
    expect((await rig.daemon.call("POST", `/daemon/server/${serverId}`, { ...definition, fileDenylist: ["*.jar", "/config/secret.yml"] })).status).toBe(204);
    root = rig.folder(serverId);
    mkdirSync(join(root, "config"), { recursive: true });
    writeFileSync(join(root, "server.jar"), "protected");
    writeFileSync(join(root, "config", "secret.yml"), "token: s3cret");
    symlinkSync("config/secret.yml", join(root, "link.txt"));
    // A link to a denied name that does not exist yet: writing through it must leave nothing.
    symlinkSync("planted.jar", join(root, "dangling.txt"));
  }, 30_000);
  afterAll(async () => rig?.stop());
  beforeEach(() => {
    rig.panel.deps.throttle = new LoginThrottle();
  });

  test("get, put, rename to and from, and chmod of denied files are refused; other files work", async () => {
    await createUser(rig.panel.db, { email: "deny@example.com", username: "denyuser", password: PASSWORD, scopes: [SCOPES.admin] });
    const login = { email: "deny@example.com", serverId, password: PASSWORD };
    const cwd = tempDir("kiln-deny-sftp-");
    writeFileSync(join(cwd, "local.jar"), "uploaded");
    writeFileSync(join(cwd, "local.txt"), "fine");
    const result = await sftpBatch(rig.node.sftpPort, login, [
      "-get server.jar got.jar",
      "-get config/secret.yml got.yml",
      "-get link.txt got-link.txt",
      "-put local.jar server.jar",
      "-put local.jar new.jar",
      "-put local.txt dangling.txt",
      "-rename server.jar server.txt",
      "-chmod 777 server.jar",
      "-mkdir evil.jar",
      "put local.txt fine.txt",
      "-rename fine.txt fine.jar",
    ], cwd);
    expect(result.code).toBe(0);
    for (const name of ["got.jar", "got.yml", "got-link.txt"]) expect(existsSync(join(cwd, name))).toBe(false);
    expect(readFileSync(join(root, "server.jar"), "utf8")).toBe("protected");
    const names = readdirSync(root);
    expect(names).toContain("fine.txt");
    for (const name of ["new.jar", "evil.jar", "server.txt", "fine.jar", "planted.jar"]) expect(names).not.toContain(name);
    // Each refused request answered PERMISSION_DENIED (the OpenSSH client prints its own words for it).
    expect(result.err.match(/Permission denied/g)).toHaveLength(10);
  }, 60_000);
});
