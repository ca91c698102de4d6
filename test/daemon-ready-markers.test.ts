// Ready markers on a real node: a server whose template names one is "starting"
// (running, with starting: true) until a console line holds it; a start that waits, a restart
// and a task's next operation wait for it; a process that ends first ends the wait; a booting
// server can be stopped.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { startTestNode, echoTemplate, eventually, type TestNode } from "./helpers/node";

let t: TestNode;
beforeAll(async () => void (t = await startTestNode({ stopTimeoutMs: 2000 })));
afterAll(() => t.stop());

/** Prints the marker one second after it starts, then echoes its input. */
const booting = (markers: string[], ready = "echo '[Server] Done (1.0s)!'") =>
  echoTemplate({ command: `sh -c 'echo booting; sleep 1; ${ready.replace(/'/g, "'\\''")}; while read l; do echo "got $l"; [ "$l" = quit ] && exit 0; done'`, readyMarkers: markers });

const status = (id: string) => t.json("GET", `/daemon/server/${id}/status`);
const consoleText = async (id: string) => ((await t.json("GET", `/daemon/server/${id}/console`)).logs as string[]).join("");

describe("ready markers", () => {
  test("starting until the marker; a start that waits returns once it appeared", async () => {
    await t.json("PUT", "/daemon/server/rm1", booting(["regex:Done \\(\\d+\\.\\d+s\\)!"]));
    const started = t.call("POST", "/daemon/server/rm1/start?wait=true");
    await eventually(async () => (await status("rm1")).starting === true && (await status("rm1")).running === true, 5000, "booting");
    expect((await started).status).toBe(204);
    expect(await consoleText("rm1")).toContain("[Server] Done (1.0s)!");
    expect(await status("rm1")).toEqual({ running: true, installing: false });
    expect((await t.call("POST", "/daemon/server/rm1/stop?wait=true")).status).toBe(204);
  });

  test("a restart waits for the marker too", async () => {
    await t.json("POST", "/daemon/server/rm1/start?wait=true");
    expect((await t.call("POST", "/daemon/server/rm1/restart?wait=true")).status).toBe(204);
    expect(await status("rm1")).toEqual({ running: true, installing: false });
    expect((await consoleText("rm1")).split("Done (1.0s)!").length - 1).toBe(3);
    await t.call("POST", "/daemon/server/rm1/stop?wait=true");
  });

  test("a task's command after its start goes to a ready server", async () => {
    const created = await t.call("POST", "/daemon/server/rm1/tasks", { name: "boot", cronSchedule: null, operations: [{ type: "start" }, { type: "console", command: "after-ready" }] });
    const { id } = await created.json();
    expect((await t.call("POST", `/daemon/server/rm1/tasks/${id}/run?wait=true`)).status).toBeLessThan(300);
    await eventually(async () => (await consoleText("rm1")).includes("got after-ready"), 5000, "the command's echo");
    const text = await consoleText("rm1");
    expect(text.lastIndexOf("Done (1.0s)!")).toBeLessThan(text.lastIndexOf("got after-ready"));
    await t.call("POST", "/daemon/server/rm1/stop?wait=true");
  });

  test("a process that ends before its marker ends the wait: stopped, not starting", async () => {
    await t.json("PUT", "/daemon/server/rm2", echoTemplate({ command: "sh -c 'echo no marker here; exit 3'", readyMarkers: ["never printed"] }));
    expect((await t.call("POST", "/daemon/server/rm2/start?wait=true")).status).toBe(204);
    // Exit code 3 is a crash: its cause (none the table knows) joins the status once the node has
    // read what the process left, just after the exit.
    await eventually(async () => { const now = await status("rm2"); return !now.running && "crash" in now; }, 5000, "the exit and its cause");
    expect(await status("rm2")).toEqual({ running: false, installing: false, crash: expect.objectContaining({ cause: "unrecognised", phase: "run" }) });
  });

  test("a booting server can be stopped", async () => {
    await t.json("PUT", "/daemon/server/rm3", booting(["never printed"]));
    void t.call("POST", "/daemon/server/rm3/start");
    await eventually(async () => (await status("rm3")).starting === true && (await status("rm3")).running, 5000, "booting");
    expect((await t.call("POST", "/daemon/server/rm3/stop?wait=true")).status).toBe(204);
    expect(await status("rm3")).toEqual({ running: false, installing: false });
  });
});
