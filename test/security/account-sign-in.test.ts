// How an account signs in is changed only by its holder's own login, and a new way in (a passkey,
// which skips the second factor and outlives a password change) needs the account's password
// again. Attacked by an OAuth2 client's token (one bound to a server, and one of the account
// itself: a bot's leaked secret) and by a session alone (a stolen cookie): each attempt is refused
// with the catalogue's error and no row changes. Control: the holder, password given, adds a
// passkey and signs in with it.
import { beforeEach, describe, expect, test } from "bun:test";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { everyRow } from "../helpers/every-row";
import { errorOf } from "../helpers/refusal";
import { SoftAuthenticator } from "../helpers/soft-authenticator";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";

const ORIGIN = "http://localhost";
let panel: TestPanel;
let owner: { token: string; userId: number; email: string };
let serverId: string;

beforeEach(async () => {
  panel = await testPanel();
  owner = await loginAs(panel.db, [SCOPES.admin]);
  // A server row is enough: nothing here asks its node.
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  serverId = "abcd1234";
  await panel.db.insert(schema.servers).values({ id: serverId, name: "mc", nodeId: node.id, createdAt: new Date() }).run();
});

async function clientToken(path: string): Promise<Record<string, string>> {
  const client = await (await panel.request(path, { token: owner.token, ...jsonInit("POST", { name: "bot", password: "password123" }) })).json();
  const answer = await panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_id=${client.id}&client_secret=${client.secret}` });
  return { authorization: `Bearer ${(await answer.json()).access_token}` };
}

/** Every call that changes how the account signs in, or its clients, as a program or a form sends it. */
const CHANGES: { method: string; path: string; body?: unknown; form?: Record<string, string> }[] = [
  { method: "PUT", path: "/api/self", body: { password: "password123", email: "mallory@example.com" } },
  { method: "POST", path: "/api/self/otp" },
  { method: "PUT", path: "/api/self/otp", body: { token: "123456" } },
  { method: "DELETE", path: "/api/self/otp" },
  { method: "DELETE", path: "/api/self/otp/123456" },
  { method: "POST", path: "/api/self/otp/recovery", body: { password: "password123" } },
  { method: "POST", path: "/api/self/passkeys/options", body: { password: "password123" } },
  { method: "POST", path: "/api/self/passkeys", body: { name: "evil", response: {} } },
  { method: "DELETE", path: "/api/self/passkeys/any" },
  { method: "POST", path: "/api/self/oauth2", body: { name: "more", password: "password123" } },
  { method: "POST", path: "/account/profile", form: { password: "password123", email: "mallory@example.com" } },
  { method: "POST", path: "/account/password", form: { password: "password123", newPassword: "mallory123", newPasswordConfirm: "mallory123" } },
  { method: "POST", path: "/account/otp/start", form: {} },
  { method: "POST", path: "/account/oauth2", form: { name: "more", password: "password123" } },
  { method: "POST", path: "/account/sso/any/link", form: {} },
  { method: "POST", path: "/account/sso/any/unlink", form: {} },
];

describe("an OAuth2 client's token", () => {
  for (const [kind, path] of [["bound to a server", () => `/api/servers/${serverId}/oauth2`], ["of the account itself", () => "/api/self/oauth2"]] as const) {
    test(`${kind}: changes nothing of how its account signs in, nor its clients`, async () => {
      const bearer = await clientToken(path());
      const sibling = await (await panel.request("/api/self/oauth2", { token: owner.token, ...jsonInit("POST", { name: "ci", password: "password123" }) })).json();
      const calls = [
        ...CHANGES,
        { method: "DELETE", path: `/api/self/oauth2/${sibling.id}` },
        { method: "POST", path: `/api/servers/${serverId}/oauth2`, body: { name: "more", password: "password123" } },
        { method: "POST", path: `/server/${serverId}/oauth2`, form: { name: "more", password: "password123" } },
      ];
      const before = await everyRow(panel.db);
      for (const call of calls) {
        const headers: Record<string, string> = { ...bearer, accept: "application/json", ...(call.form ? { "content-type": "application/x-www-form-urlencoded" } : { "content-type": "application/json" }) };
        const body = call.form ? new URLSearchParams(call.form).toString() : call.body === undefined ? undefined : JSON.stringify(call.body);
        const res = await panel.request(call.path, { method: call.method, headers, body });
        expect({ call: `${call.method} ${call.path}`, status: res.status }).toEqual({ call: `${call.method} ${call.path}`, status: 403 });
      }
      expect(await everyRow(panel.db)).toEqual(before);
      // Reading stays open to it (PufferPanel's clients ask who they are).
      expect((await panel.request("/api/self", { headers: bearer })).status).toBe(200);
    });
  }
});

describe("a session alone", () => {
  test("adds no passkey: the options need the account's password, and a passkey needs the options", async () => {
    const before = await everyRow(panel.db);
    expect(await errorOf(await panel.request("/api/self/passkeys/options", { token: owner.token, ...jsonInit("POST", {}) }))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(await errorOf(await panel.request("/api/self/passkeys/options", { token: owner.token, ...jsonInit("POST", { password: "guessed-wrong" }) }))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    const forged = new SoftAuthenticator().register({ challenge: "bm90LWlzc3VlZA", rp: { id: "localhost" }, user: { id: "a2lsbi11c2VyLTE" } }, ORIGIN);
    expect(await errorOf(await panel.request("/api/self/passkeys", { token: owner.token, ...jsonInit("POST", { name: "evil", response: forged }) }))).toEqual({ status: 400, code: "ErrInvalidTokenState" });
    const rows = await everyRow(panel.db);
    // The wrong password counted towards the login throttle, as a wrong password at login does; nothing else changed.
    expect({ ...rows, one_time_values: [], activity: [] }).toEqual({ ...before, one_time_values: [], activity: [] });
    expect((rows.passkeys as unknown[]).length).toBe(0);
  });

  test("control: the holder, password given, adds a passkey and signs in with it as a stranger would", async () => {
    const authenticator = new SoftAuthenticator();
    const options = await (await panel.request("/api/self/passkeys/options", { token: owner.token, ...jsonInit("POST", { password: "password123" }) })).json();
    const added = await panel.request("/api/self/passkeys", { token: owner.token, ...jsonInit("POST", { name: "laptop", response: authenticator.register(options, ORIGIN) }) });
    expect(added.status).toBe(201);
    const begun = await panel.request("/auth/passkey/options", jsonInit("POST", {}));
    const cookie = (begun.headers.get("set-cookie") ?? "").split(";")[0]!;
    const login = await panel.request("/auth/passkey/login", { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ response: authenticator.assert(await begun.json(), ORIGIN) }) });
    expect(login.status).toBe(200);
    expect((await login.json()).scopes).toEqual([SCOPES.admin]);
  });
});
