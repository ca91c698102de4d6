// The Discord stand-in does Discord's OAuth2 dance on Discord's paths: authorize redirects back
// with code and state, the token endpoint redeems a code once (for its redirect_uri, its PKCE
// verifier, an authenticated client), and /api/users/@me answers the user for the bearer token.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import * as client from "openid-client";
import { followDiscordAuthorization, startDiscordFixture, type DiscordFixture } from "./discord-oauth";

const REDIRECT = "http://127.0.0.1:9/sso/discord/callback"; // never requested
let discord: DiscordFixture;
beforeAll(async () => {
  discord = await startDiscordFixture();
});
afterAll(() => discord.stop());

function authorizeUrl(params: Record<string, string> = {}): string {
  const url = new URL(`${discord.baseUrl}/oauth2/authorize`);
  for (const [k, v] of Object.entries({ client_id: discord.clientId, response_type: "code", redirect_uri: REDIRECT, scope: "identify email", state: "st-1", ...params })) url.searchParams.set(k, v);
  return url.href;
}

const redeem = (code: string, extra: Record<string, string> = {}, basic = true) =>
  fetch(`${discord.baseUrl}/api/oauth2/token`, {
    method: "POST",
    headers: basic ? { authorization: `Basic ${btoa(`${discord.clientId}:${discord.clientSecret}`)}` } : {},
    body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: REDIRECT, ...(basic ? {} : { client_id: discord.clientId, client_secret: discord.clientSecret }), ...extra }),
  });

const me = (token: string) => fetch(`${discord.baseUrl}/api/users/@me`, { headers: { authorization: `Bearer ${token}` } });

describe("Discord OAuth2 stand-in", () => {
  test("authorize → token → @me gives the set user in Discord's shape", async () => {
    discord.setUser({ id: "123456789012345678", username: "ada", email: "ada@example.com", verified: true });
    const callback = await followDiscordAuthorization(authorizeUrl());
    expect(callback.origin + callback.pathname).toBe(REDIRECT);
    expect(callback.searchParams.get("state")).toBe("st-1");
    const res = await redeem(callback.searchParams.get("code")!);
    expect(res.status).toBe(200);
    const token = (await res.json()) as Record<string, unknown>;
    expect(token).toMatchObject({ token_type: "Bearer", scope: "identify email", expires_in: expect.any(Number), refresh_token: expect.any(String) });
    const user = await (await me(String(token.access_token))).json();
    expect(user).toEqual({ id: "123456789012345678", username: "ada", global_name: "ada", email: "ada@example.com", verified: true, avatar: null, discriminator: "0" });
  });

  test("openid-client, configured by hand (Discord has no discovery), completes the flow", async () => {
    discord.setUser({ id: "3", username: "cy", global_name: "Cy", email: "cy@example.com", verified: true });
    const config = new client.Configuration(
      { issuer: discord.baseUrl, authorization_endpoint: `${discord.baseUrl}/oauth2/authorize`, token_endpoint: `${discord.baseUrl}/api/oauth2/token` },
      discord.clientId, discord.clientSecret, client.ClientSecretBasic(discord.clientSecret),
    );
    client.allowInsecureRequests(config);
    const pkceCodeVerifier = client.randomPKCECodeVerifier();
    const expectedState = client.randomState();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: "identify email", state: expectedState,
      code_challenge: await client.calculatePKCECodeChallenge(pkceCodeVerifier), code_challenge_method: "S256",
    });
    const callback = await followDiscordAuthorization(url.href);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier, expectedState });
    const res = await client.fetchProtectedResource(config, tokens.access_token, new URL(`${discord.baseUrl}/api/users/@me`), "GET");
    expect(await res.json()).toMatchObject({ id: "3", global_name: "Cy", email: "cy@example.com", verified: true });
  });

  test("client_secret_post works; without the email scope there is no email", async () => {
    discord.setUser({ id: "2", username: "bob", email: "bob@example.com", verified: false });
    const callback = await followDiscordAuthorization(authorizeUrl({ scope: "identify" }));
    const token = (await (await redeem(callback.searchParams.get("code")!, {}, false)).json()) as { access_token: string };
    const user = (await (await me(token.access_token)).json()) as Record<string, unknown>;
    expect(user.username).toBe("bob");
    expect("email" in user).toBe(false);
  });

  test("a code is single-use and bound to its redirect_uri; a bad secret is refused", async () => {
    const first = (await followDiscordAuthorization(authorizeUrl())).searchParams.get("code")!;
    expect((await redeem(first, { redirect_uri: "http://127.0.0.1:9/elsewhere" })).status).toBe(400);
    const second = (await followDiscordAuthorization(authorizeUrl())).searchParams.get("code")!;
    expect((await redeem(second)).status).toBe(200);
    expect(await (await redeem(second)).json()).toMatchObject({ error: "invalid_grant" });
    const third = (await followDiscordAuthorization(authorizeUrl())).searchParams.get("code")!;
    expect((await redeem(third, { client_secret: "wrong" }, false)).status).toBe(401);
  });

  test("a PKCE code_challenge is checked against the code_verifier", async () => {
    const verifier = "a".repeat(43);
    const challenge = new Bun.CryptoHasher("sha256").update(verifier).digest("base64url");
    const pkce = { code_challenge: challenge, code_challenge_method: "S256" };
    const bad = (await followDiscordAuthorization(authorizeUrl(pkce))).searchParams.get("code")!;
    expect((await redeem(bad, { code_verifier: "b".repeat(43) })).status).toBe(400);
    const good = (await followDiscordAuthorization(authorizeUrl(pkce))).searchParams.get("code")!;
    expect((await redeem(good, { code_verifier: verifier })).status).toBe(200);
  });

  test("@me refuses a missing or unknown bearer token", async () => {
    expect((await fetch(`${discord.baseUrl}/api/users/@me`)).status).toBe(401);
    expect((await me("not-a-token")).status).toBe(401);
  });

  test("an unknown client_id is refused at authorize", async () => {
    await expect(followDiscordAuthorization(authorizeUrl({ client_id: "1" }))).rejects.toThrow(/400/);
  });
});
