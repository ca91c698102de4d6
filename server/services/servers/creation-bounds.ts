// What a creator may choose for a new server. Everyone names the variables
// the template has (an unknown name, `__proto__` included, is ErrNotFound rather than dropped).
// A caller who is not an administrator chooses only the name, the node, the template, one of
// the template's environments by its type, values of the variables marked userEdit, the owner
// and the run flags (they only decide when the template's own command runs, which the owner may
// do anyway); the image, bindings, network, port bindings, the other variables and the
// definition itself come from the template. Anything else sent is refused, never ignored.
import { ownVariable } from "../../../core/definition";
import { versionVariable } from "../../../core/definition/addons";
import { KilnError } from "../../../core/errors";
import type { Db } from "../../../db";
import type { SessionUser } from "../sessions";
import { getTemplate } from "../templates";
import { offeredEnvironments } from "./definition";
import { isAdminUser } from "./permissions";

const CHOSEN_BY_CREATOR = new Set(["name", "node", "constraints", "template", "environment", "variables", "user", "autostart", "autorestart", "autorecover", "modpack"]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether `image` is one of those the offered environment lists in `images`. */
function offeredImage(offered: Record<string, unknown> | undefined, image: unknown): boolean {
  const images = offered?.images;
  return typeof image === "string" && Array.isArray(images) && images.some((entry) => isRecord(entry) && entry.image === image);
}

/**
 * Throws when the creation request `raw` (the body as sent, already checked against the
 * serverCreate schema) sets something its caller may not: ErrNotFound for a variable the
 * template lacks, ErrNoPermission naming the field otherwise.
 */
export async function assertCreationBounds(db: Db, creator: SessionUser, raw: Record<string, unknown>): Promise<void> {
  const template = await getTemplate(db, String(raw.template));
  const admin = await isAdminUser(db, creator);
  const variables = isRecord(raw.variables) ? raw.variables : {};
  for (const name of Object.keys(variables)) {
    const variable = ownVariable(template.data, name);
    if (!variable) throw new KilnError("ErrNotFound", { field: `variables.${name}` }, `the template has no variable ${name}`);
    if (!admin && variable.userEdit === false) throw new KilnError("ErrNoPermission", { field: `variables.${name}` }, `${name} is set by the template`);
  }
  if (admin) return;
  for (const key of Object.keys(raw)) {
    if (!CHOSEN_BY_CREATOR.has(key)) throw new KilnError("ErrNoPermission", { field: key }, `${key} is set by the template`);
  }
  const environment = raw.environment;
  if (!isRecord(environment)) return;
  // The environment is chosen by its type; a field sent beside it may only repeat the template's.
  const offered: Record<string, unknown> | undefined = offeredEnvironments(template).find((e) => e.type === environment.type);
  for (const [key, value] of Object.entries(environment)) {
    if (key === "type") continue;
    // A docker environment that offers images (an egg's docker_images) lets the creator pick one of them.
    if (key === "image" && offeredImage(offered, value)) continue;
    if (!offered || JSON.stringify(value) !== JSON.stringify(offered[key])) throw new KilnError("ErrNoPermission", { field: `environment.${key}` }, `environment.${key} is set by the template`);
  }
}

/**
 * Throws ErrNoPermission when a modpack named at creation would set a variable the template keeps
 * from its users (userEdit false: an administrator pinning the one CurseForge project or file
 * users may run) to another value than the template's. What the creator may not choose by hand,
 * they may not choose through a pack either. The one exception is the Minecraft version the
 * template's platform statement names: a pack runs on its own version, so the statement follows
 * the pack (the template says where the version goes, not which it is).
 */
export async function assertPackVariables(db: Db, creator: SessionUser, templateName: string, set: Record<string, string>): Promise<void> {
  if (await isAdminUser(db, creator)) return;
  const template = await getTemplate(db, templateName);
  const stated = versionVariable(template.addons);
  for (const [name, value] of Object.entries(set)) {
    if (name === stated) continue;
    const variable = ownVariable(template.data, name);
    if (variable?.userEdit === false && String(variable.value) !== value) throw new KilnError("ErrNoPermission", { field: `variables.${name}` }, `${name} is set by the template, and the modpack would change it`);
  }
}
