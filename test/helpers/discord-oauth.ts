// A stand-in for Discord's OAuth2 (plain OAuth2, not OpenID Connect: no ID token, no discovery),
// for the "log in with Discord" tests. baseUrl replaces https://discord.com, and the paths are
// Discord's own: GET /oauth2/authorize (here it consents at once and redirects back with code and
// state), POST /api/oauth2/token (form body, client_secret_basic or _post), and
// GET /api/users/@me (the user object, email/verified only with the `email` scope).
// Codes are single-use and bound to their redirect_uri, as Discord's are; a PKCE code_challenge,
// when sent, is checked against the code_verifier.
import { createHash, randomBytes } from "node:crypto";

export interface DiscordUser { id: string; username: string; global_name?: string | null; email?: string | null; verified?: boolean; avatar?: string | null }

export interface DiscordFixture {
  /** Stands for https://discord.com. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** Who "authorizes" at the next /oauth2/authorize. */
  setUser(user: DiscordUser): void;
  stop(): void;
}

/** Discord's error shape for /api/oauth2/token. */
const oauthError = (error: string, description: string, status = 400) =>
  Response.json({ error, error_description: description }, { status });

export async function startDiscordFixture(): Promise<DiscordFixture> {
  const clientId = String(100000000000000000n + BigInt(Math.floor(Math.random() * 1e15))); // a snowflake-like id
  const clientSecret = randomBytes(24).toString("base64url");
  let user: DiscordUser = { id: "80351110224678912", username: "nelly", email: "nelly@example.com", verified: true };
  const codes = new Map<string, { user: DiscordUser; redirectUri: string; scope: string; challenge: string | null }>();
  const tokens = new Map<string, { user: DiscordUser; scope: string }>();

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const url = new URL(req.url);
      switch (`${req.method} ${url.pathname}`) {
        case "GET /oauth2/authorize": {
          const q = url.searchParams;
          const redirectUri = q.get("redirect_uri");
          if (q.get("client_id") !== clientId) return new Response("Unknown Application", { status: 400 });
          if (q.get("response_type") !== "code" || !redirectUri) return new Response("Invalid OAuth2 request", { status: 400 });
          const code = randomBytes(15).toString("base64url");
          codes.set(code, { user, redirectUri, scope: q.get("scope") ?? "identify", challenge: q.get("code_challenge") });
          const back = new URL(redirectUri);
          back.searchParams.set("code", code);
          if (q.has("state")) back.searchParams.set("state", q.get("state")!);
          return Response.redirect(back.href, 302);
        }
        case "POST /api/oauth2/token": {
          const form = new URLSearchParams(await req.text());
          const [id, secret] = clientCredentials(req, form);
          if (id !== clientId || secret !== clientSecret) return oauthError("invalid_client", "Unknown client", 401);
          if (form.get("grant_type") !== "authorization_code") return oauthError("unsupported_grant_type", "Unsupported grant type");
          const code = form.get("code") ?? "";
          const grant = codes.get(code);
          codes.delete(code); // single use
          if (!grant) return oauthError("invalid_grant", 'Invalid "code" in request.');
          if (form.get("redirect_uri") !== grant.redirectUri) return oauthError("invalid_grant", 'Invalid "redirect_uri" in request.');
          if (grant.challenge !== null && createHash("sha256").update(form.get("code_verifier") ?? "").digest("base64url") !== grant.challenge) {
            return oauthError("invalid_grant", 'Invalid "code_verifier" in request.');
          }
          const accessToken = randomBytes(20).toString("base64url");
          tokens.set(accessToken, { user: grant.user, scope: grant.scope });
          return Response.json({ access_token: accessToken, token_type: "Bearer", expires_in: 604800, refresh_token: randomBytes(20).toString("base64url"), scope: grant.scope });
        }
        case "GET /api/users/@me": {
          const token = tokens.get(req.headers.get("authorization")?.match(/^Bearer (.+)$/)?.[1] ?? "");
          if (!token) return Response.json({ message: "401: Unauthorized", code: 0 }, { status: 401 });
          const u = token.user;
          const body: Record<string, unknown> = { id: u.id, username: u.username, global_name: u.global_name === undefined ? u.username : u.global_name, avatar: u.avatar ?? null, discriminator: "0" };
          if (token.scope.split(" ").includes("email")) Object.assign(body, { email: u.email ?? null, verified: u.verified ?? false });
          return Response.json(body);
        }
      }
      return Response.json({ message: "404: Not Found", code: 0 }, { status: 404 });
    },
  });

  return {
    baseUrl: `http://127.0.0.1:${server.port}`,
    clientId,
    clientSecret,
    setUser(next) {
      user = next;
    },
    stop: () => void server.stop(true),
  };
}

/** The client id and secret from HTTP Basic or from the form body (Discord accepts both). */
function clientCredentials(req: Request, form: URLSearchParams): [string | null, string | null] {
  const basic = req.headers.get("authorization")?.match(/^Basic (.+)$/i)?.[1];
  if (!basic) return [form.get("client_id"), form.get("client_secret")];
  const decoded = Buffer.from(basic, "base64").toString();
  const colon = decoded.indexOf(":");
  try {
    return [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
  } catch {
    return [null, null]; // badly encoded: no credentials
  }
}

/** Follows a Discord authorization URL (consent is automatic, for the user set with setUser) and returns where Discord sends the browser: the redirect_uri with code and state. */
export async function followDiscordAuthorization(authorizationUrl: string): Promise<URL> {
  const res = await fetch(authorizationUrl, { redirect: "manual" });
  const location = res.headers.get("location");
  if (res.status < 300 || res.status >= 400 || !location) {
    throw new Error(`Discord stand-in answered ${res.status} instead of redirecting: ${(await res.text()).slice(0, 300)}`);
  }
  return new URL(location, authorizationUrl);
}
