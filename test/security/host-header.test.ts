// A request's address is made from its Host header, which its sender writes. Hosts that are no
// host ("a%b", "[", a port past 65535, "_" with a word for a port) sent on a real socket to the
// served panel and to the node: each answer is the catalogue's 400 ErrFieldIsInvalidHost, never a
// 500, and a login so addressed makes no session (it made one, then failed to hand it back).
import { expect, test } from "bun:test";
import { connect } from "node:net";
import { servedPanelForAll, type ServedPanel } from "../helpers/panel-node";
import { createUser } from "../../server/services/users";
import { schema } from "../../db";

let rig: ServedPanel;
servedPanelForAll("addressed", (made) => {
  rig = made;
});

const BAD_HOSTS = ["a%b", "[", "a:99999", "exa_mple:x"];

function raw(port: number, request: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(request));
    let out = "";
    socket.on("data", (chunk) => (out += chunk));
    socket.on("end", () => resolve({ status: Number(out.split(" ")[1]), body: out.slice(out.indexOf("\r\n\r\n") + 4) }));
    socket.on("error", reject);
  });
}

const send = (port: number, method: string, path: string, host: string, body = "", headers: string[] = []) =>
  raw(port, [`${method} ${path} HTTP/1.1`, `Host: ${host}`, "Content-Type: application/json", `Content-Length: ${Buffer.byteLength(body)}`, "Connection: close", ...headers, "", body].join("\r\n"));

test("the panel refuses a Host that is no host on every door, and a login so addressed makes no session", async () => {
  await createUser(rig.ctx.panel.db, { username: "addressed", email: "addressed@example.com", password: "password123", scopes: [] });
  const sessionsBefore = (await rig.ctx.panel.db.select().from(schema.sessions).all()).length;
  const port = rig.server.port!;
  for (const host of BAD_HOSTS) {
    for (const [method, path, body] of [
      ["GET", "/auth/login", ""],
      ["POST", "/auth/login", JSON.stringify({ email: "addressed@example.com", password: "password123" })],
      ["POST", "/auth/passkey/options", "{}"],
      ["POST", "/auth/reauth", "{}"],
      ["GET", "/api/config", ""],
      ["GET", `/proxy/daemon/server/${rig.id}/status`, ""],
    ] as const) {
      const answer = await send(port, method, path, host, body, [`Authorization: Bearer ${rig.ctx.admin.token}`]);
      expect({ host, path, status: answer.status, code: JSON.parse(answer.body).error?.code }).toEqual({ host, path, status: 400, code: "ErrFieldIsInvalidHost" });
    }
  }
  expect((await rig.ctx.panel.db.select().from(schema.sessions).all()).length).toBe(sessionsBefore);
  // Control: the same login, properly addressed, is answered.
  expect((await send(port, "POST", "/auth/login", `127.0.0.1:${port}`, JSON.stringify({ email: "addressed@example.com", password: "password123" }))).status).toBe(200);
});

test("the node refuses it too, before the token is read", async () => {
  for (const host of BAD_HOSTS) {
    for (const path of ["/daemon", `/daemon/server/${rig.id}`, "/kiln-node/proof"]) {
      const answer = await send(rig.node.node.port, "GET", path, host, "", ["Authorization: Bearer kn2.1.2.3.4"]);
      expect({ host, path, status: answer.status, code: JSON.parse(answer.body).error?.code }).toEqual({ host, path, status: 400, code: "ErrFieldIsInvalidHost" });
    }
  }
});
