// A real game with a telnet console: Debian's Teeworlds server, its external console (econ) on
// the loopback, as the node runs it. Its econ mirrors the server's log and ends every line with
// two NULs; the console must show each line once, no NULs or blank lines, and the node's own lines
// with their chip. A stop goes as the econ's "shutdown"; when the econ cannot be reached, the
// stop signals the game at once instead of waiting for the stop timeout.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { DAEMON_MARKER } from "../core/live";
import { decodeDaemonLine } from "../core/live/daemon-message";
import { renderLine } from "../islands/lib/console-lines";
import { translatorFor } from "../locales/tables";
import { partAvailable } from "./helpers/require-part";
import { eventually, startTestNode, type TestNode } from "./helpers/node";
import { freePort } from "./helpers/process";

const TEEWORLDS = "/usr/games/teeworlds-server";
const hasTeeworlds = partAvailable("Teeworlds server (Debian's teeworlds-server)", () => existsSync(TEEWORLDS));

/** The Teeworlds template as a host would write it: settings in autoexec.cfg, the econ as the console. */
export function teeworldsTemplate(econPort: string) {
  return {
    display: "Teeworlds",
    install: [{ type: "writefile", target: "autoexec.cfg", text: 'sv_name "Kiln"\nsv_port ${port}\nec_port ${econPort}\nec_password "${econPassword}"\nec_bindaddr 127.0.0.1\nec_output_level 1\n' }],
    run: { command: TEEWORLDS, stop: "shutdown", stdin: { type: "telnet", ip: "127.0.0.1", port: "${econPort}", password: "${econPassword}" } },
    data: {
      port: { type: "integer", value: 8303, userEdit: true },
      econPort: { type: "integer", value: Number(econPort), userEdit: false },
      econPassword: { type: "string", value: "sesame", userEdit: true },
    },
    environment: { type: "standard" },
  };
}

let node: TestNode;
const consoleText = async (id: string) => ((await node.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");
const count = (text: string, needle: string) => text.split(needle).length - 1;

beforeAll(async () => {
  // A stop that waited for its timeout would take a minute: the test's own timeouts catch it.
  node = await startTestNode({ stopTimeoutMs: 60_000 });
});
afterAll(() => node.stop());

describe.if(hasTeeworlds)("Teeworlds through its econ", () => {
  test("each line once, no NULs or blank lines, the node's lines with their chip; shutdown stops it", async () => {
    const [port, econ] = [await freePort(), await freePort()];
    const template = teeworldsTemplate(String(econ));
    template.data.port.value = port;
    await node.json("PUT", "/daemon/server/tw", template);
    await node.json("POST", "/daemon/server/tw/install?wait=true");
    await node.json("POST", "/daemon/server/tw/start?wait=true");
    await eventually(async () => (await consoleText("tw")).includes("connected to the telnet console"), 20_000, "the econ connection");
    // Said where the template puts it, whichever way the node reaches it.
    expect(await consoleText("tw")).toContain(`connected to the telnet console at 127.0.0.1:${econ}`);
    await node.call("POST", "/daemon/server/tw/console", "say hello from kiln");
    await eventually(async () => (await consoleText("tw")).includes("*** hello from kiln"), 10_000, "the chat line");
    // Long enough for a console copy held back for its twin to have shown.
    await Bun.sleep(1500);
    const text = await consoleText("tw");
    expect(count(text, "*** hello from kiln")).toBe(1);
    expect(count(text, "cmd='say hello from kiln'")).toBe(1);
    expect(text).not.toContain("\0");
    expect(text).not.toMatch(/\n\n/);
    const english = translatorFor("en_US");
    for (const line of text.split("\n").filter((l) => l.startsWith(DAEMON_MARKER))) {
      expect({ line, chip: renderLine(line, english).includes("console-chip") }).toEqual({ line, chip: decodeDaemonLine(line).message !== undefined });
    }
    const started = Date.now();
    await node.json("POST", "/daemon/server/tw/stop?wait=true");
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(await consoleText("tw")).toContain("the server exited with code 0");
  }, 60_000);

  test("a stop whose econ cannot be reached signals the game at once", async () => {
    const [port, econ, elsewhere] = [await freePort(), await freePort(), await freePort()];
    const template = teeworldsTemplate(String(econ));
    template.data.port.value = port;
    // The console points at a port nothing listens on.
    template.run.stdin.port = String(elsewhere);
    await node.json("PUT", "/daemon/server/tw2", template);
    await node.json("POST", "/daemon/server/tw2/install?wait=true");
    await node.json("POST", "/daemon/server/tw2/start?wait=true");
    await eventually(async () => (await consoleText("tw2")).includes("[econ]: bound to"), 20_000, "the game's start");
    const started = Date.now();
    await node.json("POST", "/daemon/server/tw2/stop?wait=true");
    expect(Date.now() - started).toBeLessThan(10_000);
    const text = await consoleText("tw2");
    expect(text).toContain("the network console is not connected, so the stop command cannot be sent; sending SIGTERM instead");
    expect(text).not.toContain("did not stop within");
  }, 60_000);
});
