import { describe, expect, test } from "bun:test";
import { convertV1Template, looksLikeV1Template } from "./v1";
import { htmlToMarkdown } from "./html-description";
import { splitCommandLine } from "./command-line";
import { templateSchema } from "./template";
import { V1_SPIGOT as spigot } from "./v1-test-fixture";

// 1.x templates in the shapes PufferPanel 1.x shipped and users wrote, made up for these tests.

const forge = {
  pufferd: {
    type: "java",
    display: "Forge + Sponge - Minecraft",
    install: {
      commands: [
        { type: "mojangdl", version: "${version}", target: "minecraft_server.${version}.jar" },
        { type: "forgedl", version: "${forgeversion}", target: "forge-installer.jar" },
        { type: "command", commands: ["java -jar forge-installer.jar --installServer"] },
        { type: "move", source: "forge-*-universal.jar", target: "server.jar" },
        { type: "mkdir", target: "mods" },
        { type: "spongeforgedl" },
        {
          type: "download",
          files: ["https://example.com/mods/worldedit-6.1.jar", "https://example.com/mods/luckperms-4.4.jar"],
        },
        { type: "move", source: "*.jar", target: "mods" },
        { type: "teleport", target: "nowhere" },
        "not a step",
        { type: "move", source: "missing-target.jar" },
      ],
    },
    run: {
      stop: "stop",
      pre: [{ type: "writefile", text: "eula=${eula}", target: "eula.txt" }],
      post: [],
      program: "java",
      arguments: ["-Xmx${memory}M", "-Dfml.queryResult=confirm", "-jar", "server.jar", "nogui"],
      environmentVars: {},
    },
    environment: { type: "standard" },
    data: {
      version: { value: "1.12.2", required: true, desc: "Minecraft version", display: "Minecraft Version", internal: false },
      forgeversion: { value: "1.12.2-14.23.5.2768", required: true, desc: "Forge version", display: "Forge Version", internal: false },
      memory: { value: "2G", required: true, desc: "Memory for the <b>Java</b> heap", display: "Memory", internal: false, type: "integer" },
      eula: { value: "1", required: true, desc: 'Accept the <a href="https://account.mojang.com/documents/minecraft_eula">EULA</a>', display: "EULA", internal: false, type: "boolean" },
    },
  },
};

const tf2 = {
  pufferd: {
    type: "srcds",
    display: "Team Fortress 2",
    install: {
      commands: [
        { files: "https://steamcdn-a.akamaihd.net/client/installer/steamcmd_linux.tar.gz", type: "download" },
        {
          commands: [
            "mkdir steamcmd",
            "tar --no-same-owner -xzvf steamcmd_linux.tar.gz -C steamcmd",
            "steamcmd/steamcmd.sh +login anonymous +force_install_dir ${rootdir} +app_update 232250 +quit",
            "mkdir -p .steam/sdk32",
            "cp steamcmd/linux32/steamclient.so .steam/sdk32/steamclient.so",
          ],
          type: "command",
        },
      ],
    },
    run: {
      stop: "exit",
      pre: [],
      post: [],
      arguments: ["+ip", "${ip}", "+port", "${port}", "-game tf", "-console", "+map ${map}", "-norestart"],
      program: "./srcds_run",
      environmentVars: { LD_LIBRARY_PATH: "${rootdir}/bin", RDIR: "${ROOTDIR}" },
    },
    environment: { type: "tty" },
    data: {
      map: { value: "ctf_2fort", required: true, desc: "TF2 Map", display: "Team Fortess 2 Map to load", internal: false },
      ip: { value: "0.0.0.0", required: true, desc: "What IP to bind the server to", display: "IP", internal: false },
      port: { value: "27015", required: true, desc: "What port to bind the server to", display: "Port", internal: false, type: "integer" },
    },
  },
};

const factorio = {
  pufferd: {
    type: "factorio",
    install: {
      commands: [
        { files: "https://www.factorio.com/get-download/${version}/headless/linux64", type: "download" },
        { commands: ["mkdir factorio", "tar --no-same-owner -xf factorio_headless_x64_${version}.tar.xz -C factorio"], type: "command" },
      ],
    },
    run: {
      stop: "/quit",
      pre: [],
      post: [],
      arguments: ["--port", "${port}", "--bind", "${ip}", "--autosave-interval", "${autosave-interval}", "--start-server", "${save}"],
      program: "./factorio/bin/x64/factorio",
    },
    environment: { type: "tty" },
    data: {
      version: { value: "0.15.19", required: true, desc: "Version", display: "Version to Install", internal: true },
      save: { value: "default.zip", required: true, desc: "Save File to Use", display: "Save File to Use", internal: false },
      ip: { value: "0.0.0.0", required: true, desc: "What IP to bind the server to", display: "IP", internal: "false" },
      port: { value: "34197", required: true, desc: "What port to bind the server to", display: "Port", internal: false, type: "integer" },
      "autosave-interval": { value: "10", required: false, desc: "How often to autosave, in minutes", internal: false, type: "integer" },
      difficulty: { value: "normal", type: "option", options: ["easy", "normal", "hard"], desc: "", display: "Difficulty", internal: false },
    },
  },
};

const terrariaDocker = {
  pufferd: {
    type: "terraria",
    display: "TShock - Terraria (Docker)",
    install: [
      { type: "download", files: "https://github.com/Pryaxis/TShock/releases/download/v4.3.26/tshock_4.3.26.zip" },
      { type: "command", commands: "unzip tshock_4.3.26.zip" },
    ],
    run: {
      stopCode: 2,
      pre: [],
      post: [],
      program: "mono",
      arguments: ["TerrariaServer.exe", "-port", "${port}", "-maxplayers", "${maxplayers}", "-world", "${rootdir}/worlds/${world}.wld", "-motd", "${motd}"],
      environmentVars: { TERM: "xterm", MONO_GC_PARAMS: 512 },
    },
    environment: { type: "docker", image: "pufferpanel/mono", enforceNetwork: true },
    data: {
      port: { value: "7777", required: true, desc: "Port", display: "Port", internal: false, type: "integer" },
      maxplayers: { value: "8", display: "Max players", type: "integer" },
      world: { value: "world", display: "World name" },
      motd: { value: "It's a <Terraria> server", display: "MOTD", desc: "Message &amp; greeting<br>shown on join" },
    },
  },
};

// The inner object on its own, as some hand-written 1.x templates were kept.
const unwrappedVanilla = {
  type: "java",
  display: "Vanilla - Minecraft",
  install: [{ type: "mojangdl", version: "${version}", target: "server.jar" }],
  run: { stop: "stop", program: "java", arguments: ["-Xmx${memory}M", "-jar", "server.jar", "nogui"] },
  data: {
    version: { value: "release", display: "Version", desc: "Version or release/snapshot" },
    memory: { value: "1024", display: "Memory (MB)", type: "integer" },
  },
};

const examples = { spigot, forge, tf2, factorio, terrariaDocker, unwrappedVanilla };

type Converted = ReturnType<typeof templateSchema.parse>;
const convert = (value: unknown, name?: string): Converted => templateSchema.parse(convertV1Template(value, name));

describe("looksLikeV1Template", () => {
  test("true for every 1.x example, wrapped or not", () => {
    for (const [key, example] of Object.entries(examples)) expect(looksLikeV1Template(example), key).toBe(true);
    expect(looksLikeV1Template({ install: { commands: [] } })).toBe(true);
    expect(looksLikeV1Template({ run: { arguments: [] } })).toBe(true);
    expect(looksLikeV1Template({ pufferd: {} })).toBe(true);
  });

  test("false for converted templates and for junk", () => {
    for (const example of Object.values(examples)) expect(looksLikeV1Template(convertV1Template(example))).toBe(false);
    for (const junk of [null, undefined, [], "x", 5, true, {}, { pufferd: 5 }, { pufferd: [] }, { run: { command: "java", program: "java" } }, { install: [] }, [spigot]]) {
      expect(looksLikeV1Template(junk), JSON.stringify(junk)).toBe(false);
    }
  });
});

describe("convertV1Template", () => {
  test("every example converts to a template templateSchema accepts", () => {
    for (const [key, example] of Object.entries(examples)) {
      const result = templateSchema.safeParse(convertV1Template(example));
      expect(result.success, `${key}: ${result.error?.message}`).toBe(true);
    }
  });

  test("Spigot: names, install without the windows list, the run command, typed variables", () => {
    const raw = convertV1Template(spigot);
    expect(raw).toMatchObject({ name: "spigot-minecraft", display: "Spigot - Minecraft", type: "java" });
    expect(raw.install).toEqual([
      { type: "download", files: ["https://hub.spigotmc.org/jenkins/job/BuildTools/lastSuccessfulBuild/artifact/target/BuildTools.jar"] },
      { type: "command", commands: ["java -jar BuildTools.jar --rev ${version}"] },
      { type: "move", source: "spigot-*.jar", target: "server.jar" },
      { type: "writefile", target: "eula.txt", text: "eula=${eula}" },
    ]);
    expect(raw.run).toEqual({
      command: 'java "-Xmx${memory}M" -jar server.jar',
      workingDirectory: "",
      stop: "stop",
      pre: [],
      post: [],
      environmentVars: {},
      autostart: false,
      autorestart: false,
      autorecover: false,
    });
    expect(raw.data).toEqual({
      version: { display: "Version", desc: "Version of Spigot to build", type: "string", value: "1.12.2", required: true, userEdit: true },
      memory: { display: "Memory (MB)", desc: "How much memory in MB to allocate to the Java Heap", type: "integer", value: 1024, required: true, userEdit: true },
      eula: {
        display: "EULA Agreement",
        desc: "Do you agree to the [Minecraft EULA?](https://account.mojang.com/documents/minecraft_eula)",
        type: "boolean",
        value: false,
        required: true,
        userEdit: true,
      },
      ip: { display: "IP", desc: "What IP to bind the server to", type: "string", value: "0.0.0.0", required: true, userEdit: true },
    });
    expect(raw.environment).toEqual({ type: "standard" });
    expect(raw.supportedEnvironments).toEqual([{ type: "standard" }]);
    // The kept install steps are the non-Windows ones.
    expect(raw.requirements).toEqual({ os: "linux,darwin" });
    expect(splitCommandLine(String((raw.run as { command: string }).command))).toEqual(["java", ...spigot.pufferd.run.arguments]);
    expect(convertV1Template(spigot, "my-spigot").name).toBe("my-spigot");
  });

  test("Forge/Sponge: forgedl's target becomes filename, files lists stay lists, bad steps are dropped", () => {
    const t = convert(forge);
    expect(t.install).toEqual([
      { type: "mojangdl", version: "${version}", target: "minecraft_server.${version}.jar" },
      { type: "forgedl", version: "${forgeversion}", filename: "forge-installer.jar" },
      { type: "command", commands: ["java -jar forge-installer.jar --installServer"] },
      { type: "move", source: "forge-*-universal.jar", target: "server.jar" },
      { type: "mkdir", target: "mods" },
      { type: "spongeforgedl", releaseType: "recommended" },
      { type: "download", files: ["https://example.com/mods/worldedit-6.1.jar", "https://example.com/mods/luckperms-4.4.jar"] },
      { type: "move", source: "*.jar", target: "mods" },
    ]);
    expect(t.run.pre).toEqual([{ type: "writefile", target: "eula.txt", text: "eula=${eula}" }]);
    expect(t.run.command).toBe('java "-Xmx${memory}M" -Dfml.queryResult=confirm -jar server.jar nogui');
    // "2G" is no integer: the variable stays a string one rather than losing its value.
    expect(t.data.memory).toMatchObject({ type: "string", value: "2G", desc: "Memory for the Java heap" });
    expect(t.data.eula).toMatchObject({ type: "boolean", value: true, desc: "Accept the [EULA](https://account.mojang.com/documents/minecraft_eula)" });
    expect(t.requirements).toEqual({});
  });

  test("SRCDS: ${rootdir} becomes ${rootDir} everywhere, arguments with spaces stay one word, tty", () => {
    const t = convert(tf2);
    expect(t.run.command).toBe(`./srcds_run +ip "\${ip}" +port "\${port}" '-game tf' -console "+map \${map}" -norestart`);
    expect(splitCommandLine(t.run.command as string)).toEqual(["./srcds_run", ...tf2.pufferd.run.arguments]);
    expect(t.install[1]).toEqual({
      type: "command",
      commands: [
        "mkdir steamcmd",
        "tar --no-same-owner -xzvf steamcmd_linux.tar.gz -C steamcmd",
        "steamcmd/steamcmd.sh +login anonymous +force_install_dir ${rootDir} +app_update 232250 +quit",
        "mkdir -p .steam/sdk32",
        "cp steamcmd/linux32/steamclient.so .steam/sdk32/steamclient.so",
      ],
    });
    // Only the exact token is replaced.
    expect(t.run.environmentVars).toEqual({ LD_LIBRARY_PATH: "${rootDir}/bin", RDIR: "${ROOTDIR}" });
    expect(t.run.stop).toBe("exit");
    expect(t.data.port).toMatchObject({ type: "integer", value: 27015 });
    expect(t.data.map).toMatchObject({ type: "string", value: "ctf_2fort", display: "Team Fortess 2 Map to load" });
    expect(t.environment).toEqual({ type: "tty" });
    expect(t.supportedEnvironments).toEqual([{ type: "tty" }]);
    expect(JSON.stringify(convertV1Template(tf2))).not.toContain("${rootdir}");
  });

  test("Factorio: internal variables are not user-editable, the program path is kept, options", () => {
    const raw = convertV1Template(factorio);
    expect(raw).toMatchObject({ name: "factorio", display: "factorio", type: "factorio" });
    const t = templateSchema.parse(raw);
    expect(t.run.command).toBe('./factorio/bin/x64/factorio --port "${port}" --bind "${ip}" --autosave-interval "${autosave-interval}" --start-server "${save}"');
    expect(splitCommandLine(t.run.command as string)).toEqual(["./factorio/bin/x64/factorio", ...factorio.pufferd.run.arguments]);
    expect(t.run.stop).toBe("/quit");
    expect(t.data.version).toEqual({ display: "Version to Install", desc: "Version", type: "string", value: "0.15.19", required: false, userEdit: false });
    expect(t.data.ip!.userEdit).toBe(true);
    expect(t.data["autosave-interval"]).toEqual({ display: "autosave-interval", desc: "How often to autosave, in minutes", type: "integer", value: 10, required: false, userEdit: true });
    expect(t.data.difficulty).toEqual({
      display: "Difficulty",
      desc: "",
      type: "option",
      value: "normal",
      required: false,
      userEdit: true,
      options: [
        { value: "easy", display: "easy" },
        { value: "normal", display: "normal" },
        { value: "hard", display: "hard" },
      ],
    });
    expect(t.environment).toEqual({ type: "tty" });
  });

  test("Docker: the image is kept, unknown docker fields dropped, stopCode carried, plain install list", () => {
    const raw = convertV1Template(terrariaDocker, "tshock");
    expect(raw.environment).toEqual({ type: "docker", image: "pufferpanel/mono" });
    expect(raw.supportedEnvironments).toEqual([{ type: "docker", image: "pufferpanel/mono" }]);
    const t = templateSchema.parse(raw);
    expect(t.name).toBe("tshock");
    expect(t.environment).toEqual({ type: "docker", image: "pufferpanel/mono", networkMode: "host", networkName: "", bindings: {}, portBindings: [] });
    expect(t.run.stopCode).toBe(2);
    expect(t.run.stop).toBeUndefined();
    expect(t.run.environmentVars).toEqual({ TERM: "xterm", MONO_GC_PARAMS: "512" });
    expect(t.install).toEqual([
      { type: "download", files: ["https://github.com/Pryaxis/TShock/releases/download/v4.3.26/tshock_4.3.26.zip"] },
      { type: "command", commands: ["unzip tshock_4.3.26.zip"] },
    ]);
    expect(splitCommandLine(t.run.command as string)).toEqual(["mono", "TerrariaServer.exe", "-port", "${port}", "-maxplayers", "${maxplayers}", "-world", "${rootDir}/worlds/${world}.wld", "-motd", "${motd}"]);
    expect(t.data.maxplayers).toEqual({ display: "Max players", desc: "", type: "integer", value: 8, required: false, userEdit: true });
    expect(t.data.motd).toEqual({ display: "MOTD", desc: "Message & greeting\nshown on join", type: "string", value: "It's a <Terraria> server", required: false, userEdit: true });
  });

  test("an unwrapped template converts like a wrapped one", () => {
    const t = convert(unwrappedVanilla);
    expect(t).toMatchObject({ name: "vanilla-minecraft", display: "Vanilla - Minecraft", type: "java" });
    expect(t.install).toEqual([{ type: "mojangdl", version: "${version}", target: "server.jar" }]);
    expect(t.run.command).toBe('java "-Xmx${memory}M" -jar server.jar nogui');
    expect(t.data.memory).toMatchObject({ type: "integer", value: 1024, display: "Memory (MB)" });
    expect(t.data.version).toMatchObject({ type: "string", value: "release" });
    expect(convertV1Template(unwrappedVanilla)).toEqual(convertV1Template({ pufferd: unwrappedVanilla }));
  });

  test("never throws on junk; missing sections become defaults", () => {
    for (const junk of [null, undefined, [], "x", 5, {}, { pufferd: 5 }, { pufferd: null }, { pufferd: { install: 5, run: "x", data: [1], environment: "docker" } }]) {
      const raw = convertV1Template(junk);
      const t = templateSchema.parse(raw);
      expect(t.install).toEqual([]);
      expect(t.run.command).toBe("");
      expect(t.data).toEqual({});
      expect(t.environment).toEqual({ type: "standard" });
    }
    expect(convertV1Template(null)).toMatchObject({ name: "template", display: "template", type: "other", requirements: {} });
    const odd = convertV1Template({
      pufferd: {
        display: "Odd",
        install: { commands: [null, 5, [], { type: 7 }, { type: "download", files: [null, 3] }, { type: "command", commands: [] }, { type: "javadl", version: "12" }] },
        run: { program: "srv", arguments: ["a", null, { x: 1 }, 7], stopCode: 99, stop: "", pre: "x", environmentVars: { A: null, B: true } },
        data: { a: null, b: "x", c: { value: { nested: true }, type: "boolean", required: "false", internal: "true" }, d: { type: "option", value: "x" }, e: { type: "weird", value: 3 } },
        environment: { type: "lxd" },
      },
    });
    const t = templateSchema.parse(odd);
    expect(t.install).toEqual([{ type: "download", files: ["3"] }]);
    expect(t.run).toMatchObject({ command: "srv a 7", pre: [], environmentVars: { B: "true" } });
    expect(t.run.stop).toBeUndefined();
    expect(t.run.stopCode).toBeUndefined();
    expect(Object.keys(t.data)).toEqual(["c", "d", "e"]);
    expect(t.data.c).toMatchObject({ type: "boolean", value: false, required: false, userEdit: false });
    expect(t.data.d).toMatchObject({ type: "string", value: "x" });
    expect(t.data.e).toMatchObject({ type: "string", value: "3" });
    expect(t.environment).toEqual({ type: "standard" });
  });
});

describe("htmlToMarkdown", () => {
  test("links become markdown links, other tags go, entities are decoded", () => {
    expect(htmlToMarkdown("See <a href='https://x.test/a'>the docs</a>.")).toBe("See [the docs](https://x.test/a).");
    expect(htmlToMarkdown('See <A HREF="https://x.test/a (b)" target="_blank"><b>[docs]</b></A>')).toBe("See [\\[docs\\]](https://x.test/a%20%28b%29)");
    expect(htmlToMarkdown("<a href=https://x.test>https://x.test</a>")).toBe("[https://x.test](https://x.test)");
    expect(htmlToMarkdown("<a href='https://x.test'></a>")).toBe("[https://x.test](https://x.test)");
    expect(htmlToMarkdown("<a href='javascript:alert(1)'>click</a>")).toBe("click");
    expect(htmlToMarkdown("<p>One<br/>Two</p> &lt;3 &amp;amp; 1 < 2")).toBe("One\nTwo <3 &amp; 1 < 2");
  });
});
