// A hand-written, deliberately misbehaving OpenID Connect provider for the single sign-on ATTACK
// tests. A real provider (test/helpers/oidc-provider.ts) never issues a bad ID token, so the
// relying party's checks could not fail for the right reason against it; this one answers the
// token request with whatever ID token the test chooses: correctly signed, signed with a key it
// does not publish, unsigned (alg "none"), for another audience or issuer, expired, with a
// missing or wrong nonce, with an unverified email. Its token endpoint also redeems the same code
// any number of times, so a test can show the relying party itself refuses a replayed callback.
//
// Tokens are signed by hand (RS256 = RSASSA-PKCS1-v1_5 over SHA-256, node:crypto), so nothing
// here relies on a JOSE library that might refuse to build the broken ones.
import { generateKeyPairSync, randomBytes, randomUUID, sign as rsaSign, type KeyObject } from "node:crypto";

export interface IdTokenContext {
  /** The nonce the authorization request carried (undefined if it carried none). */
  nonce: string | undefined;
  clientId: string;
  issuer: string;
  /** Signed with the published key (RS256, its kid). */
  sign: (claims: object) => string;
  /** Signed with a key that is NOT published, but under the published key's kid. */
  signWithOtherKey: (claims: object) => string;
  /** `alg: "none"`, empty signature. */
  unsigned: (claims: object) => string;
}

export interface RogueOidc {
  issuer: string;
  clientId: string; clientSecret: string;
  /** How the next token answer's id_token is made; `nonce` is the one the authorization request carried. Applies to every token answer from now on, until called again (initially `rogueTokens.valid`). */
  nextIdToken(make: (ctx: IdTokenContext) => string): void;
  /** The codes the token endpoint accepted, to check a replay is refused by the relying party, not only the provider. */
  accepted: string[];
  /** From now on the answer at `path` (or none, with null) is a JSON document that never ends: `{"a":"` and then spaces, 64 KiB at a time, until the reader stops. */
  answerEndlessly(path: string | null): void;
  /** How many bytes endless answers have sent so far. */
  endlessBytesSent(): number;
  stop(): void;
}

/** The claims of a good ID token for ctx (sub "rogue-user", a verified email), with overrides; an override of `undefined` removes the claim. */
export function validClaims(ctx: IdTokenContext, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    iss: ctx.issuer, aud: ctx.clientId, sub: "rogue-user", iat: now, exp: now + 300, nonce: ctx.nonce,
    email: "rogue@example.com", email_verified: true, preferred_username: "rogue", ...overrides,
  };
  for (const [key, value] of Object.entries(claims)) if (value === undefined) delete claims[key];
  return claims;
}

/** Ready-made token makers for nextIdToken: one good, the others each broken in one way. */
export const rogueTokens = {
  valid: (ctx: IdTokenContext) => ctx.sign(validClaims(ctx)),
  otherKey: (ctx: IdTokenContext) => ctx.signWithOtherKey(validClaims(ctx)),
  algNone: (ctx: IdTokenContext) => ctx.unsigned(validClaims(ctx)),
  wrongAudience: (ctx: IdTokenContext) => ctx.sign(validClaims(ctx, { aud: "some-other-client" })),
  wrongIssuer: (ctx: IdTokenContext) => ctx.sign(validClaims(ctx, { iss: "https://evil.example" })),
  expired: (ctx: IdTokenContext) => {
    const now = Math.floor(Date.now() / 1000);
    return ctx.sign(validClaims(ctx, { iat: now - 7200, exp: now - 3600 }));
  },
  missingNonce: (ctx: IdTokenContext) => ctx.sign(validClaims(ctx, { nonce: undefined })),
  wrongNonce: (ctx: IdTokenContext) => ctx.sign(validClaims(ctx, { nonce: randomBytes(16).toString("base64url") })),
  unverifiedEmail: (ctx: IdTokenContext) => ctx.sign(validClaims(ctx, { email_verified: false })),
} satisfies Record<string, (ctx: IdTokenContext) => string>;

const b64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
const jws = (header: object, claims: object, key: KeyObject) => {
  const input = `${b64url(header)}.${b64url(claims)}`;
  return `${input}.${rsaSign("sha256", Buffer.from(input), key).toString("base64url")}`;
};

/** A JWT's claims, unverified (for userinfo); {} when the test's token is not a JWT at all. */
function payloadOf(jwt: string): unknown {
  try {
    return JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString());
  } catch {
    return {};
  }
}

export async function startRogueOidc(): Promise<RogueOidc> {
  const published = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const kid = randomUUID();
  const clientId = "kiln-panel";
  const clientSecret = randomBytes(24).toString("base64url");
  const nonces = new Map<string, string | undefined>(); // code → the authorization request's nonce
  const userinfo = new Map<string, unknown>(); // access token → the claims of the id_token issued with it
  const accepted: string[] = [];
  let make: (ctx: IdTokenContext) => string = rogueTokens.valid;
  let issuer = ""; // http://127.0.0.1:<port>, once listening
  let endlessPath: string | null = null;
  let endlessSent = 0;
  const endless = () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    return new Response(
      new ReadableStream({
        start(controller) {
          controller.enqueue(new TextEncoder().encode('{"a":"'));
        },
        pull(controller) {
          endlessSent += chunk.byteLength;
          controller.enqueue(chunk);
        },
      }),
      { headers: { "content-type": "application/json" } },
    );
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req: Request): Promise<Response> => {
      const url = new URL(req.url);
      if (url.pathname === endlessPath) return endless();
      switch (`${req.method} ${url.pathname}`) {
        case "GET /.well-known/openid-configuration":
          return Response.json({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            jwks_uri: `${issuer}/jwks`,
            userinfo_endpoint: `${issuer}/userinfo`,
            response_types_supported: ["code"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
            code_challenge_methods_supported: ["S256"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
            scopes_supported: ["openid", "email", "profile"],
          });
        case "GET /jwks":
          return Response.json({ keys: [{ ...published.publicKey.export({ format: "jwk" }), kid, alg: "RS256", use: "sig" }] });
        case "GET /authorize": {
          // No login at all: straight back to the relying party with a fresh code.
          const redirectUri = url.searchParams.get("redirect_uri");
          if (!redirectUri) return new Response("redirect_uri missing", { status: 400 });
          const code = randomBytes(16).toString("base64url");
          nonces.set(code, url.searchParams.get("nonce") ?? undefined);
          const back = new URL(redirectUri);
          back.searchParams.set("code", code);
          const state = url.searchParams.get("state");
          if (state !== null) back.searchParams.set("state", state);
          return Response.redirect(back.href, 302);
        }
        case "POST /token": {
          // Any client authentication is accepted, and a code as often as it is presented.
          const code = new URLSearchParams(await req.text()).get("code");
          if (code === null || !nonces.has(code)) return Response.json({ error: "invalid_grant" }, { status: 400 });
          accepted.push(code);
          const idToken = make({
            nonce: nonces.get(code),
            clientId,
            issuer,
            sign: (claims) => jws({ alg: "RS256", typ: "JWT", kid }, claims, published.privateKey),
            signWithOtherKey: (claims) => jws({ alg: "RS256", typ: "JWT", kid }, claims, other.privateKey),
            unsigned: (claims) => `${b64url({ alg: "none", typ: "JWT" })}.${b64url(claims)}.`,
          });
          const accessToken = randomBytes(16).toString("base64url");
          userinfo.set(accessToken, payloadOf(idToken));
          return Response.json(
            { access_token: accessToken, token_type: "Bearer", expires_in: 300, id_token: idToken },
            { headers: { "cache-control": "no-store" } },
          );
        }
        case "GET /userinfo": {
          const claims = userinfo.get(req.headers.get("authorization")?.replace(/^Bearer /i, "") ?? "");
          return claims ? Response.json(claims) : new Response(null, { status: 401, headers: { "www-authenticate": 'Bearer error="invalid_token"' } });
        }
      }
      return new Response("not found", { status: 404 });
    },
  });
  issuer = `http://127.0.0.1:${server.port}`;

  return {
    issuer,
    clientId,
    clientSecret,
    nextIdToken(maker) {
      make = maker;
    },
    answerEndlessly(path) {
      endlessPath = path;
    },
    endlessBytesSent: () => endlessSent,
    accepted,
    stop: () => void server.stop(true),
  };
}
