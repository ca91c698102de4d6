// Attacks on logging in through an identity provider, against a hand-written provider that
// answers whatever ID token the test makes (test/helpers/rogue-oidc) and a real one: a forged or
// replayed state, a replayed callback, a token signed by another key or with alg none, a wrong
// audience or issuer, an expired token, a missing or wrong nonce, an email the provider did not
// verify used to reach an existing account, an open redirect in the return path, and rights a
// non-administrator does not hold. Each is refused with a catalogue error and logs nobody in.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { eq } from "drizzle-orm";
import { schema } from "../../db";
import { createUser } from "../../server/services/users";
import { safeNext } from "../../server/services/sso/flow";
import { ssoPanel, ssoLogin, land, type SsoPanel } from "../helpers/sso-panel";
import { startRogueOidc, rogueTokens, validClaims, type RogueOidc } from "../helpers/rogue-oidc";
import { followAuthorization } from "../helpers/oidc-provider";
import { loginAs } from "../helpers/app";

let rig: SsoPanel;
let rogue: RogueOidc;

beforeAll(async () => {
  rig = await ssoPanel();
  rogue = await startRogueOidc();
  expect((await rig.addProvider({ id: "rogue", name: "Rogue", type: "oidc", issuer: rogue.issuer, clientId: rogue.clientId, clientSecret: rogue.clientSecret, allowRegistration: true, trustEmail: true })).status).toBe(201);
  await createUser(rig.panel.db, { username: "victim", email: "victim@example.com", password: "victims-password" });
});
afterAll(() => {
  rig.stop();
  rogue.stop();
});

const sessions = async () => (await rig.panel.db.select().from(schema.sessions).all()).length;
const accounts = async () => (await rig.panel.db.select().from(schema.users).all()).length;

/** A full login through the rogue provider with the given token maker: the panel's answer. */
async function attempt(make: Parameters<RogueOidc["nextIdToken"]>[0]) {
  rogue.nextIdToken(make);
  return ssoLogin(rig.base, "/auth/sso/rogue", followAuthorization);
}

describe("the ID token", () => {
  test("a good token logs in (the control case)", async () => {
    const landing = await attempt(rogueTokens.valid);
    expect(landing.status, landing.body).toBe(303);
    expect(landing.session).not.toBeNull();
  });

  for (const [name, make] of Object.entries({ otherKey: rogueTokens.otherKey, algNone: rogueTokens.algNone, wrongAudience: rogueTokens.wrongAudience, wrongIssuer: rogueTokens.wrongIssuer, expired: rogueTokens.expired, missingNonce: rogueTokens.missingNonce, wrongNonce: rogueTokens.wrongNonce })) {
    test(`${name}: refused (ErrSsoFailed), nobody logged in`, async () => {
      const before = await sessions();
      const landing = await attempt(make);
      expect(landing.status).toBe(400);
      expect(landing.session).toBeNull();
      expect(landing.body).toContain("could not be completed");
      expect(await sessions()).toBe(before);
    });
  }

  test("a nonce from another login does not pass", async () => {
    let earlier: string | undefined;
    rogue.nextIdToken((ctx) => ((earlier = ctx.nonce), rogueTokens.valid(ctx)));
    await ssoLogin(rig.base, "/auth/sso/rogue", followAuthorization);
    const landing = await attempt((ctx) => ctx.sign(validClaims(ctx, { nonce: earlier })));
    expect(landing.status).toBe(400);
  });
});

describe("state and replay", () => {
  test("a callback with a state the panel never issued, or none, is refused", async () => {
    const before = await sessions();
    for (const query of ["code=abc&state=forged", "code=abc"]) {
      const landing = await land(new URL(`${rig.base}/auth/sso/rogue/callback?${query}`));
      expect(landing.status).toBe(400);
      expect(landing.session).toBeNull();
    }
    expect(await sessions()).toBe(before);
  });

  test("a callback replayed (the provider would redeem its code again) is refused by the panel", async () => {
    rogue.nextIdToken(rogueTokens.valid);
    const first = await ssoLogin(rig.base, "/auth/sso/rogue", followAuthorization);
    expect(first.status).toBe(303);
    const replay = await land(first.callback, first.began);
    expect(replay.status).toBe(400);
    expect(replay.session).toBeNull();
  });

  test("a state issued for one provider is no good at another's callback", async () => {
    await rig.addProvider({ id: "second", name: "Second", type: "oidc", issuer: rogue.issuer, clientId: rogue.clientId, clientSecret: rogue.clientSecret, allowRegistration: true, trustEmail: true });
    const start = await fetch(`${rig.base}/auth/sso/rogue`, { redirect: "manual" });
    const callback = await followAuthorization(start.headers.get("location")!);
    const moved = new URL(callback.toString().replace("/auth/sso/rogue/callback", "/auth/sso/second/callback"));
    const began = start.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
    expect((await land(moved, began)).status).toBe(400);
  });
});

describe("the browser that began the login", () => {
  test("a callback address from the attacker's own login, opened by someone else, logs nobody in", async () => {
    rogue.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "csrf-attacker", email: "csrf-attacker@example.com", email_verified: true })));
    // The attacker walks their own login to the provider and back, and stops before the callback.
    const start = await fetch(`${rig.base}/auth/sso/rogue`, { redirect: "manual" });
    const callback = await followAuthorization(start.headers.get("location")!);
    // The victim's browser, sent there by a link, holds the victim's session cookie only.
    const victim = await loginAs(rig.panel.db, []);
    const before = await sessions();
    const landing = await land(callback, `kiln=${victim.token}`);
    expect(landing.status).toBe(400);
    expect(landing.session).toBeNull();
    expect(await sessions()).toBe(before);
  });

  test("the password step a verified email claim asks for is the calling browser's: a link to it sent to the account's owner links nothing", async () => {
    const landing = await attempt((ctx) => ctx.sign(validClaims(ctx, { sub: "phisher", email: "victim@example.com", email_verified: true })));
    expect(landing.location).toStartWith("/auth/sso/link?token=");
    const token = new URL(landing.location!, rig.base).searchParams.get("token")!;
    // The owner opens the link and gives their own password on the panel's page.
    expect((await fetch(`${rig.base}${landing.location}`)).status).toBe(400);
    const given = await fetch(`${rig.base}/auth/sso/link`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: rig.base }, body: new URLSearchParams({ token, password: "victims-password" }) });
    expect(given.status).toBe(400);
    expect(given.headers.getSetCookie().some((c) => /^kiln=[^;]+/.test(c) && !/^kiln=;/.test(c))).toBe(false);
    expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "phisher")).all()).toHaveLength(0);
  });
});

describe("accounts", () => {
  test("an unverified email claim cannot reach the account that has that email", async () => {
    const before = await accounts();
    const landing = await attempt((ctx) => ctx.sign(validClaims(ctx, { sub: "attacker", email: "victim@example.com", email_verified: false })));
    expect(landing.status).toBe(403);
    expect(landing.session).toBeNull();
    expect(landing.location ?? "").not.toContain("/auth/sso/link");
    expect(await accounts()).toBe(before);
    expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "attacker")).all()).toHaveLength(0);
  });

  test("even a verified email claim only asks for the account's password: it never logs in as the victim by itself", async () => {
    const landing = await attempt((ctx) => ctx.sign(validClaims(ctx, { sub: "attacker2", email: "victim@example.com", email_verified: true })));
    expect(landing.session).toBeNull();
    expect(landing.location).toStartWith("/auth/sso/link?token=");
    const token = new URL(landing.location!, rig.base).searchParams.get("token")!;
    const wrong = await fetch(`${rig.base}/auth/sso/link`, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded", origin: rig.base, cookie: landing.browser }, body: new URLSearchParams({ token, password: "guess" }) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.getSetCookie().some((c) => /^kiln=[^;]+/.test(c) && !/^kiln=;/.test(c))).toBe(false);
    expect(await rig.panel.db.select().from(schema.userIdentities).where(eq(schema.userIdentities.subject, "attacker2")).all()).toHaveLength(0);
  });
});

describe("the return path", () => {
  test("next is only ever a path on the panel", () => {
    for (const next of ["https://evil.example/", "//evil.example", "/\\evil.example", "javascript:alert(1)", "/%0d%0aSet-Cookie:x", "", 42]) {
      const kept = safeNext(next);
      expect(kept === "/" || (kept.startsWith("/") && !kept.startsWith("//") && !kept.startsWith("/\\"))).toBe(true);
      expect(kept).not.toContain("evil.example");
    }
    expect(safeNext("/server/abc?tab=console")).toBe("/server/abc?tab=console");
  });

  test("a login started with next=//evil.example lands on the panel", async () => {
    rogue.nextIdToken(rogueTokens.valid);
    const landing = await ssoLogin(rig.base, `/auth/sso/rogue?next=${encodeURIComponent("//evil.example/steal")}`, followAuthorization);
    expect(landing.status).toBe(303);
    expect(landing.location).toStartWith("/");
    expect(landing.location).not.toStartWith("//");
  });
});

describe("who manages providers", () => {
  test("a user without the admin scope can neither list nor add nor change a provider, nor read a secret", async () => {
    const user = await loginAs(rig.panel.db, ["settings.edit", "users.edit"]);
    const call = (method: string, path: string, body?: unknown) => fetch(`${rig.base}${path}`, { method, headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" }, body: body === undefined ? undefined : JSON.stringify(body) });
    expect((await call("GET", "/api/auth/providers")).status).toBe(403);
    expect((await call("POST", "/api/auth/providers", { id: "mine", name: "Mine", type: "oidc", issuer: "https://idp.example", clientId: "a", clientSecret: "b" })).status).toBe(403);
    expect((await call("PUT", "/api/auth/providers/rogue", { allowRegistration: true })).status).toBe(403);
    const listed = await (await fetch(`${rig.base}/api/auth/providers`, { headers: { authorization: `Bearer ${rig.admin.token}` } })).text();
    expect(listed).not.toContain(rogue.clientSecret);
  });

  test("an issuer over plain http elsewhere than loopback, or with credentials, is refused", async () => {
    for (const issuer of ["http://idp.example", "https://user:pass@idp.example", "ftp://idp.example", "not a url"]) {
      const res = await rig.addProvider({ id: "bad", name: "Bad", type: "oidc", issuer, clientId: "a", clientSecret: "b" });
      expect(res.status, issuer).toBe(400);
    }
  });
});

describe("a provider that answers without end", () => {
  // The token and its keys fail the sign-in (400); a discovery document makes the provider unavailable (502).
  for (const [path, status] of [["/token", 400], ["/jwks", 400], ["/.well-known/openid-configuration", 502]] as const) {
    test(`${path}: the sign-in fails (${status}) once 1 MiB is read; nobody is logged in`, async () => {
      const before = await sessions();
      const sent = rogue.endlessBytesSent();
      rogue.nextIdToken(rogueTokens.valid);
      // The discovery the login begins with is answered whole; the callback's fresh one is not.
      const landing = await ssoLogin(rig.base, "/auth/sso/rogue", async (url) => {
        rogue.answerEndlessly(path);
        return followAuthorization(url);
      }).finally(() => rogue.answerEndlessly(null));
      expect(landing.status).toBe(status);
      expect(landing.session).toBeNull();
      expect(await sessions()).toBe(before);
      // Read up to the cap and stopped there, not for the request's ten seconds (gigabytes on loopback):
      // what the provider sent beyond the cap is the sockets' buffers and the chunks it made before
      // the cancel reached it, which grows when other test files hold the CPU (10 MB seen).
      expect(rogue.endlessBytesSent() - sent).toBeLessThan(64 * 1024 * 1024);
    });
  }
});
