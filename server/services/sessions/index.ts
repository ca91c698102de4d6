// Login sessions: random tokens handed to the client, stored only as SHA-256 hashes.
import { and, eq, gt, lt } from "drizzle-orm";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import { scopesOf } from "../users";

export const SESSION_TTL_MS = 60 * 60 * 1000; // renewed every 10 minutes by the UI (spec section 9)

export interface SessionUser {
  id: number;
  username: string;
  email: string;
  scopes: string[];
}

export function hashToken(token: string): string {
  return new Bun.CryptoHasher("sha256").update(token).digest("hex");
}

export function createSession(db: Db, userId: number, now = Date.now()): string {
  const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  db.insert(schema.sessions)
    .values({ tokenHash: hashToken(token), userId, createdAt: new Date(now), expiresAt: new Date(now + SESSION_TTL_MS) })
    .run();
  return token;
}

export function findSessionUser(db: Db, token: string, now = Date.now()): SessionUser | null {
  const row = db
    .select({ id: schema.users.id, username: schema.users.username, email: schema.users.email })
    .from(schema.sessions)
    .innerJoin(schema.users, eq(schema.users.id, schema.sessions.userId))
    .where(and(eq(schema.sessions.tokenHash, hashToken(token)), gt(schema.sessions.expiresAt, new Date(now))))
    .get();
  if (!row) return null;
  return { ...row, scopes: scopesOf(db, row.id) };
}

export function deleteSession(db: Db, token: string): void {
  db.delete(schema.sessions).where(eq(schema.sessions.tokenHash, hashToken(token))).run();
}

export function purgeExpiredSessions(db: Db, now = Date.now()): void {
  db.delete(schema.sessions).where(lt(schema.sessions.expiresAt, new Date(now))).run();
}
