// kiln user add: create an account from the command line.
import { mkdirSync } from "node:fs";
import { openDatabase } from "../../db";
import { KilnError } from "../../core/errors";
import { SCOPES } from "../../core/scopes";
import type { KilnConfig } from "../config";
import { createUser } from "../services/users";
import { translatorFor } from "../../locales/tables";
import { DEFAULT_LOCALE } from "../../core/i18n/locales";
import type { ParsedArgs } from "./args";
import { errorMessageKey } from "../../core/errors/message-key";

export async function userAdd(config: KilnConfig, args: ParsedArgs): Promise<number> {
  const { email, username, password, admin } = args.flags;
  mkdirSync(config.dataDir, { recursive: true });
  const db = await openDatabase(config.database);
  try {
    const { id } = await createUser(db, {
      email: typeof email === "string" ? email : "",
      username: typeof username === "string" ? username : "",
      password: typeof password === "string" ? password : "",
      scopes: admin ? [SCOPES.admin] : [],
    });
    console.log(`created user ${id} (${email})${admin ? " with the admin scope" : ""}`);
    return 0;
  } catch (error) {
    if (!(error instanceof KilnError)) throw error;
    const t = translatorFor(DEFAULT_LOCALE);
    console.error(`kiln user add: ${t(errorMessageKey(error.code, error.metadata), error.metadata)}`);
    return 2;
  } finally {
    await db.$kiln.close();
  }
}
