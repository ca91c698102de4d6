// Passkeys attacked with a software authenticator that says what an attacker's would: a credential
// id another account already holds, an id and transports of megabytes, registrations without end,
// and a cloned key answering twice at once. Each attempt gets the catalogue's error, never a 500,
// and leaves no session or row.
import { beforeEach, describe, expect, test } from "bun:test";
import { count, eq } from "drizzle-orm";
import { testPanel, loginAs, type TestPanel } from "../helpers/app";
import { jsonInit } from "../helpers/panel-node";
import { errorOf } from "../helpers/refusal";
import { SoftAuthenticator } from "../helpers/soft-authenticator";
import { schema } from "../../db";
import { SCOPES } from "../../core/scopes";
import { MAX_PASSKEYS_PER_ACCOUNT } from "../../core/validation/account";

const ORIGIN = "http://localhost";
let panel: TestPanel;

beforeEach(async () => {
  panel = await testPanel();
});

type Account = { token: string; userId: number; email: string };

/** The registration answer `make` builds from fresh options, sent as the holder with the password. */
async function register(holder: Account, make: (options: Parameters<SoftAuthenticator["register"]>[0]) => unknown): Promise<Response> {
  const asked = await panel.request("/api/self/passkeys/options", { token: holder.token, ...jsonInit("POST", { password: "password123" }) });
  if (asked.status !== 200) return asked;
  const options = await asked.json();
  return await panel.request("/api/self/passkeys", { token: holder.token, ...jsonInit("POST", { name: "key", response: make(options) }) });
}

/** A sign-in with `authenticator`, from the login page as a stranger's browser. */
async function signIn(authenticator: SoftAuthenticator): Promise<Response> {
  const begun = await panel.request("/auth/passkey/options", jsonInit("POST", {}));
  const cookie = (begun.headers.get("set-cookie") ?? "").split(";")[0]!;
  const answer = authenticator.assert(await begun.json(), ORIGIN);
  return await panel.request("/auth/passkey/login", { method: "POST", headers: { "content-type": "application/json", cookie }, body: JSON.stringify({ response: answer }) });
}

const passkeysOf = async (userId: number) => await panel.db.select().from(schema.passkeys).where(eq(schema.passkeys.userId, userId)).all();
const sessionsOf = async (userId: number) => (await panel.db.select({ n: count() }).from(schema.sessions).where(eq(schema.sessions.userId, userId)).get())!.n;

describe("what a registration stores", () => {
  test("a credential id another account holds is refused (ErrTokenInvalid, not a 500); the holder's passkey stays theirs and signs in", async () => {
    const victim = await loginAs(panel.db, [SCOPES.admin]);
    const mallory = await loginAs(panel.db);
    const real = new SoftAuthenticator();
    expect((await register(victim, (o) => real.register(o, ORIGIN))).status).toBe(201);
    // The id is no secret (an administrator's user page lists it): Mallory's own key claims it.
    const claimant = new SoftAuthenticator({ credentialId: Buffer.from(real.id, "base64url") });
    expect(await errorOf(await register(mallory, (o) => claimant.register(o, ORIGIN)))).toEqual({ status: 400, code: "ErrTokenInvalid" });
    // And the holder registering the same id again (an authenticator ignoring excludeCredentials).
    expect(await errorOf(await register(victim, (o) => claimant.register(o, ORIGIN)))).toEqual({ status: 400, code: "ErrTokenInvalid" });
    expect((await passkeysOf(mallory.userId)).length).toBe(0);
    expect((await passkeysOf(victim.userId)).map((p) => p.id)).toEqual([real.id]);
    const login = await signIn(real);
    expect(login.status).toBe(200);
    expect((await login.json()).scopes).toEqual([SCOPES.admin]);
  });

  test("a credential id longer than WebAuthn's 1023 bytes is refused, and transports are only the known few", async () => {
    const holder = await loginAs(panel.db);
    const huge = new SoftAuthenticator({ credentialId: Buffer.alloc(60_000, 7) });
    expect(await errorOf(await register(holder, (o) => huge.register(o, ORIGIN)))).toEqual({ status: 400, code: "ErrTokenInvalid" });
    const chatty = new SoftAuthenticator();
    const added = await register(holder, (o) => {
      const answer = chatty.register(o, ORIGIN);
      return { ...answer, response: { ...answer.response, transports: ["usb", "internal", "usb", ...Array.from({ length: 2000 }, (_, i) => `x${i}`.repeat(500))] } };
    });
    expect(added.status).toBe(201);
    expect((await passkeysOf(holder.userId)).map((p) => p.transports)).toEqual(["usb,internal"]);
    expect((await signIn(chatty)).status).toBe(200);
  });

  test(`an account holds at most ${MAX_PASSKEYS_PER_ACCOUNT} passkeys (ErrPasskeyLimit), and removing one makes room`, async () => {
    const holder = await loginAs(panel.db);
    for (let i = 0; i < MAX_PASSKEYS_PER_ACCOUNT; i++) expect((await register(holder, (o) => new SoftAuthenticator().register(o, ORIGIN))).status).toBe(201);
    const refused = await register(holder, (o) => new SoftAuthenticator().register(o, ORIGIN));
    expect(await errorOf(refused)).toEqual({ status: 400, code: "ErrPasskeyLimit" });
    expect((await passkeysOf(holder.userId)).length).toBe(MAX_PASSKEYS_PER_ACCOUNT);
    // The account page says why there is no way to add one, and offers none.
    const page = async () => (await panel.request("/account", { token: holder.token, headers: { accept: "text/html" } })).text();
    const full = await page();
    expect(full).toContain(`An account holds at most ${MAX_PASSKEYS_PER_ACCOUNT} passkeys`);
    expect(full).not.toContain('data-island="AddPasskey"');
    const [first] = await passkeysOf(holder.userId);
    expect((await panel.request(`/api/self/passkeys/${encodeURIComponent(first!.id)}`, { token: holder.token, method: "DELETE" })).status).toBe(204);
    expect(await page()).toContain('data-island="AddPasskey"');
    expect((await register(holder, (o) => new SoftAuthenticator().register(o, ORIGIN))).status).toBe(201);
  });
});

describe("signing in", () => {
  test("a cloned authenticator answering twice at once with one counter signs in once; its stale counter after is refused", async () => {
    const holder = await loginAs(panel.db);
    const original = new SoftAuthenticator();
    expect((await register(holder, (o) => original.register(o, ORIGIN))).status).toBe(201);
    const before = await sessionsOf(holder.userId);
    for (let round = 0; round < 5; round++) {
      const copy = original.clone();
      const answers = await Promise.all([signIn(original), signIn(copy)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
      expect(await errorOf(answers.find((a) => a.status !== 200)!)).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    }
    expect(await sessionsOf(holder.userId)).toBe(before + 5);
    // A clone left behind (its counter under the stored one) is refused, the passkey kept.
    const stale = original.clone();
    expect((await signIn(original)).status).toBe(200);
    expect(await errorOf(await signIn(stale))).toEqual({ status: 401, code: "ErrInvalidCredentials" });
    expect((await passkeysOf(holder.userId)).length).toBe(1);
  });

});
