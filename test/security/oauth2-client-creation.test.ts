// Attacks on making OAuth2 clients with a session alone. A stolen session (a copied cookie) of an
// administrator made an account-level client without the password: a way in that outlived the
// victim's password change (which ends sessions and tokens, not clients) and kept the admin scope.
// A new client now needs the account's current password, asked as for a new passkey: by the JSON
// API (account and server level), the Account screen's form and the server page's form; a wrong
// one counts towards the login throttle; each refusal is the catalogue's error and adds no client.
// Control: the holder, password given, makes one, and it stays past a password change (it needed
// the password to be made), while its tokens end.
import { beforeEach, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { testPanel, loginAs, HTML, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { createSession } from "../../server/services/sessions";
import { LoginThrottle } from "../../server/services/auth/throttle";

let panel: TestPanel;
let victim: { token: string; userId: number; email: string };
let serverId: string;

beforeEach(async () => {
  panel = await testPanel();
  victim = await loginAs(panel.db, [SCOPES.admin]); // password "password123"
  // A server row is enough: nothing here asks its node.
  const node = await panel.db.insert(schema.nodes).values({ name: "n", publicHost: "127.0.0.1", publicPort: 1, privateHost: "127.0.0.1", privatePort: 1, sftpPort: 2, secret: "x".repeat(32), createdAt: new Date() }).returning().get();
  serverId = "abcd1234";
  await panel.db.insert(schema.servers).values({ id: serverId, name: "mc", nodeId: node.id, createdAt: new Date() }).run();
});

const clients = () => panel.db.select().from(schema.oauth2Clients).all();

/** Every way to make a client, as a program or a page sends it, with the given extra fields. */
function makeClient(token: string, kind: "api" | "api-server" | "account-form" | "server-form", extra: Record<string, string> = {}): Promise<Response> {
  const fields = { name: "backup-bot", description: "", ...extra };
  const form = { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", ...HTML }, body: new URLSearchParams(fields).toString() };
  if (kind === "api") return panel.request("/api/self/oauth2", { token, ...jsonInit("POST", fields) });
  if (kind === "api-server") return panel.request(`/api/servers/${serverId}/oauth2`, { token, ...jsonInit("POST", fields) });
  if (kind === "account-form") return panel.request("/account/oauth2", { token, ...form });
  return panel.request(`/server/${serverId}/oauth2`, { token, ...form });
}

const KINDS = ["api", "api-server", "account-form", "server-form"] as const;

describe("a stolen session alone", () => {
  test("makes no client by any door: no password is ErrFieldRequired, a wrong one ErrInvalidCredentials", async () => {
    const stolen = await createSession(panel.db, victim.userId);
    for (const kind of KINDS) {
      for (const [extra, status, code] of [[{}, 400, "ErrFieldRequired"], [{ password: "guessed-wrong" }, 401, "ErrInvalidCredentials"]] as const) {
        const res = await makeClient(stolen, kind, extra);
        if (kind.endsWith("form")) {
          // A page: shown again with the refusal, never the credentials.
          expect({ kind, status: res.status }).toEqual({ kind, status });
          const html = await res.text();
          expect(html).not.toContain("client-secret");
          if (kind === "account-form") expect(html).toContain(code === "ErrInvalidCredentials" ? "That is not your current password." : "password is required");
        } else {
          expect({ kind, ...(await errorOf(res)) }).toEqual({ kind, status, code });
        }
      }
    }
    expect(await clients()).toEqual([]);
  });

  test("the Account screen's refused form opens again with the error beside the password", async () => {
    const html = await (await makeClient(victim.token, "account-form", { password: "guessed-wrong" })).text();
    const dialog = /<details class="modal"[^>]*>(?:(?!<\/details>)[\s\S])*action="\/account\/oauth2"(?:(?!<\/details>)[\s\S])*<\/details>/.exec(html)?.[0] ?? "";
    expect(dialog).toContain('open=""');
    expect(dialog).toMatch(/aria-invalid="true"[^>]*name="password"/);
    expect(dialog).toContain("That is not your current password.");
  });

  test("wrong passwords count towards the account's login throttle, whichever door they come by", async () => {
    panel.deps.throttle = new LoginThrottle({ windowMs: 60_000, slowAfter: 100, lockAfter: 3, lockMs: 60_000, delayStepMs: 0, maxDelayMs: 0 }).storedIn(panel.db);
    const stolen = await createSession(panel.db, victim.userId);
    for (const kind of ["api", "api-server", "account-form"] as const) expect((await makeClient(stolen, kind, { password: "guessed-wrong" })).status).toBe(401);
    // Locked: the right password too is refused now, without being checked.
    expect(await errorOf(await makeClient(stolen, "api", { password: "password123" }))).toEqual({ status: 429, code: "ErrTooManyRequests" });
    expect(await clients()).toEqual([]);
  });

  test("an account without a password (a provider made it) makes none, as it adds no passkey", async () => {
    const providerMade = await loginAs(panel.db, []);
    await panel.db.update(schema.users).set({ passwordHash: "" }).where(eq(schema.users.id, providerMade.userId)).run();
    expect(await errorOf(await makeClient(providerMade.token, "api"))).toEqual({ status: 400, code: "ErrFieldRequired" });
    expect(await errorOf(await makeClient(providerMade.token, "api", { password: "anything-at-all" }))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    expect(await clients()).toEqual([]);
  });
});

describe("control: the holder, password given", () => {
  test("makes a client by every door", async () => {
    for (const kind of KINDS) expect({ kind, status: (await makeClient(victim.token, kind, { password: "password123" })).status }).toEqual({ kind, status: 200 });
    const levels = (await clients()).map((c) => c.serverId ?? "account");
    expect(levels.sort()).toEqual(["abcd1234", "abcd1234", "account", "account"]);
  });

  test("the client stays past a password change, which ends its tokens", async () => {
    const client = (await (await makeClient(victim.token, "api", { password: "password123" })).json()) as { id: string; secret: string };
    const token = async () => panel.request("/oauth2/token", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ grant_type: "client_credentials", client_id: client.id, client_secret: client.secret }).toString() });
    const before = (await (await token()).json()) as { access_token: string };
    expect((await panel.request("/api/self", { token: victim.token, ...jsonInit("PUT", { password: "password123", newPassword: "a-brand-new-password-42" }) })).status).toBe(204);
    expect((await panel.request("/api/self", { headers: { authorization: `Bearer ${before.access_token}` } })).status).toBe(401);
    expect((await token()).status).toBe(200);
  });
});
