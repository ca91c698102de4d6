// Who the provider says logged in, read the same way for every kind of provider: its stable
// subject, an email and whether the provider verified it, a name to suggest, and whether a second
// factor was checked (OpenID Connect's amr). Discord's and GitHub's APIs are asked with the
// access token; their answers are another machine's and are checked field by field.
import * as oidc from "openid-client";
import { KilnError } from "../../../core/errors";
import type { ProviderRow } from "./providers";
import { SSO_ANSWER_CAP, type SsoSources } from "./client";
import { readCapped } from "../../../core/net/capped-answer";

export interface ProviderIdentity {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  username: string | null;
  /** The provider checked a second factor (amr names mfa, otp, hwk, swk, sms or fpt). */
  multiFactor: boolean;
  /** When the person last gave the provider their credentials (OpenID Connect's auth_time, in ms); null when it does not say. */
  authTime: number | null;
  /** Everything the provider said (the ID token's claims, or the user object), for claim rules. */
  claims: Record<string, unknown>;
}

const MFA_METHODS = new Set(["mfa", "otp", "hwk", "swk", "sms", "fpt", "face", "iris", "retina", "sc"]);
const TIMEOUT_MS = 10_000;

export async function identityOf(provider: ProviderRow, config: oidc.Configuration, tokens: oidc.TokenEndpointResponse & oidc.TokenEndpointResponseHelpers, sources: SsoSources): Promise<ProviderIdentity> {
  if (provider.type === "oidc") {
    const idClaims = tokens.claims();
    // OpenID Connect Core 2: a subject is at most 255 ASCII characters; it keys the identity's row.
    if (!idClaims || !/^[\x20-\x7e]{1,255}$/.test(idClaims.sub)) throw new KilnError("ErrSsoFailed", { reason: "id_token" });
    let claims: Record<string, unknown> = { ...idClaims };
    // Some providers put the email in userinfo only.
    if (typeof claims.email !== "string") claims = { ...(await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub).catch(() => ({}))), ...claims };
    const amr = Array.isArray(claims.amr) ? claims.amr.filter((m): m is string => typeof m === "string") : [];
    return { subject: idClaims.sub, email: text(claims.email), emailVerified: claims.email_verified === true, username: text(claims.preferred_username) ?? text(claims.nickname) ?? text(claims.name), multiFactor: amr.some((m) => MFA_METHODS.has(m)), authTime: typeof claims.auth_time === "number" && Number.isFinite(claims.auth_time) ? claims.auth_time * 1000 : null, claims };
  }
  if (provider.type === "discord") {
    const user = await api(`${sources.discord}/api/users/@me`, tokens.access_token);
    const subject = text(user.id);
    if (!subject || !/^\d{1,25}$/.test(subject)) throw new KilnError("ErrSsoFailed", { reason: "userinfo" });
    return { subject, email: text(user.email), emailVerified: user.verified === true, username: text(user.username), multiFactor: user.mfa_enabled === true, authTime: null, claims: user };
  }
  const user = await api(`${sources.githubApi}/user`, tokens.access_token);
  const subject = typeof user.id === "number" ? String(user.id) : null;
  if (!subject) throw new KilnError("ErrSsoFailed", { reason: "userinfo" });
  const emails = await api(`${sources.githubApi}/user/emails`, tokens.access_token).catch(() => []);
  const primary = Array.isArray(emails) ? (emails as Record<string, unknown>[]).find((e) => e.primary === true && e.verified === true) : undefined;
  return { subject, email: text(primary?.email) ?? text(user.email), emailVerified: primary !== undefined, username: text(user.login), multiFactor: false, authTime: null, claims: user };
}

async function api(url: string, accessToken: string): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await fetch(url, { headers: { authorization: `Bearer ${accessToken}`, accept: "application/json", "user-agent": "Kiln" }, signal: AbortSignal.timeout(TIMEOUT_MS), redirect: "error" });
  } catch {
    throw new KilnError("ErrSsoFailed", { reason: "userinfo" });
  }
  const bytes = await readCapped(response, SSO_ANSWER_CAP).catch(() => null);
  let body: unknown = null;
  try {
    body = bytes === null ? null : JSON.parse(bytes.toString("utf8"));
  } catch {
    // Not JSON: refused below like any answer that is not an object.
  }
  if (!response.ok || !body || typeof body !== "object") throw new KilnError("ErrSsoFailed", { reason: "userinfo" });
  return body as Record<string, unknown>;
}

function text(value: unknown): string | null {
  return typeof value === "string" && value.length > 0 && value.length <= 320 ? value : null;
}
