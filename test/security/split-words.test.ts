// Attack: a variable that holds several arguments (splitWords, PufferPanel's "JVM arguments") as a
// way to run a command, a redirect or program text on the node. Its value becomes several words
// of the command line; the attacker holds what the server's owner holds (they set the value) and
// tries shell syntax, a second command, a `$(…)`, and words that land where a shell reads its
// script. Each word must reach the real process as data, and a value that would be program text
// must be refused (ErrValueIsCode) with nothing run; so must a line where an empty word left out
// moves a value into a shell's script.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { eventually, startTestNode, type TestNode } from "../helpers/node";

let node: TestNode;
const MARKERS = ["pwned", "pwned2", "pwned3", "out"];
const markersLeft = (id: string) => MARKERS.filter((m) => existsSync(node.folder(id, m)));

beforeAll(async () => {
  node = await startTestNode();
});
afterAll(() => node.stop());

/** A server that prints each argument it gets on its own line, between brackets. */
async function server(id: string, command: string, data: Record<string, unknown>): Promise<void> {
  const definition = {
    name: id,
    display: id,
    type: "other",
    install: [{ type: "writefile", target: "args.sh", text: 'for a in "$@"; do echo "[$a]"; done\necho args-done\n' }],
    run: { command, stop: "" },
    data,
    environment: { type: "standard" },
  };
  expect((await node.call("PUT", `/daemon/server/${id}`, definition)).status).toBeLessThan(300);
  expect((await node.call("POST", `/daemon/server/${id}/install?wait=true`)).status).toBe(204);
}

const consoleText = async (id: string) => (await node.json("GET", `/daemon/server/${id}/console?time=0`)).logs.join("") as string;

async function run(id: string): Promise<string> {
  const before = (await consoleText(id)).length;
  const started = await node.call("POST", `/daemon/server/${id}/start?wait=true`);
  expect(started.status).toBe(204);
  await eventually(async () => (await consoleText(id)).slice(before).includes("args-done"), 15_000, "the arguments printed");
  return (await consoleText(id)).slice(before);
}

const printed = (text: string) => [...text.matchAll(/^\[(.*)\]$/gm)].map((m) => m[1]);

describe("a value split into words", () => {
  const jvmArgs = (value: string) => ({ jvmArgs: { display: "JVM Arguments", type: "string", value, required: false, userEdit: true, splitWords: true } });

  test("reaches the process as several arguments, each exactly its text: no shell, no second command, no redirect", async () => {
    await server("split1", "sh args.sh -Xmx1G ${jvmArgs} -jar server.jar", jvmArgs("-XX:+UseG1GC -XX:+AlwaysPreTouch"));
    expect(printed(await run("split1"))).toEqual(["-Xmx1G", "-XX:+UseG1GC", "-XX:+AlwaysPreTouch", "-jar", "server.jar"]);

    const hostile = `-Dmotd="a b" $(touch pwned) \`touch pwned2\` ; touch pwned3 > out && echo no | tee out '\${HOME}'`;
    expect((await node.call("POST", "/daemon/server/split1/data", { data: { jvmArgs: hostile } })).status).toBe(204);
    expect(printed(await run("split1"))).toEqual(["-Xmx1G", "-Dmotd=a b", "$(touch", "pwned)", "`touch", "pwned2`", ";", "touch", "pwned3", ">", "out", "&&", "echo", "no", "|", "tee", "out", "${HOME}", "-jar", "server.jar"]);
    expect(markersLeft("split1")).toEqual([]);
  }, 60_000);

  test("a value whose words would be a shell's script is refused with ErrValueIsCode, and nothing runs", async () => {
    await server("split2", "sh ${jvmArgs}", jvmArgs("-c 'touch pwned'"));
    const refused = await node.call("POST", "/daemon/server/split2/start?wait=true");
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: "ErrValueIsCode", metadata: { field: "run.command", variable: "jvmArgs" } });
    await Bun.sleep(300);
    expect(markersLeft("split2")).toEqual([]);
    expect((await node.json("GET", "/daemon/server/split2/status")).running).toBe(false);
  }, 60_000);

  test("a value whose quotes do not close is refused when it is set, naming the variable", async () => {
    await server("split3", "sh args.sh ${jvmArgs}", jvmArgs("-a"));
    const refused = await node.call("POST", "/daemon/server/split3/data", { data: { jvmArgs: `-Dname="open` } });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({ code: "ErrFieldPatternMismatch", metadata: { field: "jvmArgs" } });
  }, 60_000);
});

test("an empty word left out cannot move a value into a shell's script", async () => {
  const text = (value: string) => ({ display: "", type: "string", value, required: false, userEdit: true });
  await server("shift", "sh ${flag} -c ${script}", { flag: text(""), script: text("touch pwned") });
  const refused = await node.call("POST", "/daemon/server/shift/start?wait=true");
  expect((await refused.json()).error?.code).toBe("ErrValueIsCode");
  await Bun.sleep(300);
  expect(markersLeft("shift")).toEqual([]);
}, 60_000);
