// Claim rules: what a provider's claims grant on the panel (docs/accounts.md "Claim rules"). A rule
// matches on the ID token's claims (or the OAuth2 user object) by a dotted path: equals, contains
// (in a list or a text), matches (a pattern, RE2's engine: linear time whatever the pattern), exists,
// and and/or/not of those; it grants panel scopes and flags on named servers; `revoke` takes back
// what it granted when it no longer matches at a later login. Pure: the panel's service applies it.
import { z } from "../zod";
import { KilnError } from "../errors";
import { compilePattern } from "../patterns";
import { isScope } from "../scopes";
import { SERVER_FLAGS } from "../scopes";

export type ClaimMatch =
  | { claim: string; equals: string | number | boolean }
  | { claim: string; contains: string }
  | { claim: string; matches: string }
  | { claim: string; exists: boolean }
  | { and: ClaimMatch[] }
  | { or: ClaimMatch[] }
  | { not: ClaimMatch };

export interface ClaimRule {
  match: ClaimMatch;
  grant: { scopes?: string[]; roles?: string[]; servers?: { serverId: string; flags: string[] }[] };
  revoke: boolean;
}

const MAX_RULES = 50;
const MAX_DEPTH = 5;
const claimPath = z.string().check(z.minLength(1), z.maxLength(200), z.regex(/^[A-Za-z0-9_:\-]+(\.[A-Za-z0-9_:\-]+)*$/));

const matchSchema: z.ZodMiniType<ClaimMatch> = z.lazy(() =>
  z.union([
    z.strictObject({ claim: claimPath, equals: z.union([z.string().check(z.maxLength(500)), z.number(), z.boolean()]) }),
    z.strictObject({ claim: claimPath, contains: z.string().check(z.maxLength(500)) }),
    z.strictObject({ claim: claimPath, matches: z.string().check(z.minLength(1), z.maxLength(200)) }),
    z.strictObject({ claim: claimPath, exists: z.boolean() }),
    z.strictObject({ and: z.array(matchSchema).check(z.minLength(1), z.maxLength(20)) }),
    z.strictObject({ or: z.array(matchSchema).check(z.minLength(1), z.maxLength(20)) }),
    z.strictObject({ not: matchSchema }),
  ]),
) as z.ZodMiniType<ClaimMatch>;

const ruleSchema = z.strictObject({
  match: matchSchema,
  grant: z.strictObject({
    scopes: z.optional(z.array(z.string().check(z.maxLength(64))).check(z.maxLength(20))),
    /** Roles by name (services/roles); one that does not exist grants nothing. */
    roles: z.optional(z.array(z.string().check(z.minLength(1), z.maxLength(60))).check(z.maxLength(20))),
    servers: z.optional(z.array(z.strictObject({ serverId: z.string().check(z.minLength(1), z.maxLength(64)), flags: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(SERVER_FLAGS.length)) })).check(z.maxLength(50))),
  }),
  revoke: z._default(z.boolean(), false),
});
export const claimRulesSchema = z.array(ruleSchema).check(z.maxLength(MAX_RULES));

/** Rules as stored: each scope, flag and pattern checked (a pattern RE2 refuses: ErrFieldNotBetween naming it). */
export function parseClaimRules(raw: unknown): ClaimRule[] {
  const parsed = claimRulesSchema.safeParse(raw);
  if (!parsed.success) throw new KilnError("ErrFieldNotBetween", { field: `rules.${parsed.error.issues[0]!.path.join(".")}` });
  parsed.data.forEach((rule, i) => {
    for (const scope of rule.grant.scopes ?? []) if (!isScope(scope)) throw new KilnError("ErrFieldNotBetween", { field: `rules.${i}.grant.scopes` });
    for (const server of rule.grant.servers ?? []) for (const flag of server.flags) if (!(SERVER_FLAGS as readonly string[]).includes(flag)) throw new KilnError("ErrFieldNotBetween", { field: `rules.${i}.grant.servers` });
    checkMatch(rule.match, `rules.${i}.match`, 0);
  });
  return parsed.data as ClaimRule[];
}

function checkMatch(match: ClaimMatch, field: string, depth: number): void {
  if (depth > MAX_DEPTH) throw new KilnError("ErrFieldNotBetween", { field });
  if ("matches" in match) {
    try {
      compilePattern(match.matches);
    } catch {
      throw new KilnError("ErrFieldNotBetween", { field: `${field}.matches` });
    }
  }
  if ("and" in match) match.and.forEach((m, i) => checkMatch(m, `${field}.and.${i}`, depth + 1));
  if ("or" in match) match.or.forEach((m, i) => checkMatch(m, `${field}.or.${i}`, depth + 1));
  if ("not" in match) checkMatch(match.not, `${field}.not`, depth + 1);
}

/** The value at a dotted path ("realm_access.roles"), or undefined; never a prototype's. */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let value: unknown = claims;
  for (const part of path.split(".")) {
    if (!value || typeof value !== "object" || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

export function claimMatches(match: ClaimMatch, claims: Record<string, unknown>): boolean {
  if ("and" in match) return match.and.every((m) => claimMatches(m, claims));
  if ("or" in match) return match.or.some((m) => claimMatches(m, claims));
  if ("not" in match) return !claimMatches(match.not, claims);
  const value = claimAt(claims, match.claim);
  const values = Array.isArray(value) ? value : [value];
  if ("exists" in match) return (value !== undefined && value !== null) === match.exists;
  if ("equals" in match) return values.some((v) => v === match.equals);
  if ("contains" in match) return Array.isArray(value) ? value.some((v) => v === match.contains) : typeof value === "string" && value.includes(match.contains);
  const pattern = compilePattern(match.matches);
  return values.some((v) => typeof v === "string" && v.length <= 1000 && pattern.test(v));
}

/** A rule's key: grants are kept under it, so an edited rule's old grants are known as its own no longer. */
export function ruleKey(rule: ClaimRule): string {
  return JSON.stringify(rule);
}
