// A real OpenID Connect provider (the `oidc-provider` package, the certified implementation) on
// 127.0.0.1, for the single sign-on tests: the panel's relying party talks to it exactly as it
// would to Keycloak or Authentik. Code flow (with refresh tokens), PKCE S256 required, one confidential client,
// claims email/profile/groups, and signing keys made fresh at start (rotateKeys makes new ones).
//
// No login page: the provider sends the browser to /interaction/<uid>, which this fixture answers
// itself, logging in the account given to setAccount and granting the requested scopes. So
// followAuthorization only has to follow redirects (keeping cookies) to reach the redirect_uri.
import { generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Provider } from "oidc-provider";

export interface OidcFixture {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who logs in at the next authorization request, and the claims the ID token and userinfo carry (email, email_verified, preferred_username, name, groups, amr, …). */
  setAccount(sub: string, claims: Record<string, unknown>): void;
  /** The account is gone at the provider: its refresh tokens are refused (invalid_grant). */
  removeAccount(sub: string): void;
  /** Replaces the signing key with a new one (new kid); the old one is no longer published. */
  rotateKeys(): Promise<void>;
  stop(): Promise<void>;
}

/** Which scope releases which claims (`groups` is a custom scope, as Authentik/Keycloak set up).
 *  acr/amr/auth_time come from the login (not the account) but are dropped from the ID token
 *  unless some scope names them. */
const CLAIMS = { openid: ["sub", "acr", "amr", "auth_time"], email: ["email", "email_verified"], profile: ["name", "preferred_username"], groups: ["groups"] };

/** oidc-provider warns on import that Bun is an "unsupported runtime"; load it with that one warning muted. */
let loaded: Promise<typeof Provider> | undefined;
function loadProvider(): Promise<typeof Provider> {
  loaded ??= (async () => {
    const warn = console.warn;
    console.warn = (...args: unknown[]) => {
      if (!String(args[0]).includes("Unsupported runtime")) warn(...args);
    };
    try {
      return (await import("oidc-provider")).default;
    } finally {
      console.warn = warn;
    }
  })();
  return loaded;
}

/** A fresh RS256 signing key as a private JWK with a new kid. */
function signingKey(): Record<string, unknown> {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  return { ...privateKey.export({ format: "jwk" }), kid: randomUUID(), alg: "RS256", use: "sig" };
}

export async function startOidcProvider(options: { redirectUris: string[]; clientId?: string; clientSecret?: string }): Promise<OidcFixture> {
  const Provider = await loadProvider();
  const { createMemoryAdapter } = await import("oidc-provider/lib/adapters/memory_adapter.js");
  const clientId = options.clientId ?? "kiln-panel";
  const clientSecret = options.clientSecret ?? randomBytes(24).toString("base64url");
  const accounts = new Map<string, Record<string, unknown>>();
  let current: string | undefined;
  // Kept across rotateKeys, so state made under the old provider (sessions, codes) still resolves.
  const adapter = createMemoryAdapter();

  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const build = (): Provider =>
    new Provider(issuer, {
      adapter,
      jwks: { keys: [signingKey()] },
      // No cookies.keys: signed cookies go through keygrip/tsscmp, whose crypto.pseudoRandomBytes
      // makes Bun print a deprecation warning; a test provider's cookies need no signature.
      clients: [{
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        // A client registered for basic is also accepted with client_secret_post (and vice versa).
        token_endpoint_auth_method: "client_secret_basic",
        id_token_signed_response_alg: "RS256",
      }],
      responseTypes: ["code"],
      clientAuthMethods: ["client_secret_basic", "client_secret_post"],
      pkce: { required: () => true }, // S256 is the only method oidc-provider 9 implements
      scopes: ["openid", "email", "profile", "groups"],
      claims: CLAIMS,
      conformIdTokenClaims: false, // put the scope's claims in the ID token too, not only userinfo
      features: { devInteractions: { enabled: false } },
      interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
      findAccount: (_ctx: unknown, sub: string) => {
        const claims = accounts.get(sub);
        if (!claims) return undefined;
        // amr/acr are the login's, passed in interact(); left out here so userinfo does not echo them.
        const { amr: _amr, acr: _acr, ...rest } = claims;
        return { accountId: sub, claims: () => ({ ...rest, sub }) };
      },
      // Explicit values, so oidc-provider does not print "you SHOULD change it" notices.
      ttl: { AccessToken: 3600, AuthorizationCode: 60, IdToken: 3600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 86400 },
      // A refresh token at every login (the panel keeps it only where a provider refreshes claims).
      issueRefreshToken: async () => true,
      clientBasedCORS: () => false,
    });
  let provider = build();
  let handle = provider.callback();

  /** The login/consent "page": logs in the current account and grants what was asked for. */
  async function interact(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    if (current === undefined) {
      await provider.interactionFinished(req, res, { error: "access_denied", error_description: "no account set (setAccount)" }, { mergeWithLastSubmission: false });
      return;
    }
    const claims = accounts.get(current) ?? {};
    const grant = new provider.Grant({ accountId: current, clientId: String(details.params.client_id) });
    grant.addOIDCScope(String(details.params.scope ?? "openid"));
    const amr = Array.isArray(claims.amr) ? claims.amr.map(String) : undefined;
    const acr = typeof claims.acr === "string" ? claims.acr : undefined;
    await provider.interactionFinished(req, res, { login: { accountId: current, amr, acr, remember: false }, consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: false });
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    if (req.url?.startsWith("/interaction/")) {
      interact(req, res).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(`interaction failed: ${String(error)}`);
      });
      return;
    }
    handle(req, res);
  });

  return {
    issuer,
    clientId,
    clientSecret,
    setAccount(sub, claims) {
      accounts.set(sub, claims);
      current = sub;
    },
    removeAccount(sub) {
      accounts.delete(sub);
    },
    async rotateKeys() {
      // oidc-provider reads its keys once, at construction: rotate by building a new provider
      // (same issuer, client and store) that publishes only the new key.
      provider = build();
      handle = provider.callback();
    },
    stop: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Follows an authorization URL through the provider (its interaction is completed automatically for the account set with setAccount) and returns the URL the provider redirects the browser to (the relying party's redirect_uri with code and state), without requesting it. */
export async function followAuthorization(authorizationUrl: string): Promise<URL> {
  const origin = new URL(authorizationUrl).origin;
  const jar = new CookieJar();
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header(url) } });
    jar.store(res.headers.getSetCookie());
    const location = res.headers.get("location");
    if (res.status < 300 || res.status >= 400 || !location) {
      throw new Error(`the provider answered ${res.status} at ${url.pathname} instead of redirecting: ${(await res.text()).slice(0, 500)}`);
    }
    url = new URL(location, url);
    if (url.origin !== origin) return url; // left the provider: this is the relying party's redirect_uri
  }
  throw new Error("too many redirects following the authorization");
}

/** Just enough of a browser's cookie jar for one login: name, value, path and deletion. */
class CookieJar {
  private cookies = new Map<string, { name: string; value: string; path: string }>();

  store(setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      let path = "/";
      let expired = value === "";
      for (const attribute of attributes) {
        const [key = "", val = ""] = attribute.split("=");
        if (key.toLowerCase() === "path") path = val;
        if (key.toLowerCase() === "max-age" && Number(val) <= 0) expired = true;
        if (key.toLowerCase() === "expires" && Date.parse(val) <= Date.now()) expired = true;
      }
      if (expired) this.cookies.delete(`${name};${path}`);
      else this.cookies.set(`${name};${path}`, { name, value, path });
    }
  }

  header(url: URL): string {
    return [...this.cookies.values()]
      .filter((c) => url.pathname === c.path || url.pathname.startsWith(c.path.endsWith("/") ? c.path : `${c.path}/`))
      .map((c) => `${c.name}=${c.value}`)
      .join("; ");
  }
}
