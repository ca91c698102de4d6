// The rogue provider is a provider openid-client accepts when it behaves (a correctly signed ID
// token) and that produces each broken ID token the attack tests need, each refused by
// openid-client (with enableNonRepudiationChecks, as the panel must configure it) for that reason.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as client from "openid-client";
import { rogueTokens, startRogueOidc, validClaims, type RogueOidc } from "./rogue-oidc";

const REDIRECT = "http://127.0.0.1:9/sso/callback"; // never requested
let rogue: RogueOidc;
beforeAll(async () => {
  rogue = await startRogueOidc();
});
afterAll(() => rogue.stop());

const discover = (nonRepudiation = true) =>
  client.discovery(new URL(rogue.issuer), rogue.clientId, rogue.clientSecret, undefined, {
    execute: nonRepudiation ? [client.allowInsecureRequests, client.enableNonRepudiationChecks] : [client.allowInsecureRequests],
  });

/** A whole code-flow login against the rogue provider; resolves with the tokens or rejects as openid-client does. */
async function login(config: client.Configuration) {
  const pkceCodeVerifier = client.randomPKCECodeVerifier();
  const expectedState = client.randomState();
  const expectedNonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT, scope: "openid email", state: expectedState, nonce: expectedNonce,
    code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: "S256",
  });
  const res = await fetch(url, { redirect: "manual" });
  const callback = new URL(res.headers.get("location")!);
  const checks = { pkceCodeVerifier, expectedState, expectedNonce, idTokenExpected: true };
  return { callback, checks, tokens: () => client.authorizationCodeGrant(config, callback, checks) };
}

describe("rogue OIDC provider", () => {
  test("a correctly signed ID token is accepted, and userinfo answers its claims", async () => {
    rogue.nextIdToken(rogueTokens.valid);
    const config = await discover();
    const tokens = await (await login(config)).tokens();
    expect(tokens.claims()).toMatchObject({ iss: rogue.issuer, aud: rogue.clientId, sub: "rogue-user", email_verified: true });
    expect(await client.fetchUserInfo(config, tokens.access_token, "rogue-user")).toMatchObject({ email: "rogue@example.com" });
  });

  test("email_verified: false is delivered as such (refusing it is the panel's job)", async () => {
    rogue.nextIdToken(rogueTokens.unverifiedEmail);
    const tokens = await (await login(await discover())).tokens();
    expect(tokens.claims()?.email_verified).toBe(false);
  });

  // openid-client throws a generic ClientError; its cause says which check failed.
  const refused: [string, (typeof rogueTokens)[keyof typeof rogueTokens], string][] = [
    ["signed with an unpublished key", rogueTokens.otherKey, "JWT signature verification failed"],
    ["alg none", rogueTokens.algNone, 'unexpected JWT "alg" header parameter'],
    ["for another audience", rogueTokens.wrongAudience, 'unexpected JWT "aud" (audience) claim value'],
    ["from another issuer", rogueTokens.wrongIssuer, 'unexpected JWT "iss" (issuer) claim value'],
    ["expired", rogueTokens.expired, 'unexpected JWT "exp" (expiration time) claim value'],
    ["without the nonce", rogueTokens.missingNonce, 'JWT "nonce" (nonce) claim missing'],
    ["with another nonce", rogueTokens.wrongNonce, 'unexpected ID Token "nonce" claim value'],
  ];
  for (const [name, make, reason] of refused) {
    test(`an ID token ${name} is refused`, async () => {
      rogue.nextIdToken(make);
      const error = await (await login(await discover())).tokens().then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(client.ClientError);
      expect(((error as Error).cause as Error).message).toStartWith(reason);
    });
  }

  test("the token maker sees the request's nonce and can build any claims", async () => {
    rogue.nextIdToken((ctx) => ctx.sign(validClaims(ctx, { sub: "victim", groups: ["kiln-admins"] })));
    const attempt = await login(await discover());
    const claims = (await attempt.tokens()).claims();
    expect(claims).toMatchObject({ sub: "victim", groups: ["kiln-admins"], nonce: attempt.checks.expectedNonce });
  });

  test("the token endpoint redeems a code twice, so only the relying party can refuse a replay", async () => {
    rogue.nextIdToken(rogueTokens.valid);
    const attempt = await login(await discover());
    await attempt.tokens();
    await attempt.tokens(); // openid-client itself keeps no record of used codes or states
    const code = attempt.callback.searchParams.get("code")!;
    expect(rogue.accepted.filter((c) => c === code)).toHaveLength(2);
  });

  test("without enableNonRepudiationChecks openid-client does not check the ID token's signature", async () => {
    rogue.nextIdToken(rogueTokens.otherKey);
    const tokens = await (await login(await discover(false))).tokens();
    expect(tokens.claims()?.sub).toBe("rogue-user");
  });
});
