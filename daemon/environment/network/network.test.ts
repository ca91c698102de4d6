// The address plan, the ports a server's variables name and the rules' text (pure); the rules
// themselves are attacked on a real node in test/security/server-network.test.ts.
import { describe, expect, test } from "bun:test";
import { linkOf, parseRange, SLOT_COUNT } from "./addresses";
import { consoleTable, nodeTable, publishPorts } from "./ruleset";
import { isPortVariable, serverPorts } from "../../../core/definition/server-ports";

describe("addresses", () => {
  test("a /16 only; each slot a /30 with the node's end first; the last /24 left alone", () => {
    expect(parseRange("10.213.0.0/16")).toEqual([10, 213]);
    for (const bad of ["10.213.1.0/16", "10.213.0.0/24", "300.1.0.0/16", "nonsense"]) expect(parseRange(bad)).toBeNull();
    expect(linkOf([10, 213], 0)).toEqual({ slot: 0, host: "10.213.0.1", server: "10.213.0.2", interface: "kiln0" });
    expect(linkOf([10, 213], 65)).toEqual({ slot: 65, host: "10.213.1.5", server: "10.213.1.6", interface: "kiln65" });
    expect(linkOf([10, 213], SLOT_COUNT - 1).server).toBe("10.213.254.254");
    expect(() => linkOf([10, 213], SLOT_COUNT)).toThrow(RangeError);
    // Interface names stay within the kernel's 15 characters.
    expect(linkOf([10, 213], SLOT_COUNT - 1).interface.length).toBeLessThanOrEqual(15);
  });
});

test("a server's ports are the port numbers its port variables (named *port or *portv6) hold, for TCP and UDP", () => {
  expect(serverPorts({ port: 25565, queryPort: "27015", RCON_PORT: "25575", portal: "not a port", export: 99999, name: 1234, SERVER_PORT: "0" })).toEqual({ tcp: [25565, 25575, 27015], udp: [25565, 25575, 27015] });
  expect(serverPorts({ portv6: 19133, "server-portv6": "19135", SERVER_PORTV6: "19137" })).toEqual({ tcp: [19133, 19135, 19137], udp: [19133, 19135, 19137] });
  // A name that merely holds "port", or whose last word only ends so, is no port variable: its number publishes nothing.
  expect(serverPorts({ UPLOAD_CRASH_REPORT: 1, crashReport: "2", MISC_SUPPORT: 3, reportInterval: "60", portv4x: 70, PORTFORWARD_ENABLE: 1, ports: 80 })).toEqual({ tcp: [], udp: [] });
  expect(serverPorts({})).toEqual({ tcp: [], udp: [] });
});

test("port variables: the names templates and eggs give their ports, and not the words that only end in port", () => {
  const ports = ["port", "Port", "queryPort", "rconPort", "RConPort", "RCONPort", "SERVER_PORT", "QUERY_PORT", "server-port", "query_port", "queryport", "tvport", "clientport", "qport", "vport", "serverstatsport", "SRCDS_CPORT", "SERVER_WEBPORT", "RCPORT", "CUBEPORT", "portv6", "server-portv6", "SERVER_PORTV6"];
  const others = ["UPLOAD_CRASH_REPORT", "crashReport", "report", "MISC_SUPPORT", "autoExport", "IMPORT", "TRANSPORT", "reportInterval", "PORTFORWARD_ENABLE", "ports", "portal", "v6", ""];
  expect(ports.filter((name) => !isPortVariable(name))).toEqual([]);
  expect(others.filter((name) => isPortVariable(name))).toEqual([]);
});

describe("rules", () => {
  test("the node's table refuses what a server opens to the node and to other servers' addresses", () => {
    const table = nodeTable("kiln-1-0", "test");
    expect(table).toContain('iifname "kiln*" reject with icmpx admin-prohibited');
    expect(table).toContain('oifname "kiln*" reject with icmpx admin-prohibited');
    expect(table).toContain("fib daddr type local dnat ip to meta l4proto . th dport map @ports");
    expect(table.startsWith("add table inet kiln-1-0\ndelete table inet kiln-1-0\n")).toBe(true);
  });

  test("no server reaches a cloud's metadata service: link-local, Alibaba's, AWS's IPv6 one; Azure's wire server only for DNS", () => {
    const forward = nodeTable("kiln-1-0", "test").split("chain forward")[1]!;
    expect(forward).toContain('iifname "kiln*" ip daddr { 169.254.0.0/16, 100.100.100.200 } reject');
    expect(forward).toContain('iifname "kiln*" ip6 daddr { fe80::/10, fd00:ec2::254 } reject');
    expect(forward).toContain('iifname "kiln*" ip daddr 168.63.129.16 meta l4proto { tcp, udp } th dport != 53 reject');
    // Before the rules that let answers and published ports through.
    expect(forward.indexOf("169.254.0.0/16")).toBeLessThan(forward.indexOf("ct state established,related accept"));
  });

  test("publishing swaps the server's ports in one transaction; the console rule names the node's end only", () => {
    expect(publishPorts("t", { tcp: [1], udp: [1] }, { tcp: [2], udp: [] }, "10.0.0.2")).toBe("delete element inet t ports { tcp . 1, udp . 1 }\nadd element inet t ports { tcp . 2 : 10.0.0.2 }\n");
    expect(consoleTable("10.0.0.1", "10.0.0.2", [8303])).toContain('iifname "eth0" ip saddr 10.0.0.1 ip daddr 10.0.0.2 tcp dport { 8303 } dnat to 127.0.0.1');
    expect(consoleTable("10.0.0.1", "10.0.0.2", [])).not.toContain("dnat");
  });
});
