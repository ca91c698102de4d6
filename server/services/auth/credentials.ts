// Checking an email and password against the stored argon2id hash.
import { eq } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { KilnError } from "../../../core/errors";
import { normalizeEmail } from "../../../core/validation/email";

// Verifying against a real hash when the account is unknown keeps the answer time the same.
// Made on first need, not at start-up.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(password: string, hash: string | undefined): Promise<boolean> {
  if (!hash) {
    dummyHash ??= Bun.password.hash("kiln-timing-equaliser", { algorithm: "argon2id" });
    await Bun.password.verify(password, await dummyHash);
    return false;
  }
  return Bun.password.verify(password, hash);
}

/** The account id for a good email and password; ErrInvalidCredentials otherwise, saying no more. */
export async function checkCredentials(db: Db, email: unknown, password: unknown): Promise<{ id: number; otpEnabled: boolean }> {
  if (typeof email !== "string" || normalizeEmail(email) === "") throw new KilnError("ErrFieldRequired", { field: "email" });
  if (typeof password !== "string" || password === "") throw new KilnError("ErrFieldRequired", { field: "password" });
  const user = db.select().from(schema.users).where(eq(schema.users.email, normalizeEmail(email))).get();
  const active = user?.status === "active";
  const ok = await verifyPassword(password, active ? user.passwordHash : undefined);
  if (!user || !ok) throw new KilnError("ErrInvalidCredentials");
  return { id: user.id, otpEnabled: user.otpEnabled };
}
