// How the panel speaks to one provider, through `openid-client` (a maintained implementation of
// the protocol; nothing here checks a token by hand). OpenID Connect providers come from their
// discovery document, with the ID token's signature checked against the provider's published keys
// (enableNonRepudiationChecks: the library skips it by default for tokens fetched over TLS) and
// the keys fetched again when a token names one not seen yet (rotation). Discord and GitHub speak
// OAuth2 only: their endpoints are written here, under base URLs the config can point elsewhere.
import * as oidc from "openid-client";
import { KilnError } from "../../../core/errors";
import { readCapped } from "../../../core/net/capped-answer";
import type { ProviderRow } from "./providers";
import { isLoopback } from "./providers";

export interface SsoSources {
  /** https://discord.com: /oauth2/authorize, /api/oauth2/token, /api/users/@me */
  discord: string;
  /** https://github.com: /login/oauth/authorize, /login/oauth/access_token */
  github: string;
  /** https://api.github.com: /user, /user/emails */
  githubApi: string;
}

export const DEFAULT_SSO_SOURCES: SsoSources = { discord: "https://discord.com", github: "https://github.com", githubApi: "https://api.github.com" };

/** Clock skew tolerated on token times (iat, exp, nbf), in seconds. */
const CLOCK_TOLERANCE_S = 60;

/** The most one answer of a provider may take (discovery, keys, tokens, user info: each a few KB). */
export const SSO_ANSWER_CAP = 1024 * 1024;

/**
 * The library's every request to a provider, its answer read to SSO_ANSWER_CAP first: a provider
 * (or whoever answers at its address) that sends without end fails the sign-in, it does not fill
 * the panel's memory for the ten seconds a request may take.
 */
export const cappedFetch: oidc.CustomFetch = async (url, options) => {
  const response = await fetch(url, options as RequestInit);
  const body = await readCapped(response, SSO_ANSWER_CAP);
  if (body === null) throw new KilnError("ErrSsoFailed", { reason: "answer too large" });
  return new Response(body.length > 0 ? new Uint8Array(body) : null, { status: response.status, statusText: response.statusText, headers: response.headers });
};

const configurations = new Map<string, Promise<oidc.Configuration>>();

/**
 * What a configuration is made from: a changed provider (another issuer, client or secret) never
 * finds the old one, nor does another panel's provider of the same id in this process (tests run
 * several panels in one).
 */
const keyOf = (provider: ProviderRow): string => JSON.stringify([provider.id, provider.type, provider.issuer, provider.clientId, provider.clientSecret]);

/** Drops what was fetched for a provider (its settings changed or it went). */
export function forgetClient(providerId: string): void {
  for (const key of configurations.keys()) if ((JSON.parse(key) as string[])[0] === providerId) configurations.delete(key);
}

/**
 * The provider's configuration. `fresh` fetches discovery (and so the signing keys) again: a login
 * is finished with a fresh one, so a key the provider rotated in without overlap is found at once
 * (the library's cache only looks again for an unknown key after 60 s). Logins are rare; two
 * requests more each are cheap.
 */
export function clientFor(provider: ProviderRow, sources: SsoSources, fresh = false): Promise<oidc.Configuration> {
  const key = keyOf(provider);
  const cached = fresh ? undefined : configurations.get(key);
  if (cached) return cached;
  const made = makeConfiguration(provider, sources);
  configurations.set(key, made);
  // A provider that did not answer is asked again next time.
  made.catch(() => configurations.get(key) === made && configurations.delete(key));
  return made;
}

async function makeConfiguration(provider: ProviderRow, sources: SsoSources): Promise<oidc.Configuration> {
  const insecure = (url: string) => new URL(url).protocol === "http:" && isLoopback(new URL(url).hostname);
  if (provider.type === "oidc") {
    const issuer = new URL(provider.issuer!);
    const execute = [oidc.enableNonRepudiationChecks, ...(insecure(provider.issuer!) ? [oidc.allowInsecureRequests] : [])];
    const config = await oidc.discovery(issuer, provider.clientId, metadata(provider), undefined, { execute, timeout: 10, [oidc.customFetch]: cappedFetch });
    config.timeout = 10;
    config[oidc.customFetch] = cappedFetch;
    return config;
  }
  const server: oidc.ServerMetadata =
    provider.type === "discord"
      ? { issuer: sources.discord, authorization_endpoint: `${sources.discord}/oauth2/authorize`, token_endpoint: `${sources.discord}/api/oauth2/token` }
      : { issuer: sources.github, authorization_endpoint: `${sources.github}/login/oauth/authorize`, token_endpoint: `${sources.github}/login/oauth/access_token` };
  const config = new oidc.Configuration(server, provider.clientId, metadata(provider), oidc.ClientSecretPost(provider.clientSecret));
  if (insecure(server.issuer)) oidc.allowInsecureRequests(config);
  config.timeout = 10;
  config[oidc.customFetch] = cappedFetch;
  return config;
}

function metadata(provider: ProviderRow): Partial<oidc.ClientMetadata> {
  return { client_secret: provider.clientSecret, [oidc.clockTolerance]: CLOCK_TOLERANCE_S };
}
