// The six config parsers on their own (text in, text out): Wings' semantics where eggs rely on
// them, and values that try to add structure staying values.
import { describe, expect, test } from "bun:test";
import { parse } from "dot-properties";
import { rewriteConfig, ConfigFormatError } from "./index";
import { iniPath } from "./ini";
import { resolvePlaceholders, type PlaceholderFacts } from "./placeholders";

describe("properties", () => {
  test("sets existing keys in place, adds missing ones, keeps comments and other lines", () => {
    const before = "#Minecraft server properties\n#date\nserver-port=25565\n# kept\nmotd : A server\nlong=a\\\n  b\n";
    const after = rewriteConfig("properties", before, [
      { match: "server-port", value: "25600" },
      { match: "motd", value: "Hi" },
      { match: "query.port", value: "25600" },
    ]);
    expect(after).toBe("#Minecraft server properties\n#date\nserver-port=25600\n# kept\nmotd=Hi\nlong=a\\\n  b\nquery.port=25600\n");
  });

  test("a value's line break, separator or comment sign is escaped: it never adds a key", () => {
    const after = rewriteConfig("properties", "motd=x\n", [{ match: "motd", value: "a\nop-permission-level=4\r\n#=!:é" }]);
    expect(after).toBe("motd=a\\nop-permission-level=4\\r\\n#=!:\\u00e9\n");
    expect(parse(after)).toEqual({ motd: "a\nop-permission-level=4\r\n#=!:é" });
  });

  test("ifValue: only a key that has exactly that value changes", () => {
    const before = "a=1\nb=2\n";
    expect(rewriteConfig("properties", before, [{ match: "a", value: "9", ifValue: "1" }, { match: "b", value: "9", ifValue: "1" }, { match: "c", value: "9", ifValue: "1" }])).toBe("a=9\nb=2\n");
  });

  test("a missing file starts empty", () => {
    expect(rewriteConfig("properties", "", [{ match: "eula", value: "true" }])).toBe("eula=true\n");
  });
});

describe("yaml", () => {
  test("dotted paths, numbers as numbers, the wildcard over every child", () => {
    const before = "listeners:\n  - host: 0.0.0.0:25577\n    query_port: 25577\nservers:\n  lobby:\n    address: localhost:25565\n  game:\n    address: 10.0.0.5:25566\n";
    const after = rewriteConfig("yaml", before, [
      { match: "listeners[0].query_port", value: "25600" },
      { match: "listeners[0].host", value: "0.0.0.0:25600" },
      { match: "servers.*.motd", value: "hello" },
      { match: "settings.bungee", value: "true" },
    ]);
    expect(Bun.YAML.parse(after)).toEqual({
      listeners: [{ host: "0.0.0.0:25600", query_port: 25600 }],
      servers: { lobby: { address: "localhost:25565", motd: "hello" }, game: { address: "10.0.0.5:25566", motd: "hello" } },
      settings: { bungee: "true" },
    });
  });

  test("ifValue with regex: rewrites only the values it matches, with groups (BungeeCord's egg)", () => {
    const before = "servers:\n  lobby:\n    address: localhost:25565\n  remote:\n    address: 10.0.0.5:25566\n";
    const after = rewriteConfig("yaml", before, [{ match: "servers.*.address", ifValue: "regex:^(127\\.0\\.0\\.1|localhost)(:\\d{1,5})?$", value: "172.18.0.1$2" }]);
    expect(Bun.YAML.parse(after)).toEqual({ servers: { lobby: { address: "172.18.0.1:25565" }, remote: { address: "10.0.0.5:25566" } } });
  });

  test("edited where the values are: comments, quotes and other spellings stay; lists at their key's indentation; CRLF kept", () => {
    const before = "# BungeeCord\r\nlisteners:\r\n- query_port: 25577 # query\r\n  motd: '&1Another server'\r\n  host: 0.0.0.0:25577\r\nservers:\r\n  lobby:\r\n    address: localhost:25565\r\nmode: 0777\r\n";
    const after = rewriteConfig("yaml", before, [
      { match: "listeners[0].query_port", value: "25600" },
      { match: "listeners[0].motd", value: "it's on" },
      { match: "servers.*.address", ifValue: "regex:^(127\\.0\\.0\\.1|localhost)(:\\d{1,5})?$", value: "172.18.0.1$2" },
    ]);
    expect(after).toBe("# BungeeCord\r\nlisteners:\r\n- query_port: 25600 # query\r\n  motd: 'it''s on'\r\n  host: 0.0.0.0:25577\r\nservers:\r\n  lobby:\r\n    address: 172.18.0.1:25565\r\nmode: 0777\r\n");
  });

  test("a key that was not there: the document is written anew, a new string that reads as a number quoted", () => {
    const after = rewriteConfig("yaml", "# gone\na: 1\n", [{ match: "b.c", value: "0777" }, { match: "d", value: "25" }]);
    expect(after).not.toContain("# gone");
    expect(Bun.YAML.parse(after)).toEqual({ a: 1, b: { c: "0777" }, d: 25 });
  });

  test("ifValue as text: only an equal value changes", () => {
    const after = rewriteConfig("yaml", "a:\n  x: 127.0.0.1\n  y: 10.0.0.1\n", [{ match: "a.*", value: "ignored", ifValue: "z" }].slice(1).concat([
      { match: "a.x", value: "1.2.3.4", ifValue: "127.0.0.1" },
      { match: "a.y", value: "1.2.3.4", ifValue: "127.0.0.1" },
    ]));
    expect(Bun.YAML.parse(after)).toEqual({ a: { x: "1.2.3.4", y: "10.0.0.1" } });
  });

  test("a value full of YAML stays one string", () => {
    const value = "x\nop: true\n- [a, {b: c}] # &anchor *alias !!python/object";
    const after = rewriteConfig("yaml", "motd: hi\n", [{ match: "motd", value }]);
    expect(Bun.YAML.parse(after)).toEqual({ motd: value });
  });

  test("a file that is not YAML, or not a mapping, is a format error (left as it is)", () => {
    expect(() => rewriteConfig("yaml", "a: [1,\n", [{ match: "a", value: "1" }])).toThrow(ConfigFormatError);
    expect(() => rewriteConfig("yaml", "just text\n", [{ match: "a", value: "1" }])).toThrow(ConfigFormatError);
  });

  test("aliases stay aliases and a cycle stays a cycle: no file grows by being rewritten", () => {
    const bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d {self: *d}\n";
    const after = rewriteConfig("yaml", bomb, [{ match: "d.self.port", value: "1" }]);
    expect(after.length).toBeLessThan(bomb.length * 3);
    expect((Bun.YAML.parse(after) as { d: { port: number } }).d.port).toBe(1);
  });

  test("a path through a plain value, or naming __proto__, is refused", () => {
    expect(() => rewriteConfig("yaml", "a: 1\n", [{ match: "a.b", value: "1" }])).toThrow(ConfigFormatError);
    expect(() => rewriteConfig("yaml", "a: {}\n", [{ match: "__proto__.polluted", value: "1" }])).toThrow(ConfigFormatError);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("json", () => {
  test("paths, array indexes, creation of missing objects; written with four spaces", () => {
    const after = rewriteConfig("json", '{"server": {"port": 1, "tags": ["a", "b"]}}', [
      { match: "server.port", value: "27015" },
      { match: "server.tags.1", value: "c" },
      { match: "rcon.password", value: 'p"w\\' },
    ]);
    expect(after).toBe(`${JSON.stringify({ server: { port: 27015, tags: ["a", "c"] }, rcon: { password: 'p"w\\' } }, null, 4)}\n`);
  });

  test("a value with quotes and braces stays a string", () => {
    const value = '", "admin": true, "x": "';
    expect(JSON.parse(rewriteConfig("json", "{}", [{ match: "name", value }]))).toEqual({ name: value });
  });

  test("an empty file is an empty object; broken JSON is a format error", () => {
    expect(JSON.parse(rewriteConfig("json", "", [{ match: "a", value: "b" }]))).toEqual({ a: "b" });
    expect(() => rewriteConfig("json", "{", [{ match: "a", value: "b" }])).toThrow(ConfigFormatError);
  });
});

describe("ini", () => {
  test("Wings' split: the first dot names the section, brackets keep dots in it", () => {
    expect(iniPath("Server.Ports")).toEqual(["Server", "Ports"]);
    expect(iniPath("server.services.test.token")).toEqual(["server", "services.test.token"]);
    expect(iniPath("[/Script/Astro.AstroServerSettings].PublicIP")).toEqual(["/Script/Astro.AstroServerSettings", "PublicIP"]);
    expect(iniPath("[SystemSettings].net.AllowEncryption")).toEqual(["SystemSettings", "net.AllowEncryption"]);
    expect(iniPath("TopLevel")).toEqual(["TopLevel"]);
  });

  test("sets keys in their section keeping spacing and comments; adds missing keys and sections", () => {
    const before = "; settings\ntop=1\n\n[Server]\nPorts = 7777\n; a comment\nName=old\n\n[Other]\nx=1\n";
    const after = rewriteConfig("ini", before, [
      { match: "Server.Ports", value: "7800" },
      { match: "Server.Description", value: "A server" },
      { match: "top", value: "2" },
      { match: "New.key", value: "v" },
    ]);
    expect(after).toBe("; settings\ntop=2\n\n[Server]\nPorts = 7800\n; a comment\nName=old\nDescription = A server\n\n[Other]\nx=1\n\n[New]\nkey = v\n");
  });

  test("CRLF files stay CRLF", () => {
    expect(rewriteConfig("ini", "[a]\r\nb=1\r\n", [{ match: "a.b", value: "2" }])).toBe("[a]\r\nb=2\r\n");
  });

  test("a value with a line break is refused: it could start a section", () => {
    expect(() => rewriteConfig("ini", "[a]\nb=1\n", [{ match: "a.b", value: "x\n[admin]\npassword=" }])).toThrow(/line break/);
  });
});

describe("xml", () => {
  test("sets element text and attributes by path, makes missing elements, keeps the rest", () => {
    const before = '<?xml version="1.0"?>\n<!-- config -->\n<Settings>\n  <Port>1</Port>\n  <Name>old<Extra/></Name>\n</Settings>\n';
    const after = rewriteConfig("xml", before, [
      { match: "Settings.Port", value: "27016" },
      { match: "Settings.Name", value: "new" },
      { match: "Settings.Network.Ip", value: "0.0.0.0" },
      { match: "Settings.Port", value: "yes", attribute: "enabled" },
    ]);
    expect(after).toBe('<?xml version="1.0"?>\n<!-- config -->\n<Settings>\n  <Port enabled="yes">27016</Port>\n  <Name>new<Extra/></Name>\n<Network><Ip>0.0.0.0</Ip></Network></Settings>\n');
  });

  test("wildcards set every match and make nothing", () => {
    const after = rewriteConfig("xml", "<r><s><p>1</p></s><t><p>2</p></t></r>", [{ match: "r.*.p", value: "9" }, { match: "r.*.q", value: "9" }]);
    expect(after).toBe("<r><s><p>9</p></s><t><p>9</p></t></r>\n");
  });

  test("a value with markup is text", () => {
    const after = rewriteConfig("xml", "<r><n>a</n></r>", [{ match: "r.n", value: "</n><admin>1</admin><n>" }, { match: "r.n", attribute: "x", value: `"/><evil a="` }]);
    expect(after).toBe('<r><n x="&quot;/&gt;&lt;evil a=&quot;">&lt;/n&gt;&lt;admin&gt;1&lt;/admin&gt;&lt;n&gt;</n></r>\n');
  });

  test("an empty file gets a declaration and the root; broken XML is a format error", () => {
    expect(rewriteConfig("xml", "", [{ match: "Config.Port", value: "1" }])).toBe('<?xml version="1.0" encoding="utf-8"?><Config><Port>1</Port></Config>\n');
    expect(() => rewriteConfig("xml", "<a><b></a>", [{ match: "a.b", value: "1" }])).toThrow(ConfigFormatError);
  });

  test("entities are not expanded (a billion laughs is a broken file, refused at once)", () => {
    const levels = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join("");
    const started = Date.now();
    expect(() => rewriteConfig("xml", `<!DOCTYPE x [<!ENTITY l0 "lol">${levels}]><x>&l9;</x>`, [{ match: "x", value: "1" }])).toThrow(ConfigFormatError);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  test("an entity naming a file of the node is not read: the file is refused as broken", () => {
    expect(() => rewriteConfig("xml", '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>', [{ match: "x", value: "1" }])).toThrow(ConfigFormatError);
  });
});

describe("file", () => {
  test("a line starting with a match is replaced whole; line ends and other lines stay", () => {
    const before = "# port = 1\r\n  port = 1\r\nname = x\nbind = 0.0.0.0:1";
    const after = rewriteConfig("file", before, [
      { match: "  port", value: "  port = 2" },
      { match: "bind = ", value: 'bind = "0.0.0.0:2"' },
    ]);
    expect(after).toBe('# port = 1\r\n  port = 2\r\nname = x\nbind = "0.0.0.0:2"');
  });

  test("the first matching entry wins", () => {
    expect(rewriteConfig("file", "password = x\n", [{ match: "password", value: "a" }, { match: "password =", value: "b" }])).toBe("a\n");
  });
});

describe("placeholders", () => {
  const facts: PlaceholderFacts = {
    values: { port: "25565", motd: "{{env.SECRET}} ${SECRET}", SECRET: "hunter2", "server-name": "x" },
    facts: { port: "25565", ip: "0.0.0.0", memory: "2048", uuid: "abc" },
    dockerInterface: "172.17.0.1",
  };

  test("the egg forms and Kiln's ${name} resolve in one pass", () => {
    expect(resolvePlaceholders("{{server.build.default.port}} {{server.allocations.default.port}} {{server.build.default.ip}} {{server.build.memory}}", facts)).toBe("25565 25565 0.0.0.0 2048");
    expect(resolvePlaceholders("{{env.SECRET}}|{{server.build.env.SECRET}}|{{server.environment.SECRET}}|{{ env.SECRET }}|${SECRET}", facts)).toBe("hunter2|hunter2|hunter2|hunter2|hunter2");
    expect(resolvePlaceholders("{{config.docker.interface}} {{server.uuid}}", facts)).toBe("172.17.0.1 abc");
  });

  test("a value holding placeholders is written as those characters, never resolved again", () => {
    expect(resolvePlaceholders("${motd}", facts)).toBe("{{env.SECRET}} ${SECRET}");
    expect(resolvePlaceholders("{{env.motd}}", facts)).toBe("{{env.SECRET}} ${SECRET}");
  });

  test("an unknown variable is empty (as Pelican); an unknown server or config key is an error; other {{…}} stay", () => {
    expect(resolvePlaceholders("[{{env.NOPE}}]", facts)).toBe("[]");
    expect(() => resolvePlaceholders("{{server.build.swap}}", facts)).toThrow(/does not know/);
    expect(() => resolvePlaceholders("{{config.system.data}}", facts)).toThrow(/does not know/);
    expect(resolvePlaceholders("{{SERVER_PORT}} ${unknown}", facts)).toBe("{{SERVER_PORT}} ${unknown}");
  });
});
