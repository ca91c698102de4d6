// First start: with no account in the database, create an administrator so the panel is usable.
import { randomBytes } from "node:crypto";
import type { Db } from "../../../db";
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
  if (countUsers(db) > 0) return null;
  const email = input?.email || "admin@kiln.local";
  const username = input?.username || "admin";
  const generatedPassword = input?.password ? undefined : randomBytes(12).toString("base64url");
  await createUser(db, { email, username, password: input?.password || generatedPassword!, scopes: [SCOPES.admin] });
  return { email, username, generatedPassword };
}
