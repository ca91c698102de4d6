// POST /api/servers in PufferPanel's shape: the whole definition as its client read the
// template (`display`, `type`, `install`, `run`, `data` with a `value` in each variable,
// `environment`, …) plus `name`, `node` and `users` (usernames, the first one owns the server).
// It becomes Kiln's creation body, so the same checks hold for it (creation-bounds: a
// non-administrator chooses only the values of userEdit variables, the environment by its type,
// the name, the node and the owner).
//
// Which template: the one whose display name the body carries (PufferPanel's client replaces the
// template's `name` with the server's). The server is built from Kiln's stored template: the
// steps and run section in the body are the template's as the client read it, not choices.
import { eq } from "drizzle-orm";
import { KilnError } from "../../../core/errors";
import type { Db } from "../../../db";
import { schema } from "../../../db";
import type { SessionUser } from "../sessions";
import { getTemplate, listTemplates } from "../templates";
import { isAdminUser } from "./permissions";

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * A body in PufferPanel's shape: it names no template (Kiln's always does; PufferPanel's client
 * sends the template's content instead) and carries variables in `data` or users as a list.
 */
export function isPufferPanelBody(body: Record<string, unknown>): boolean {
  return !("template" in body) && !("variables" in body) && (isRecord(body.data) || Array.isArray(body.users));
}

export interface ConvertedBody {
  /** Kiln's creation body, checked as any other. */
  body: Record<string, unknown>;
  /** Usernames after the owner: they get every flag on the new server, as PufferPanel gives them. */
  alsoUsers: number[];
}

export async function fromPufferPanelBody(db: Db, creator: SessionUser, raw: Record<string, unknown>): Promise<ConvertedBody> {
  const templateName = await templateByDisplay(db, raw.display);
  const template = await getTemplate(db, templateName);
  const variables: Record<string, unknown> = {};
  for (const [name, sent] of Object.entries(isRecord(raw.data) ? raw.data : {})) {
    const value = isRecord(sent) ? sent.value : sent;
    const own = Object.hasOwn(template.data, name) ? template.data[name] : undefined;
    // The client sends every variable back with its value: one the creator may not choose is
    // a choice only when it differs from the template's (and then creation-bounds refuses it).
    if (own && own.userEdit === false && JSON.stringify(value) === JSON.stringify(own.value)) continue;
    if (value !== undefined) variables[name] = value;
  }
  const users = Array.isArray(raw.users) ? raw.users : [];
  // Each name is a lookup: a list without end would be as many queries at once.
  if (users.length > MAX_USERS) throw new KilnError("ErrFieldTooLarge", { field: "users", max: MAX_USERS });
  const ids = await Promise.all(users.map((name, i) => userIdByName(db, name, i)));
  const [owner, ...alsoUsers] = [...new Set(ids)];
  if (alsoUsers.length > 0 && owner !== creator.id && !await isAdminUser(db, creator)) {
    throw new KilnError("ErrNoPermission", { field: "users" }, "only the owner may share the new server");
  }
  const body: Record<string, unknown> = { template: templateName, node: raw.node, variables };
  if (raw.name !== undefined) body.name = raw.name;
  if (isRecord(raw.environment)) body.environment = raw.environment;
  if (owner !== undefined && owner !== creator.id) body.user = await emailOf(db, owner);
  for (const flag of ["autostart", "autorestart", "autorecover"] as const) {
    const run = isRecord(raw.run) ? raw.run : {};
    if (run[flag] !== undefined && run[flag] !== template.run[flag]) body[flag] = run[flag];
  }
  return { body, alsoUsers };
}

/** The most accounts a PufferPanel-shaped creation names (the owner and those it is shared with). */
const MAX_USERS = 50;

async function templateByDisplay(db: Db, display: unknown): Promise<string> {
  const matches = (await listTemplates(db)).filter((t) => t.display === display || t.name === display);
  if (matches.length !== 1) throw new KilnError("ErrNoTemplate", { name: String(display ?? "") }, matches.length ? "more than one template has this display name" : "no template has this display name");
  return matches[0]!.name;
}

async function userIdByName(db: Db, name: unknown, index: number): Promise<number> {
  const row = typeof name === "string" ? await db.select({ id: schema.users.id }).from(schema.users).where(eq(schema.users.username, name)).get() : undefined;
  if (!row) throw new KilnError("ErrUserNotFound", { field: `users.${index}` });
  return row.id;
}

async function emailOf(db: Db, id: number): Promise<string> {
  return (await db.select({ email: schema.users.email }).from(schema.users).where(eq(schema.users.id, id)).get())!.email;
}
