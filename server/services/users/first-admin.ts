// First start: with no account in the database, create an administrator so the panel is usable.
// Until that administrator first logs in, the login screen says where its password is (the
// panel's log, or KILN_ADMIN_PASSWORD): a panel's first visitor otherwise has no way to know.
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
import { getSetting, setSetting } from "../settings";
import { SCOPES } from "../../../core/scopes";
import { createUser } from "./create-user";
import { countUsers } from "./queries";

export interface FirstAdminInput {
  email?: string;
  password?: string;
  username?: string;
}

export interface FirstAdminResult {
  email: string;
  username: string;
  /** Only set when Kiln made the password up; the caller prints it once. */
  generatedPassword?: string;
}

export async function ensureFirstAdmin(db: Db, input: FirstAdminInput | undefined): Promise<FirstAdminResult | null> {
  if (await countUsers(db) > 0) return null;
  const email = input?.email || "admin@kiln.local";
  const username = input?.username || "admin";
  const generatedPassword = input?.password ? undefined : randomBytes(12).toString("base64url");
  const user = await createUser(db, { email, username, password: input?.password || generatedPassword!, scopes: [SCOPES.admin] });
  await setSetting(db, FIRST_ADMIN_NOTICE, JSON.stringify({ id: user.id, email, generated: generatedPassword !== undefined } satisfies FirstAdminNotice & { id: number }));
  return { email, username, generatedPassword };
}

/**
 * Kept in the settings table under a key no settings API serves (it is in no rule of
 * ../settings), and removed by that administrator's first login.
 */
const FIRST_ADMIN_NOTICE = "kiln.firstAdminNotice";

export interface FirstAdminNotice {
  email: string;
  /** Kiln made the password up and printed it once to the log; else it is KILN_ADMIN_PASSWORD's. */
  generated: boolean;
}

/** What the login screen says about the first administrator, while it has never logged in. */
export async function firstAdminNotice(db: Db): Promise<FirstAdminNotice | null> {
  const raw = await getSetting(db, FIRST_ADMIN_NOTICE);
  if (!raw) return null;
  try {
    const { email, generated } = JSON.parse(raw) as FirstAdminNotice;
    return typeof email === "string" ? { email, generated: generated === true } : null;
  } catch {
    return null;
  }
}

/** A login began: the first administrator's own first one ends the notice. */
export async function firstAdminLoggedIn(db: Db, userId: number): Promise<void> {
  const raw = await getSetting(db, FIRST_ADMIN_NOTICE);
  if (!raw) return;
  try {
    if ((JSON.parse(raw) as { id?: number }).id !== userId) return;
  } catch {
    // unreadable: dropped below
  }
  await setSetting(db, FIRST_ADMIN_NOTICE, "");
}
