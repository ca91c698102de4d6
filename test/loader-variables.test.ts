// Eggs whose game servers load their own libraries (Valheim's ./linux64, TeaSpeak's ./libs,
// Bedrock's ".", …) name LD_LIBRARY_PATH among their variables, and Wings hands it to the
// container under its own name. A real program linked against a library in ./libs (built with
// gcc, test/helpers/loader-binaries) starts under the sandboxed standard environment and in a
// container of the egg runtime; an install step never sees the variable (the node keeps loader
// variables out of what it runs itself).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eventually, startTestNode, type TestNode } from "./helpers/node";
import { hasGcc, writeLoaderBinaries } from "./helpers/loader-binaries";
import { hasDocker } from "./helpers/docker";
import { ensureEggImages, EGG_INSTALLER_IMAGE, EGG_RUNTIME_IMAGE } from "./helpers/egg-images";
import { jsonInit, panelWithNode, type PanelWithNode } from "./helpers/panel-node";

const gcc = hasGcc();
const docker = gcc && hasDocker();

const consoleOf = async (node: TestNode, id: string) => ((await node.json("GET", `/daemon/server/${id}/console?time=0`)).logs as string[]).join("");

describe.if(gcc)("the sandboxed standard environment", () => {
  let node: TestNode;
  beforeAll(async () => {
    node = await startTestNode();
  });
  afterAll(() => node.stop());

  const definition = (value: string) => ({
    name: "libs",
    display: "A game with its own libraries",
    type: "other",
    install: [{ type: "command", commands: ["sh -c 'echo \"install sees [$LD_LIBRARY_PATH]\"'"] }],
    run: { command: "./hello", stop: "" },
    data: { LD_LIBRARY_PATH: { display: "Library path", type: "string", value, required: false, userEdit: false } },
    environment: { type: "standard" },
  });

  test("LD_LIBRARY_PATH=./libs reaches the program under its own name: it loads its library and runs", async () => {
    expect((await node.call("PUT", "/daemon/server/libs", definition("./libs"))).status).toBeLessThan(300);
    expect((await node.call("POST", "/daemon/server/libs/install?wait=true")).status).toBe(204);
    writeLoaderBinaries(node.folder("libs"));
    expect((await node.call("POST", "/daemon/server/libs/start?wait=true")).status).toBe(204);
    await eventually(async () => /hello from|exited/.test(await consoleOf(node, "libs")), 15_000, "the program's run");
    const text = await consoleOf(node, "libs");
    expect(text).toContain("hello from ./libs");
    expect(text).not.toContain("cannot open shared object file");
    // The install step ran on the node's side of things: no loader variable there.
    expect(text).toContain("install sees []");
  }, 60_000);

  test("without it the same program cannot start (exit 127): the variable is what made the difference", async () => {
    expect((await node.call("PUT", "/daemon/server/nolibs", definition(""))).status).toBeLessThan(300);
    writeLoaderBinaries(node.folder("nolibs"));
    expect((await node.call("POST", "/daemon/server/nolibs/start?wait=true")).status).toBe(204);
    await eventually(async () => /exited|ended/.test(await consoleOf(node, "nolibs")), 15_000, "the program's exit");
    const text = await consoleOf(node, "nolibs");
    expect(text).toContain("cannot open shared object file");
    expect(text).not.toContain("hello from ./libs");
  }, 60_000);
});

describe.if(docker)("an egg with LD_LIBRARY_PATH, in a container of the egg runtime", () => {
  let t: PanelWithNode;
  let id = "";
  const EGG = {
    meta: { version: "PTDL_v2" },
    name: "Game with its own libraries",
    author: "kiln@example.test",
    description: "Kiln's own test egg: a program linked against ./libs",
    docker_images: { Test: EGG_RUNTIME_IMAGE },
    startup: "./hello",
    config: { files: "{}", startup: '{"done": "hello from"}', logs: "{}", stop: "^C" },
    scripts: { installation: { script: '#!/bin/ash\necho "install sees [$LD_LIBRARY_PATH]"\n', container: EGG_INSTALLER_IMAGE, entrypoint: "ash" } },
    variables: [{ name: "Library path", description: "", env_variable: "LD_LIBRARY_PATH", default_value: "./libs", user_viewable: false, user_editable: false, rules: "required|string" }],
  };

  beforeAll(async () => {
    await ensureEggImages();
    t = await panelWithNode();
  }, 120_000);
  afterAll(async () => {
    if (id) await t.node.call("POST", `/daemon/server/${id}/kill`).catch(() => undefined);
    await t.node.stop();
  });

  test("imported, the variable keeps its name; the container's program loads ./libs and runs", async () => {
    const put = await t.panel.request("/api/templates/libs-egg", { token: t.admin.token, ...jsonInit("PUT", EGG) });
    expect(put.status).toBeLessThan(300);
    const template = await put.json();
    expect(Object.keys(template.data).sort()).toEqual(["LD_LIBRARY_PATH", "port"]);
    const res = await t.panel.request("/api/servers", { token: t.admin.token, ...jsonInit("POST", { name: "libs egg", node: t.nodeId, template: "libs-egg", environment: { type: "docker" }, variables: { port: 27031 } }) });
    expect(res.status).toBe(201);
    id = (await res.json()).id;
    expect((await t.node.call("POST", `/daemon/server/${id}/install?wait=true`)).status).toBe(204);
    // The busybox image has no C library: the program brings the machine's loader and libc in ./libs.
    writeLoaderBinaries(t.node.folder(id), { loader: "bundled" });
    expect((await t.node.call("POST", `/daemon/server/${id}/start?wait=true`)).status).toBe(204);
    await eventually(async () => /hello from|exited/.test(await consoleOf(t.node, id)), 30_000, "the program's run");
    const text = await consoleOf(t.node, id);
    expect(text).toContain("container~ ./hello");
    expect(text).toContain("hello from ./libs");
    expect(text).not.toContain("cannot open shared object file");
    // The install script ran in its own container without it.
    expect(text).toContain("install sees []");
  }, 120_000);
});
