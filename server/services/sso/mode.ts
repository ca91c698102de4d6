// SSO-only mode: password logins (and self-registration) are off for every account but one
// break-glass administrator, who keeps their password for the day the provider is down. Kept
// beside the panel settings but written only here, where the one rule that stops a lockout holds:
// the mode is on only with a break-glass account that is an active administrator. Passkeys stay
// (they prove the account as a provider does); SFTP logins keep passwords (SFTP clients have no
// way to reach a provider).
import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { SCOPES } from "../../../core/scopes";
import { getSetting, setSetting } from "../settings";
import { ownScopesOf } from "../users/queries";
import { recordEvent } from "../activity/record";
import { settingsWritten } from "../settings/stored";

const ONLY = "panel.sso.only";
const BREAK_GLASS = "panel.sso.breakGlassUserId";

export interface SsoMode {
  ssoOnly: boolean;
  breakGlassUserId: number | null;
}

export async function ssoMode(db: Db): Promise<SsoMode> {
  const id = Number(await getSetting(db, BREAK_GLASS) ?? "");
  return { ssoOnly: await getSetting(db, ONLY) === "true", breakGlassUserId: Number.isInteger(id) && id > 0 ? id : null };
}

/** Only an administrator changes who may log in with a password (a settings editor may not lock the others out). */
export async function setSsoMode(db: Db, actor: { scopes: readonly string[] }, input: { ssoOnly?: unknown; breakGlassUserId?: unknown }): Promise<SsoMode> {
  if (!actor.scopes.includes(SCOPES.admin)) throw new KilnError("ErrMissingScope", { scope: SCOPES.admin });
  const current = await ssoMode(db);
  if (input.ssoOnly !== undefined && typeof input.ssoOnly !== "boolean") throw new KilnError("ErrFieldNotBetween", { field: "ssoOnly" });
  if (input.breakGlassUserId !== undefined && input.breakGlassUserId !== null && !(typeof input.breakGlassUserId === "number" && Number.isInteger(input.breakGlassUserId) && input.breakGlassUserId > 0)) throw new KilnError("ErrFieldNotBetween", { field: "breakGlassUserId" });
  const next: SsoMode = { ssoOnly: (input.ssoOnly as boolean | undefined) ?? current.ssoOnly, breakGlassUserId: input.breakGlassUserId === undefined ? current.breakGlassUserId : (input.breakGlassUserId as number | null) };
  if (next.ssoOnly) {
    const account = next.breakGlassUserId === null ? undefined : await db.select({ status: schema.users.status }).from(schema.users).where(eq(schema.users.id, next.breakGlassUserId)).get();
    // An administrator in its own right, not through a role: a role's change, or taking the role
    // away, would take it without passing the account's own guard (assertNotBreakGlass).
    if (!account || account.status !== "active" || !(await ownScopesOf(db, next.breakGlassUserId!)).includes(SCOPES.admin)) throw new KilnError("ErrFieldNotBetween", { field: "breakGlassUserId" }, "SSO-only mode needs a break-glass account that is an active administrator in its own right");
  }
  try {
    await db.transaction(async (tx) => {
      await setSetting(tx, ONLY, String(next.ssoOnly));
      await setSetting(tx, BREAK_GLASS, next.breakGlassUserId === null ? "" : String(next.breakGlassUserId));
      await recordEvent(tx, "settings.changed", { properties: { keys: [ONLY, BREAK_GLASS] } });
    });
  } finally {
    await settingsWritten(db);
  }
  return next;
}

/**
 * A password login's outcome in SSO-only mode: only the break-glass account logs in with a
 * password, and every other outcome (another account, a wrong password, no such account) is the
 * same ErrSsoOnly, after the same password check. Answering the break-glass account's wrong
 * password otherwise would tell a stranger which one account still takes a password. `check`
 * is the credential check; outside SSO-only mode its outcome stands.
 */
export async function passwordLogin<T extends { id: number }>(db: Db, check: () => Promise<T>): Promise<T> {
  const mode = await ssoMode(db);
  if (!mode.ssoOnly) return await check();
  const outcome = await check().catch((error: unknown) => error);
  // The break-glass account is an administrator's way in: one that lost the admin scope since (a
  // rule's refresh took it) is not, and answers as every other account does.
  const breakGlass = !(outcome instanceof Error) && (outcome as T).id === mode.breakGlassUserId && (await ownScopesOf(db, (outcome as T).id)).includes(SCOPES.admin);
  if (!breakGlass) {
    if (outcome instanceof Error && !(outcome instanceof KilnError && outcome.code === "ErrInvalidCredentials")) throw outcome;
    throw new KilnError("ErrSsoOnly");
  }
  return outcome as T;
}

/**
 * While SSO-only mode is on, the break-glass administrator keeps the admin scope and the account:
 * taking either would leave nobody a password login, and a provider that is down would lock
 * everyone out (ErrBreakGlassAccount). Choose another break-glass account, or turn the mode off, first.
 */
export async function assertNotBreakGlass(db: Db, userId: number): Promise<void> {
  const mode = await ssoMode(db);
  if (mode.ssoOnly && mode.breakGlassUserId === userId) throw new KilnError("ErrBreakGlassAccount");
}

/** The accounts that may be the break-glass one: active administrators. */
export async function breakGlassCandidates(db: Db): Promise<{ id: number; username: string; email: string }[]> {
  return await db
    .select({ id: schema.users.id, username: schema.users.username, email: schema.users.email })
    .from(schema.users)
    .innerJoin(schema.userScopes, eq(schema.userScopes.userId, schema.users.id))
    .where(and(eq(schema.userScopes.scope, SCOPES.admin), eq(schema.users.status, "active")))
    .all();
}
