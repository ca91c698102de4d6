// The oidc-provider fixture works for a relying party built on openid-client, as the panel's is:
// discovery, code flow with PKCE/state/nonce, the set account's claims in the ID token and at
// userinfo, both client authentication methods, key rotation, and a refused code replay.
import { afterAll, beforeAll, describe, expect, setSystemTime, test } from "bun:test";
import * as client from "openid-client";
import { followAuthorization, startOidcProvider, type OidcFixture } from "./oidc-provider";

const REDIRECT = "http://127.0.0.1:9/sso/callback"; // never requested: followAuthorization stops before it
let op: OidcFixture;
beforeAll(async () => {
  op = await startOidcProvider({ redirectUris: [REDIRECT] });
});
afterAll(() => op.stop());

const discover = (auth?: client.ClientAuth) =>
  client.discovery(new URL(op.issuer), op.clientId, op.clientSecret, auth, {
    execute: [client.allowInsecureRequests, client.enableNonRepudiationChecks],
  });

/** One browser login as the relying party does it; returns the callback URL and the checks to redeem it with. */
async function login(config: client.Configuration) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT,
    scope: "openid email profile groups",
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier),
    code_challenge_method: "S256",
    state: expectedState,
    nonce: expectedNonce,
  });
  const callback = await followAuthorization(url.href);
  return { callback, checks: { pkceCodeVerifier, expectedState, expectedNonce, idTokenExpected: true } };
}

describe("oidc-provider fixture", () => {
  test("a login's ID token and userinfo carry the account's claims, amr and the nonce", async () => {
    op.setAccount("user-1", { email: "ada@example.com", email_verified: true, preferred_username: "ada", name: "Ada", groups: ["kiln-admins"], amr: ["pwd", "otp"] });
    const config = await discover();
    const { callback, checks } = await login(config);
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get("state")).toBe(checks.expectedState);
    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    const claims = tokens.claims()!;
    expect(claims).toMatchObject({ iss: op.issuer, aud: op.clientId, sub: "user-1", nonce: checks.expectedNonce, email: "ada@example.com", email_verified: true, preferred_username: "ada", name: "Ada", groups: ["kiln-admins"], amr: ["pwd", "otp"] });
    const userinfo = await client.fetchUserInfo(config, tokens.access_token, "user-1");
    expect(userinfo).toMatchObject({ sub: "user-1", email: "ada@example.com", groups: ["kiln-admins"] });
  });

  test("client_secret_basic is accepted as well as client_secret_post", async () => {
    op.setAccount("user-2", { email: "bob@example.com", email_verified: false });
    const config = await discover(client.ClientSecretBasic(op.clientSecret));
    const { callback, checks } = await login(config);
    const tokens = await client.authorizationCodeGrant(config, callback, checks);
    expect(tokens.claims()).toMatchObject({ sub: "user-2", email: "bob@example.com", email_verified: false });
  });

  test("PKCE is required: an authorization request without a code_challenge is refused", async () => {
    const config = await discover();
    const url = client.buildAuthorizationUrl(config, { redirect_uri: REDIRECT, scope: "openid", state: "s" });
    const callback = await followAuthorization(url.href);
    expect(callback.searchParams.get("error")).toBe("invalid_request");
    expect(callback.searchParams.get("error_description")).toContain("PKCE");
  });

  test("a replayed authorization code is refused by the provider", async () => {
    op.setAccount("user-1", { email: "ada@example.com", email_verified: true });
    const config = await discover();
    const { callback, checks } = await login(config);
    await client.authorizationCodeGrant(config, callback, checks);
    const replay = client.authorizationCodeGrant(config, callback, checks);
    await expect(replay).rejects.toMatchObject({ error: "invalid_grant" });
  });

  test("after rotateKeys only the new key is published, and logins still validate", async () => {
    op.setAccount("user-1", { email: "ada@example.com", email_verified: true });
    const config = await discover();
    const first = await login(config);
    await client.authorizationCodeGrant(config, first.callback, first.checks); // caches the JWKS
    const before = (await (await fetch(`${op.issuer}/jwks`)).json()) as { keys: { kid: string }[] };
    await op.rotateKeys();
    const after = (await (await fetch(`${op.issuer}/jwks`)).json()) as { keys: { kid: string }[] };
    expect(after.keys).toHaveLength(1);
    expect(after.keys[0]!.kid).not.toBe(before.keys[0]!.kid);

    // A relying party configured afresh validates the new key at once.
    const fresh = await discover();
    const second = await login(fresh);
    expect((await client.authorizationCodeGrant(fresh, second.callback, second.checks)).claims()?.sub).toBe("user-1");

    // One that keeps its Configuration refetches the JWKS for an unknown kid only once its copy is
    // a minute old (oauth4webapi's rule); before that the new kid is "no applicable keys found".
    const early = await login(config);
    await expect(client.authorizationCodeGrant(config, early.callback, early.checks)).rejects.toThrow(/no applicable keys/);
    setSystemTime(new Date(Date.now() + 61_000));
    try {
      const later = await login(config);
      expect((await client.authorizationCodeGrant(config, later.callback, later.checks)).claims()?.sub).toBe("user-1");
    } finally {
      setSystemTime();
    }
  });
});
