// Attack: while an administrator moves a server to another node, a user of the server (or its
// task, or the socket, or SFTP) changes its files or its settings on the source node. The target
// copied the folder and the definition when the move began; the switch goes on with those copies
// and the source's folder is removed: the change was answered as done and lost. Now a server whose
// folder is offered for a move is held: every call that would change its folder or its definition
// is refused (ErrTransferInProgress) at every door; the offer ends uploads under way (all or
// nothing: a trickled one held every move off) and waits for other changes already under way to
// end, or is taken back (ErrServerBusy) so nothing is copied half way.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isPartialName } from "../../daemon/files/partial-file";
import { NODE_OPERATIONS, operationChangesState, type NodeOperation } from "../../core/contract";
import { echoTemplate, eventually, startTestNode, type TestNode } from "../helpers/node";
import { openSftp, sftpServerForFile, type SftpServer } from "../helpers/sftp";
import { tempDir } from "../helpers/process";

const code = async (answer: Response) => {
  const text = await answer.text();
  return text ? (JSON.parse(text).error?.code ?? null) : null;
};

describe("a server offered for a move, on its node", () => {
  let node: TestNode;
  const ID = "held";
  const offer = async () => expect((await node.call("POST", `/daemon/server/${ID}/transfer/offer`)).status).toBe(200);
  const revoke = async () => expect((await node.call("DELETE", `/daemon/server/${ID}/transfer/offer`)).status).toBe(204);
  const file = (name: string) => node.folder(ID, name);
  /** An upload through the file API, as the file manager sends one. */
  const put = (name: string, text: string) => {
    const form = new FormData();
    form.append("file", new Blob([text]), "f");
    return node.fetch(`${node.node.url}/daemon/server/${ID}/file/${name}`, { method: "PUT", body: form });
  };

  beforeAll(async () => {
    node = await startTestNode({ stopTimeoutMs: 2000 });
    expect((await node.call("PUT", `/daemon/server/${ID}`, echoTemplate())).status).toBe(201);
  }, 30_000);
  afterAll(() => node?.stop());

  test("every call that changes the server is refused, unless the move itself needs it; nothing changes", async () => {
    expect((await put("keep.txt", "before")).status).toBe(200);
    const definition = await node.json("GET", `/daemon/server/${ID}`);
    await offer();
    const changing = (Object.entries(NODE_OPERATIONS) as [string, NodeOperation][]).filter(([, op]) => op.path.startsWith("/daemon/server/:id") && operationChangesState(op) && !op.whileMoving);
    // The file calls and the settings the issue names, at least, are among them.
    for (const name of ["putFile", "deleteFile", "move", "copy", "mode", "archive", "extract", "setData", "replaceDefinition", "createTask", "restoreBackup", "modsChange", "setBackupIgnore", "addPlayer", "start", "install"]) expect(changing.map(([n]) => n)).toContain(name);
    const bodies: Record<string, unknown> = { move: { from: "keep.txt", to: "moved.txt" }, copy: { from: "keep.txt", to: "copy.txt" }, mode: { path: "keep.txt", mode: "777" }, setData: { data: { greeting: "changed" } }, replaceDefinition: { ...definition, data: { greeting: { ...definition.data.greeting, value: "changed" } } }, archive: ["keep.txt"], createTask: { name: "t", cronSchedule: null, operations: [] } };
    for (const [name, op] of changing) {
      const path = op.path.replace(":id", ID).replace(/:[A-Za-z]+/g, "x").replace("*", "keep.txt");
      const answer = await node.call(op.method, path, op.method === "GET" ? undefined : (bodies[name] ?? {}));
      expect([name, answer.status, await code(answer)]).toEqual([name, 409, "ErrTransferInProgress"]);
    }
    expect(readFileSync(file("keep.txt"), "utf8")).toBe("before");
    for (const made of ["moved.txt", "copy.txt", "keep.txt.zip"]) expect(existsSync(file(made))).toBe(false);
    expect((await node.json("GET", `/daemon/server/${ID}/data`)).data.greeting.value ?? (await node.json("GET", `/daemon/server/${ID}/data`)).data.greeting).not.toBe("changed");
    expect((await node.json("GET", `/daemon/server/${ID}/tasks`)).tasks).toEqual({});
    // What the move asks of the source still works: it stops the server, and revokes the offer.
    expect((await node.call("POST", `/daemon/server/${ID}/stop?wait=true`)).status).toBeLessThan(300);
    await revoke();
    expect((await put("keep.txt", "after the move")).status).toBe(200);
    expect(readFileSync(file("keep.txt"), "utf8")).toBe("after the move");
  }, 60_000);

  test("the socket's file changes and a task's file step are refused too", async () => {
    expect((await node.call("POST", `/daemon/server/${ID}/tasks`, { name: "on cue", cronSchedule: null, triggers: [{ type: "console", pattern: "got write now" }], operations: [{ type: "writefile", target: "from-task.txt", text: "written" }] })).status).toBe(201);
    expect((await node.call("POST", `/daemon/server/${ID}/start?wait=true`)).status).toBe(204);
    await offer();
    try {
      const socket = await node.socket(ID);
      socket.send("file", { action: "create", path: "/made-by-socket" });
      const refused = await socket.next((m) => m.error !== undefined);
      expect(refused.error.code).toBe("ErrTransferInProgress");
      socket.close();
      expect(existsSync(file("made-by-socket"))).toBe(false);
      // A console command reaches the running server (a live move copies its own writes again);
      // the task its line triggers may not write.
      expect((await node.call("POST", `/daemon/server/${ID}/console`, "write now")).status).toBe(204);
      const consoleText = async () => ((await node.json("GET", `/daemon/server/${ID}/console`)).logs as string[]).join("");
      await eventually(async () => (await consoleText()).includes('"type":"writefile","reason":{"key":"errors.ErrTransferInProgress"'), 5000, "the task's step to fail");
      expect(existsSync(file("from-task.txt"))).toBe(false);
    } finally {
      await revoke();
    }
    expect((await node.call("POST", `/daemon/server/${ID}/stop?wait=true`)).status).toBeLessThan(300);
  }, 60_000);

  test("an upload under way when the offer comes is ended, all or nothing, and the offer answers at once", async () => {
    const cut = slowUpload(node, `/daemon/server/${ID}/file/uploaded.txt`);
    await cut.started;
    const started = Date.now();
    expect((await node.call("POST", `/daemon/server/${ID}/transfer/offer`)).status).toBe(200);
    expect(Date.now() - started).toBeLessThan(3_000);
    const answer = await cut.answer;
    expect([answer.status, await code(answer)]).toEqual([409, "ErrTransferInProgress"]);
    cut.finish();
    // The target lists a folder with nothing of it: no file, no partial one.
    expect(existsSync(file("uploaded.txt"))).toBe(false);
    expect(readdirSync(node.folder(ID)).filter(isPartialName)).toEqual([]);
    await revoke();
    expect((await put("after.txt", "x")).status).toBe(200);
  }, 60_000);
});

describe("SFTP while the server is offered for a move", () => {
  let made: SftpServer | undefined;
  sftpServerForFile("sftp-held", "sftpheld", (m) => void (made = m));

  test("a session opened before the offer can no longer write, make or remove anything", async () => {
    if (!made) return;
    writeFileSync(join(made.root, "existing.txt"), "before");
    const local = join(tempDir("kiln-sftp-upload-"), "up.txt");
    writeFileSync(local, "uploaded");
    const session = await openSftp(made.rig.node.sftpPort, made.login);
    try {
      // The same session writes before the offer: what refuses below is the move's hold.
      session.send(`put ${local} before.txt`);
      await eventually(() => existsSync(join(made!.root, "before.txt")), 10_000, "the upload before the offer");
      expect((await made.rig.daemon.call("POST", `/daemon/server/${made.id}/transfer/offer`)).status).toBe(200);
      // "-": a batch goes on after a command fails.
      session.send(`-put ${local} up.txt`);
      session.send("-mkdir newdir");
      session.send("-rm existing.txt");
      session.send("pwd");
      await eventually(() => session.output().split("Remote working directory").length > 2, 10_000, "the commands to be answered");
      expect(session.output()).toContain('dest open "/up.txt": Permission denied');
      expect(session.output()).toContain('remote mkdir "/newdir": Permission denied');
      expect(existsSync(join(made.root, "up.txt"))).toBe(false);
      expect(existsSync(join(made.root, "newdir"))).toBe(false);
      expect(readFileSync(join(made.root, "existing.txt"), "utf8")).toBe("before");
    } finally {
      session.proc.kill();
      await made.rig.daemon.call("DELETE", `/daemon/server/${made.id}/transfer/offer`);
    }
  }, 60_000);
});

/** An upload whose body comes in two halves: the second when `finish` is called. */
function slowUpload(node: TestNode, path: string) {
  const boundary = "kilnboundary";
  const encoder = new TextEncoder();
  let release = (): void => undefined;
  const second = new Promise<void>((resolve) => (release = resolve));
  let began = (): void => undefined;
  const started = new Promise<void>((resolve) => (began = resolve));
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(encoder.encode(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="f"\r\nContent-Type: application/octet-stream\r\n\r\nfirst half, `));
      began();
      await second;
      controller.enqueue(encoder.encode(`second half\r\n--${boundary}--\r\n`));
      controller.close();
    },
  });
  const url = `${node.node.url}${path}`;
  const answer = node.fetch(url, { method: "PUT", body, headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, duplex: "half" } as RequestInit);
  return { started: started.then(() => Bun.sleep(300)), finish: () => release(), answer };
}
