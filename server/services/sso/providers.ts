// Identity providers an administrator adds: OpenID Connect (any issuer with discovery) and the
// OAuth2-only services communities use (Discord, GitHub). The client secret is write-only: reading
// a provider tells only that it is set. An issuer must be https, except on a loopback address (a
// provider on the same machine, as tests run one).
import { asc, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KeptRead } from "../../../db/kept";
import { z } from "../../../core/zod";
import { KilnError } from "../../../core/errors";
import { parseWith } from "../../../core/validation/parse";
import { canonicalHost, refusedAddress } from "../../../core/net/address-rules";
import { recordEvent } from "../activity/record";
import { forgetClient } from "./client";
import { withdrawProvider } from "./grants";
import { endLoginsOf } from "./end-logins";
import { parseClaimRules, type ClaimRule } from "../../../core/sso/claim-rules";
import { hasScope, type Scope } from "../../../core/scopes";

export const PROVIDER_TYPES = ["oidc", "discord", "github"] as const;
export type ProviderType = (typeof PROVIDER_TYPES)[number];
/** What each type asks for when the administrator names no scopes. */
const DEFAULT_SCOPES: Record<ProviderType, string> = { oidc: "openid email profile", discord: "identify email", github: "read:user user:email" };

const id = z.string().check(z.regex(/^[a-z0-9][a-z0-9-]{0,39}$/));
const text = (max: number) => z.string().check(z.trim(), z.minLength(1), z.maxLength(max));
const scopes = z.string().check(z.trim(), z.maxLength(500), z.regex(/^[\x21-\x7e]+( [\x21-\x7e]+)*$/));
const fields = {
  name: text(60),
  type: z.enum(PROVIDER_TYPES),
  issuer: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
  clientId: text(500),
  clientSecret: text(2000),
  scopes: z.optional(scopes),
  enabled: z.optional(z.boolean()),
  allowRegistration: z.optional(z.boolean()),
  trustEmail: z.optional(z.boolean()),
  satisfiesTwoFactor: z.optional(z.boolean()),
  rules: z.optional(z.unknown()),
  /** 0: claims are read at each login only; else between logins too, with the refresh token, at least 5 minutes apart. */
  refreshMinutes: z.optional(z.number().check(z.int(), z.minimum(0), z.maximum(10_080), z.refine((n) => n === 0 || n >= 5))),
};
const createSchema = z.object({ id, ...fields });
const updateSchema = z.partial(z.object(fields));

export type ProviderRow = typeof schema.authProviders.$inferSelect;

export interface ProviderView {
  id: string;
  name: string;
  type: ProviderType;
  issuer: string | null;
  clientId: string;
  clientSecretSet: true;
  scopes: string;
  enabled: boolean;
  allowRegistration: boolean;
  trustEmail: boolean;
  satisfiesTwoFactor: boolean;
  rules: ClaimRule[];
  refreshMinutes: number;
}

export function providerView(row: ProviderRow): ProviderView {
  return { id: row.id, name: row.name, type: row.type, issuer: row.issuer, clientId: row.clientId, clientSecretSet: true, scopes: row.scopes, enabled: row.enabled, allowRegistration: row.allowRegistration, trustEmail: row.trustEmail, satisfiesTwoFactor: row.satisfiesTwoFactor, rules: rulesOf(row), refreshMinutes: row.refreshMinutes };
}

/** The provider's claim rules as stored (checked when they were saved). */
export function rulesOf(row: ProviderRow): ClaimRule[] {
  return JSON.parse(row.rules) as ClaimRule[];
}

export async function listProviders(db: Db): Promise<ProviderView[]> {
  return (await db.select().from(schema.authProviders).orderBy(asc(schema.authProviders.name)).all()).map(providerView);
}

/** Every login page shows them: kept in memory (db/kept), read again after any provider's change. */
const offered = new KeptRead("sso-providers", async (db) =>
  (await db.select({ id: schema.authProviders.id, name: schema.authProviders.name, type: schema.authProviders.type, enabled: schema.authProviders.enabled }).from(schema.authProviders).orderBy(asc(schema.authProviders.name)).all())
    .filter((p) => p.enabled)
    .map(({ id, name, type }) => ({ id, name, type })),
);

/** The providers a login page offers: enabled ones, by name. */
export async function loginProviders(db: Db): Promise<{ id: string; name: string; type: ProviderType }[]> {
  return await offered.get(db);
}

/** `write` changes the providers; whatever its outcome, every panel reads the offered ones again. */
async function changing<T>(db: Db, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } finally {
    await offered.written(db);
  }
}

export async function providerRow(db: Db, providerId: string): Promise<ProviderRow> {
  const row = await db.select().from(schema.authProviders).where(eq(schema.authProviders.id, providerId)).get();
  if (!row) throw new KilnError("ErrNotFound", { id: providerId });
  return row;
}

/** Whoever writes a provider's rules (an administrator) must outrank every role and scope they grant: nobody hands out more than they hold. */
export interface RuleAuthor {
  scopes: readonly string[];
}

export async function createProvider(db: Db, author: RuleAuthor, body: unknown): Promise<ProviderView> {
  const input = parseWith(createSchema, body);
  if (await db.select({ id: schema.authProviders.id }).from(schema.authProviders).where(eq(schema.authProviders.id, input.id)).get()) throw new KilnError("ErrFieldNotBetween", { field: "id" }, "a provider with this id exists");
  const rules = JSON.stringify(await authored(db, author, input.rules ?? []));
  const row = await changing(db, () => db
    .insert(schema.authProviders)
    .values({
      id: input.id,
      name: input.name,
      type: input.type,
      issuer: issuerOf(input.type, input.issuer),
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      scopes: input.scopes || DEFAULT_SCOPES[input.type],
      enabled: input.enabled ?? true,
      allowRegistration: input.allowRegistration ?? false,
      trustEmail: input.trustEmail ?? false,
      satisfiesTwoFactor: input.satisfiesTwoFactor ?? false,
      rules,
      refreshMinutes: input.refreshMinutes ?? 0,
      createdAt: Date.now(),
    })
    .returning()
    .get());
  await recordEvent(db, "sso.provider.created", { properties: { provider: row.id, name: row.name, type: row.type } });
  return providerView(row);
}

/** `keepToken`: the session making the change, which disabling the provider does not end (./end-logins). */
export async function updateProvider(db: Db, author: RuleAuthor, providerId: string, body: unknown, keepToken?: string): Promise<ProviderView> {
  const before = await providerRow(db, providerId);
  const input = parseWith(updateSchema, body);
  const type = input.type ?? before.type;
  const next = {
    ...(input.name !== undefined ? { name: input.name } : {}),
    type,
    issuer: input.issuer !== undefined || input.type !== undefined ? issuerOf(type, input.issuer ?? before.issuer) : before.issuer,
    ...(input.clientId !== undefined ? { clientId: input.clientId } : {}),
    ...(input.clientSecret !== undefined ? { clientSecret: input.clientSecret } : {}),
    ...(input.scopes !== undefined ? { scopes: input.scopes || DEFAULT_SCOPES[type] } : {}),
    ...(input.enabled !== undefined ? { enabled: input.enabled } : {}),
    ...(input.allowRegistration !== undefined ? { allowRegistration: input.allowRegistration } : {}),
    ...(input.trustEmail !== undefined ? { trustEmail: input.trustEmail } : {}),
    ...(input.satisfiesTwoFactor !== undefined ? { satisfiesTwoFactor: input.satisfiesTwoFactor } : {}),
    ...(input.rules !== undefined ? { rules: JSON.stringify(await authored(db, author, input.rules)) } : {}),
    ...(input.refreshMinutes !== undefined ? { refreshMinutes: input.refreshMinutes } : {}),
  };
  // Another issuer (or type) is another namespace of subjects: its "alice" is not the alice linked
  // here. Kept links would hand it her account; dropped ones would strand the accounts that log in
  // only through it. So a provider with linked accounts keeps its issuer: another issuer is another provider.
  if ((next.issuer !== before.issuer || next.type !== before.type) && (await db.select({ userId: schema.userIdentities.userId }).from(schema.userIdentities).where(eq(schema.userIdentities.providerId, providerId)).get())) {
    throw new KilnError("ErrSsoProviderLinked", { provider: before.name });
  }
  const row = (await changing(db, () => db.update(schema.authProviders).set(next).where(eq(schema.authProviders.id, providerId)).returning().get()))!;
  forgetClient(providerId);
  // Disabled: no login or refresh through it vouches for its claims any more, so what its
  // revocable rules granted goes (a login after it is enabled again grants it anew).
  if (before.enabled && !row.enabled) {
    await withdrawFromEveryone(db, row);
    // Nor does any session it made: a provider disabled as no longer trusted signed in as anyone linked.
    await endLoginsOf(db, await linkedAccounts(db, providerId), keepToken);
  }
  await recordEvent(db, "sso.provider.changed", { properties: { provider: providerId, name: row.name, fields: Object.keys(input).filter((k) => k !== "clientSecret").concat(input.clientSecret !== undefined ? ["clientSecret"] : []) } });
  return providerView(row);
}

/**
 * Deleting a provider unlinks it from every account (its identities go with it), and takes back
 * what its revocable rules granted first: the grant rows go with the provider, and rights left
 * without them would look hand-given, never to be taken back by a rule, a refresh or an unlink.
 */
export async function deleteProvider(db: Db, providerId: string, keepToken?: string): Promise<void> {
  const row = await providerRow(db, providerId);
  await withdrawFromEveryone(db, row);
  // Read before the identities go with the provider: the sessions it made end with it (./end-logins).
  const linked = await linkedAccounts(db, providerId);
  await changing(db, () => db.delete(schema.authProviders).where(eq(schema.authProviders.id, providerId)).run());
  forgetClient(providerId);
  await endLoginsOf(db, linked, keepToken);
  await recordEvent(db, "sso.provider.deleted", { properties: { provider: providerId } });
}

/** The accounts the provider signs in as. */
async function linkedAccounts(db: Db, providerId: string): Promise<number[]> {
  return (await db.selectDistinct({ userId: schema.userIdentities.userId }).from(schema.userIdentities).where(eq(schema.userIdentities.providerId, providerId)).all()).map((r) => r.userId);
}

/** Takes back, from every account, what the provider's revocable rules granted. */
async function withdrawFromEveryone(db: Db, provider: ProviderRow): Promise<void> {
  const holders = await db.selectDistinct({ userId: schema.ssoGrants.userId }).from(schema.ssoGrants).where(eq(schema.ssoGrants.providerId, provider.id)).all();
  for (const { userId } of holders) await withdrawProvider(db, provider.id, rulesOf(provider), userId);
}

/** Rules as parsed, when their author holds every scope they grant, directly or through a named role. */
async function authored(db: Db, author: RuleAuthor, raw: unknown): Promise<ClaimRule[]> {
  const rules = parseClaimRules(raw);
  for (const rule of rules) {
    const roleScopes: string[] = [];
    for (const name of rule.grant.roles ?? []) {
      const role = await db.select({ scopes: schema.roles.scopes }).from(schema.roles).where(eq(schema.roles.name, name)).get();
      if (role) roleScopes.push(...(JSON.parse(role.scopes) as string[]));
    }
    for (const scope of [...(rule.grant.scopes ?? []), ...roleScopes]) if (!hasScope(author.scopes, scope as Scope)) throw new KilnError("ErrMissingScope", { scope });
  }
  return rules;
}

/** An OIDC issuer as discovery will use it; OAuth2-only types take none. */
function issuerOf(type: ProviderType, issuer: string | null | undefined): string | null {
  if (type !== "oidc") return null;
  if (!issuer) throw new KilnError("ErrFieldRequired", { field: "issuer" });
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new KilnError("ErrFieldIsInvalidHost", { field: "issuer" });
  }
  if (url.username || url.password || url.search || url.hash || (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname)))) throw new KilnError("ErrFieldIsInvalidHost", { field: "issuer" });
  return url.toString().replace(/\/$/, "");
}

/** http is allowed for an issuer on this machine's loopback only: nothing on the way can read it. */
export function isLoopback(hostname: string): boolean {
  const host = canonicalHost(hostname);
  return host === "localhost" || (host !== null && refusedAddress(host) === "loopback");
}
